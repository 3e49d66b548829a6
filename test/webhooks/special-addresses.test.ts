// Webhook targets against the IANA special-purpose address registries (iana-special-purpose.json): the
// refused list in src/webhooks/address-ranges.ts is exactly the registries' blocks that are not globally
// reachable plus the blocks the table explains beyond them, and for every block the first address, the
// last one and one inside are refused while the addresses just outside are let through.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { JUDGED_BY_EMBEDDED_IPV4, REFUSED_IPV4, REFUSED_IPV6 } from '../../src/webhooks/address-ranges.js';
import { checkTarget, type HostResolver } from '../../src/webhooks/transport.js';
import { describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { webhookApi } from './support.js';

// --- The table ------------------------------------------------------------------------------------------

interface RegistryEntry {
  prefix: string;
  name: string;
  rfc: string;
  globallyReachable: boolean | 'N/A';
}
interface BeyondEntry {
  prefix: string;
  name: string;
  source: string;
  why: string;
}
const table = JSON.parse(readFileSync(new URL('./iana-special-purpose.json', import.meta.url), 'utf8')) as {
  ipv4: { entries: RegistryEntry[] };
  ipv6: { entries: RegistryEntry[] };
  beyond: BeyondEntry[];
};
const registry = [...table.ipv4.entries, ...table.ipv6.entries];

// --- Addresses as numbers (independent of the code under test) --------------------------------------------

interface Block {
  cidr: string;
  family: 4 | 6;
  bits: number;
  first: bigint;
  last: bigint;
}

const width = (family: 4 | 6) => (family === 4 ? 32 : 128);

function parseAddress(text: string): { family: 4 | 6; value: bigint } {
  if (!text.includes(':')) {
    const parts = text.split('.').map(Number);
    assert.equal(parts.length, 4, text);
    return { family: 4, value: parts.reduce((sum, part) => (sum << 8n) + BigInt(part), 0n) };
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => BigInt(parseInt(group, 16))));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...new Array<bigint>(8 - left.length - right.length).fill(0n), ...right];
  assert.equal(all.length, 8, text);
  return { family: 6, value: all.reduce((sum, group) => (sum << 16n) + group, 0n) };
}

function block(cidr: string): Block {
  const [address = '', prefix = ''] = cidr.split('/');
  const { family, value } = parseAddress(address);
  const bits = Number(prefix);
  const size = 1n << BigInt(width(family) - bits);
  assert.equal(value % size, 0n, `${cidr} has host bits set`);
  return { cidr, family, bits, first: value, last: value + size - 1n };
}

/** One spelling per block, so '2001:0::/32' and '2001::/32' compare equal. */
const canonical = (cidr: string) => {
  const b = block(cidr);
  return `${b.family}:${b.first}/${b.bits}`;
};

const contains = (outer: Block, family: 4 | 6, value: bigint) =>
  outer.family === family && outer.first <= value && value <= outer.last;

/** The address written for a URL's host: dotted IPv4, or the URL parser's canonical IPv6 in brackets. */
function host(family: 4 | 6, value: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => (value >> shift) & 0xffn).join('.');
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((value >> shift) & 0xffffn).toString(16));
  return new URL(`http://[${groups.join(':')}]/`).hostname;
}
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

// --- What the table says must happen ----------------------------------------------------------------------

const codeList = [...REFUSED_IPV4, ...REFUSED_IPV6];
const codeLabels = new Map(codeList.map(([cidr, what]) => [canonical(cidr), what]));
/**
 * The registry blocks judged by the IPv4 address they carry rather than refused whole: IPv4-mapped
 * (::ffff:a.b.c.d is a.b.c.d to a dual-stack socket) and the NAT64 well-known prefix (globally reachable,
 * forwarded to that IPv4). Written here, not read from the code, so the code cannot drift from it.
 */
const JUDGED = ['::ffff:0:0/96', '64:ff9b::/96'];
const judged = JUDGED.map(block);
const isJudged = (cidr: string) => judged.some((b) => canonical(b.cidr) === canonical(cidr));

