/**
 * The addresses a webhook may not target: every block of the IANA special-purpose address registries
 * (iana-ipv4-special-registry, iana-ipv6-special-registry) whose "Globally Reachable" is False or N/A,
 * and the few blocks outside those registries that no receiver on the internet has (multicast, the
 * deprecated IPv6 forms, the cloud metadata address). test/webhooks/iana-special-purpose.json is the
 * registries as transcribed, and its test keeps this list and that table in step.
 *
 * Two registry blocks are judged by the IPv4 address they carry instead of being refused whole: the
 * IPv4-mapped block (::ffff:a.b.c.d is how a dual-stack socket writes a.b.c.d; the registry marks it not
 * reachable because it never appears on the wire) and the NAT64 well-known prefix 64:ff9b::/96, which
 * the registry marks reachable (a translator forwards it to that IPv4).
 *
 * Globally reachable entries nested in a refused block (192.0.0.9/32 and 192.0.0.10/32 in
 * 192.0.0.0/24, the anycast and overlay blocks in 2001::/23) are refused with it: they are protocol
 * anycast and identifier blocks, never a webhook receiver.
 */
import net from 'node:net';

/**
 * The refused blocks and how a refusal names them. Checked in order and the first match names the
 * reason, so a block comes before any block containing it (the metadata address before link-local).
 */
export const REFUSED_IPV4: readonly (readonly [cidr: string, what: string])[] = [
  ['0.0.0.0/32', 'an unspecified address'],
  ['0.0.0.0/8', 'a "this network" address'],
  ['10.0.0.0/8', 'a private address'],
  ['100.64.0.0/10', 'a carrier-grade NAT address'],
  ['127.0.0.0/8', 'a loopback address'],
  ['169.254.169.254/32', 'the cloud metadata address'],
  ['169.254.0.0/16', 'a link-local address'],
  ['172.16.0.0/12', 'a private address'],
  ['192.0.0.0/29', 'an IPv4 service continuity address'],
  ['192.0.0.8/32', 'the IPv4 dummy address'],
  ['192.0.0.170/32', 'a NAT64 discovery address'],
  ['192.0.0.171/32', 'a NAT64 discovery address'],
  ['192.0.0.0/24', 'an IETF protocol address'],
  ['192.0.2.0/24', 'a documentation address'],
  ['192.88.99.2/32', 'a 6a44 relay address'],
  ['192.88.99.0/24', 'a former 6to4 relay address'],
  ['192.168.0.0/16', 'a private address'],
  ['198.18.0.0/15', 'a benchmarking address'],
  ['198.51.100.0/24', 'a documentation address'],
  ['203.0.113.0/24', 'a documentation address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['255.255.255.255/32', 'the broadcast address'],
  ['240.0.0.0/4', 'a reserved address'],
];

export const REFUSED_IPV6: readonly (readonly [cidr: string, what: string])[] = [
  ['::/128', 'an unspecified address'],
  ['::1/128', 'a loopback address'],
  // IPv4-compatible (deprecated): no stack uses them any more.
  ['::/96', 'an IPv4-compatible address'],
  // IPv4-translated (SIIT): ::ffff:0:a.b.c.d is reached only through a translator of the operator's.
  ['::ffff:0:0:0/96', 'an IPv4-translated address'],
  ['64:ff9b:1::/48', 'a local-use NAT64 address'],
  ['100::/64', 'a discard-only address'],
  // Teredo hides the IPv4 it reaches (obfuscated), so it cannot be checked.
  ['2001::/32', 'a Teredo address'],
  ['2001:2::/48', 'a benchmarking address'],
  ['2001:10::/28', 'a former ORCHID address'],
  ['2001::/23', 'an IETF protocol address'],
  ['2001:db8::/32', 'a documentation address'],
  // 6to4 reaches the IPv4 it embeds only through relays (the registry says N/A).
  ['2002::/16', 'a 6to4 address'],
  ['3fff::/20', 'a documentation address'],
  ['5f00::/16', 'a segment routing (SRv6) address'],
  ['fc00::/7', 'a private address'],
  ['fe80::/10', 'a link-local address'],
  // Site-local (deprecated), which stacks may still route inside a site.
  ['fec0::/10', 'a site-local address'],
  ['ff00::/8', 'a multicast address'],
];

/** The registry blocks judged by the IPv4 address they embed (see above). */
export const JUDGED_BY_EMBEDDED_IPV4: readonly string[] = ['::ffff:0:0/96', '64:ff9b::/96'];

function rangeLists(ranges: readonly (readonly [string, string])[], type: 'ipv4' | 'ipv6'): [net.BlockList, string][] {
  return ranges.map(([cidr, what]) => {
    const list = new net.BlockList();
    const [address, prefix] = cidr.split('/');
    list.addSubnet(address!, Number(prefix), type);
    return [list, what];
  });
}

const refusedIPv4 = rangeLists(REFUSED_IPV4, 'ipv4');
const refusedIPv6 = rangeLists(REFUSED_IPV6, 'ipv6');
const judgedByIPv4 = rangeLists(
  JUDGED_BY_EMBEDDED_IPV4.map((cidr) => [cidr, cidr] as const),
  'ipv6',
).map(([list]) => list);

/**
 * Why address (of that family) may not be a target, or undefined when it may: the first refused block
 * that holds it, or for a mapped or NAT64 address what its IPv4 address is. (Operator allowances are the
 * caller's.)
 */
export function refusedRange(address: string, family: 4 | 6): string | undefined {
  if (family === 4) return firstMatch(refusedIPv4, address, 'ipv4');
  const own = firstMatch(refusedIPv6, address, 'ipv6');
  if (own !== undefined || !judgedByIPv4.some((list) => list.check(address, 'ipv6'))) return own;
  const ipv4 = embeddedIPv4(address);
  return ipv4 === undefined ? undefined : firstMatch(refusedIPv4, ipv4, 'ipv4');
}

function firstMatch(lists: [net.BlockList, string][], address: string, type: 'ipv4' | 'ipv6'): string | undefined {
  for (const [list, what] of lists) if (list.check(address, type)) return what;
  return undefined;
}

/**
 * The 8 16-bit groups of an IPv6 address. The URL parser writes it canonically first (hex groups only,
 * at most one '::'), so a dotted IPv4 tail or odd spelling needs no parsing here.
 */
function ipv6Groups(address: string): number[] {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const groups = (text: string) => (text === '' ? [] : text.split(':').map((group) => parseInt(group, 16)));
  const left = groups(head);
  if (tail === undefined) return left;
  const right = groups(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 address stands for, where the network delivers it to that IPv4: mapped
 * (::ffff:a.b.c.d, what a dual-stack socket connects as a.b.c.d), translated (::ffff:0:a.b.c.d), NAT64
 * (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::). An operator who allows that IPv4 allows these too;
 * mapped and NAT64 addresses are otherwise judged by it.
 */
export function embeddedIPv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (g.length !== 8) return undefined;
  const zeroFirstFour = g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0;
  if (zeroFirstFour && g[4] === 0 && g[5] === 0xffff) return ipv4Of(g[6]!, g[7]!);
  if (zeroFirstFour && g[4] === 0xffff && g[5] === 0) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4Of(g[1]!, g[2]!);
  return undefined;
}