/**
 * The blocks the table says are refused: every registry block that is not globally reachable (False or
 * N/A), but the two judged by their embedded IPv4 address, and every block the table explains beyond
 * the registries.
 */
const mustRefuse: Block[] = [
  ...registry.filter((entry) => entry.globallyReachable !== true && !isJudged(entry.prefix)).map((entry) => block(entry.prefix)),
  ...table.beyond.map((entry) => block(entry.prefix)),
];

/**
 * How the table says an address is answered: the name (from the code's list) of the most specific refused
 * block holding it; for a mapped or NAT64 address, how its IPv4 address is answered; undefined when let
 * through.
 */
function expectedRefusal(family: 4 | 6, value: bigint): string | undefined {
  const holding = mustRefuse.filter((b) => contains(b, family, value)).sort((a, b) => b.bits - a.bits)[0];
  if (holding) return codeLabels.get(canonical(holding.cidr)) ?? `(no name in the code's list for ${holding.cidr})`;
  if (family === 6 && judged.some((b) => contains(b, 6, value))) return expectedRefusal(4, value & 0xffffffffn);
  return undefined;
}

const noDns: HostResolver = {
  async lookup(hostname) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  },
};

async function assertAnswered(family: 4 | 6, value: bigint, context: string): Promise<void> {
  const hostname = host(family, value);
  const check = await checkTarget(`http://${hostname}/hook`, { allowedNetworks: [], resolver: noDns });
  const expected = expectedRefusal(family, value);
  if (expected === undefined) assert.equal(check.ok, true, `${hostname} (${context}) is let through`);
  else assert.deepEqual(check, { ok: false, reason: `refused: ${bare(hostname)} is ${expected}` }, `${hostname} (${context})`);
}

// --- The code's list and the table agree ------------------------------------------------------------------

describe('the refused list and the IANA special-purpose registries', () => {
  it('refuses exactly the blocks the table says: each not globally reachable registry block and each explained one', () => {
    const code = new Set(codeList.map(([cidr]) => canonical(cidr)));
    const wanted = new Set(mustRefuse.map((b) => canonical(b.cidr)));
    const missing = mustRefuse.filter((b) => !code.has(canonical(b.cidr))).map((b) => b.cidr);
    const unexplained = codeList.filter(([cidr]) => !wanted.has(canonical(cidr))).map(([cidr]) => cidr);
    assert.deepEqual({ missing, unexplained }, { missing: [], unexplained: [] });
    assert.equal(code.size, codeList.length, 'no block listed twice');
  });

  it('judges only the mapped and NAT64 registry blocks by their embedded IPv4 address', () => {
    assert.deepEqual(JUDGED_BY_EMBEDDED_IPV4.map(canonical).sort(), JUDGED.map(canonical).sort());
    for (const cidr of JUDGED) {
      const entry = registry.find((e) => canonical(e.prefix) === canonical(cidr));
      assert.ok(entry, `${cidr} is a registry block`);
      assert.ok(!codeLabels.has(canonical(cidr)), `${cidr} is not refused whole`);
    }
  });

  it('lists a block before any block holding it, so its own name is given', () => {
    for (const list of [REFUSED_IPV4, REFUSED_IPV6]) {
      const blocks = list.map(([cidr]) => block(cidr));
      blocks.forEach((inner, i) =>
        blocks.slice(0, i).forEach((outer) => {
          const shadows = outer.bits < inner.bits && contains(outer, inner.family, inner.first);
          assert.ok(!shadows, `${outer.cidr} comes before ${inner.cidr}, which it holds`);
        }),
      );
    }
  });

  it('reads a table whose every block is well formed and sourced', () => {
    for (const entry of registry) {
      assert.ok([true, false, 'N/A'].includes(entry.globallyReachable), `${entry.prefix}: Globally Reachable`);
      assert.match(entry.rfc, /RFC \d+/, entry.prefix);
    }
    for (const entry of table.beyond) assert.ok(entry.source && entry.why, entry.prefix);
    // The ranges this check was written for are all there.
    for (const cidr of ['172.16.0.0/12', '169.254.0.0/16', '::ffff:0:0:0/96', '::/96', 'fec0::/10', 'ff00::/8', '2001::/32']) {
      assert.ok(
        mustRefuse.some((b) => canonical(b.cidr) === canonical(cidr)),
        cidr,
      );
    }
  });
});

// --- Every block, address by address ----------------------------------------------------------------------

describe('webhook targets in every special-purpose block (no allowed networks)', () => {
  const entries = [...registry.map((entry) => ({ prefix: entry.prefix, name: entry.name })), ...table.beyond];
  for (const entry of entries) {
    const b = block(entry.prefix);
    const refused = mustRefuse.some((r) => r.cidr === b.cidr);
    it(`${entry.prefix} (${entry.name}): first, last, inside and just outside answered as the table says${refused ? ' (refused)' : ''}`, async () => {
      const inside = b.first + ((b.last - b.first) * 3n) / 7n;
      await assertAnswered(b.family, b.first, 'first');
      await assertAnswered(b.family, b.last, 'last');
      await assertAnswered(b.family, inside, 'inside');
      if (b.first > 0n) await assertAnswered(b.family, b.first - 1n, 'just before');
      if (b.last < (1n << BigInt(width(b.family))) - 1n) await assertAnswered(b.family, b.last + 1n, 'just after');
    });
  }

  it('refuses the addresses a private network hands out, each by name', async () => {
    const cases: [string, string][] = [
      ['172.17.0.1', 'a private address'], // Docker's default bridge
      ['172.31.255.255', 'a private address'], // the last of a default cloud VPC
      ['169.254.170.2', 'a link-local address'], // the container credentials endpoint
      ['169.254.169.254', 'the cloud metadata address'],
      ['255.255.255.255', 'the broadcast address'],
      ['[::ffff:0:7f00:1]', 'an IPv4-translated address'],
      ['[::ffff:127.0.0.1]', 'a loopback address'],
      ['[::7f00:1]', 'an IPv4-compatible address'],
      ['[fec0::1]', 'a site-local address'],
      ['[ff02::1]', 'a multicast address'],
      ['[2001::5efe:7f00:1]', 'a Teredo address'],
      ['[64:ff9b:1::a00:1]', 'a local-use NAT64 address'],
      ['[3fff::1]', 'a documentation address'],
    ];
    for (const [hostname, what] of cases) {
      const check = await checkTarget(`http://${hostname}:8080/hook`, { allowedNetworks: [], resolver: noDns });
      const written = bare(new URL(`http://${hostname}/`).hostname);
      assert.deepEqual(check, { ok: false, reason: `refused: ${written} is ${what}` }, hostname);
    }
  });

  it('refuses every IPv6 form of every refused IPv4 block, however it is spelt', async () => {
    const v4 = mustRefuse.filter((b) => b.family === 4);
    for (const b of v4) {
      for (const value of [b.first, b.last]) {
        const [w, x, y, z] = host(4, value).split('.').map(Number) as [number, number, number, number];
        const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
        const forms = [
          `::ffff:${w}.${x}.${y}.${z}`, // mapped, dotted
          `::ffff:${hex(w, x)}:${hex(y, z)}`, // mapped
          `::ffff:0:${hex(w, x)}:${hex(y, z)}`, // translated
          `::${hex(w, x)}:${hex(y, z)}`, // compatible
          `64:ff9b::${hex(w, x)}:${hex(y, z)}`, // NAT64
          `64:ff9b:1::${hex(w, x)}:${hex(y, z)}`, // local-use NAT64
          `2002:${hex(w, x)}:${hex(y, z)}::1`, // 6to4
          `2001:0:4136:e378:8000:63bf:${(~((w << 8) | x) & 0xffff).toString(16)}:${(~((y << 8) | z) & 0xffff).toString(16)}`, // Teredo
        ];
        for (const form of forms) {
          const check = await checkTarget(`http://[${form}]/`, { allowedNetworks: [], resolver: noDns });
          assert.equal(check.ok, false, `${form} (${b.cidr})`);
        }
      }
    }
  });

  it('lets through public addresses, and a mapped or NAT64 form of one', async () => {
    for (const hostname of [
      '93.184.215.14',
      '[2606:2800:21f:cb07:6820:80da:af6b:8b2c]',
      '[::ffff:93.184.215.14]',
      '[64:ff9b::5db8:d70e]',
    ]) {
      const check = await checkTarget(`https://${hostname}/hook`, { allowedNetworks: [], resolver: noDns });
      assert.equal(check.ok, true, hostname);
    }
  });

  it('refuses a name that resolves to an IPv4-translated loopback address', async () => {
    const resolver: HostResolver = { lookup: async () => ['93.184.215.14', '::ffff:0:7f00:1'] };
    const check = await checkTarget('https://hooks.customer.test/', { allowedNetworks: [], resolver });
    assert.deepEqual(check, {
      ok: false,
      reason: 'refused: hooks.customer.test resolves to ::ffff:0:7f00:1, an IPv4-translated address',
    });
  });
});

// --- Through the webhooks API -----------------------------------------------------------------------------

describeEach('webhook targets in special-purpose blocks through the API', (backend) => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startApp(backend);
  });
  after(() => ctx.close());

  it('answers 400 in the published shape for an address inside every refused block, and stores nothing', async () => {
    const api = webhookApi(ctx.app, (await makeKey(ctx.db, 'pro')).key);
    const samples = mustRefuse.map((b) => ({ b, value: b.first + ((b.last - b.first) * 3n) / 7n }));
    const named = ['172.17.0.1', '172.31.255.255', '169.254.170.2', '::ffff:0:7f00:1'].map((address) => {
      const { family, value } = parseAddress(address);
      return { b: mustRefuse.find((r) => contains(r, family, value))!, value };
    });
    for (const { b, value } of [...samples, ...named]) {
      const hostname = host(b.family, value);
      const res = await api.create({ endpoint_url: `https://${hostname}/hook`, event_types: ['funding.created'] });
      assert.equal(res.status, 400, `${hostname} (${b.cidr})`);
      assert.deepEqual(res.body, {
        success: false,
        error: `endpoint_url: refused: ${bare(hostname)} is ${expectedRefusal(b.family, value)}`,
        code: 'bad_request',
        param: 'endpoint_url',
      });
    }
    assert.equal((await api.call('GET', '/api/v2/webhooks')).body.data.length, 0, 'nothing was stored');
  });
});

describeEach('webhook targets in an allowed private network', (backend) => {
  let ctx: TestContext;
  before(async () => {
    ctx = await startApp(backend, { WEBHOOK_ALLOWED_NETWORKS: '172.16.0.0/12,fd12:3456::/32' });
  });
  after(() => ctx.close());

  it('accepts addresses of the allowed networks, in their IPv6 forms too, and still refuses the rest', async () => {
    const api = webhookApi(ctx.app, (await makeKey(ctx.db, 'pro')).key);
    for (const url of [
      'http://172.17.0.1:8080/hook',
      'http://[::ffff:172.31.255.255]/',
      'http://[::ffff:0:ac11:1]/',
      'http://[fd12:3456::1]/',
    ]) {
      const res = await api.create({ endpoint_url: url, event_types: ['funding.created'] });
      assert.equal(res.status, 201, `${url}: ${JSON.stringify(res.body)}`);
    }
    for (const [url, why] of [
      ['http://10.0.0.1/', 'refused: 10.0.0.1 is a private address'],
      ['http://[fd12:3457::1]/', 'refused: fd12:3457::1 is a private address'],
      ['http://[::ffff:0:7f00:1]/', 'refused: ::ffff:0:7f00:1 is an IPv4-translated address'],
    ] as const) {
      const res = await api.create({ endpoint_url: url, event_types: ['funding.created'] });
      assert.deepEqual([res.status, res.body.error], [400, `endpoint_url: ${why}`], url);
    }
  });
});
