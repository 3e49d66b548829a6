// Where a server's CPU time goes, from a V8 CPU profile (`node --cpu-prof`): self time by part of a
// request (key, rate limit and credits, filter index, read model and documents, database driver,
// validation, serialisation, HTTP and framework, metrics and logs, garbage collection, idle) and the
// heaviest functions. A part is told by the file a function lives in; time in Node's and V8's own
// code (JSON.stringify, Buffer, the parser) counts where its nearest caller of ours is.
//   node --import tsx bench/cpu-profile.ts FILE.cpuprofile [--top N] [--last SECONDS]
// --last counts only the samples of the profile's last SECONDS (the load, not the start-up's build).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Parts of a request, first match wins: [name, test on a function's file]. */
const PARTS: [string, RegExp][] = [
  ['key (verify, cache)', /(src|dist)\/accounts\/(key-verifier|api-key|access)/],
  [
    'rate limit and credits',
    /(src|dist)\/accounts\/(rate-limits|credits|usage)|(src|dist)\/platform\/infra\/(rate-limit|redis-rate|resilient)|ioredis|redis-parser/,
  ],
  ['filter index', /(src|dist)\/read\/filter-index\//],
  ['read model and documents', /(src|dist)\/read\/(read-model|dataset-index-filter|queries|listing|lookup)/],
  ['database driver', /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-)/],
  ['v1/v2 replies and catalog', /(src|dist)\/(read\/v[12]-reply|catalog|families)\//],
  ['validation', /ajv|(src|dist)\/catalog\/validation|(src|dist)\/platform\/http\/validation/],
  ['serialisation', /fast-json-stringify|json-schema-ref|(src|dist)\/platform\/http\/conditional/],
  ['metrics and logs', /prom-client|pino|sonic-boom|(src|dist)\/platform\/infra\/(metrics|event-loop)/],
  [
    'HTTP and framework',
    /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|toad-cache|process-warning)|node:_http|node:http|node:net|node:stream|(src|dist)\/platform\/http|(src|dist)\/app/,
  ],
];

function partOf(url: string): string | undefined {
  for (const [name, test] of PARTS) if (test.test(url)) return name;
  return undefined;
}

const SPECIAL: Record<string, string> = {
  '(garbage collector)': 'garbage collection',
  '(idle)': 'idle',
  '(program)': 'V8 and Node (no JS frame)',
  '(root)': 'V8 and Node (no JS frame)',
};

function main(): void {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) throw new Error('usage: bench/cpu-profile.ts FILE.cpuprofile [--top N] [--last SECONDS]');
  const option = (name: string) => {
    const at = rest.indexOf(name);
    return at >= 0 ? Number(rest[at + 1]) : undefined;
  };
  const top = option('--top') ?? 25;
  const last = option('--last');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  // A node's part: its own file's, else its nearest caller's with one.
  const parts = new Map<number, string>();
  const resolve = (id: number): string => {
    const known = parts.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const special = SPECIAL[node.callFrame.functionName];
    const own = special ?? partOf(node.callFrame.url);
    const caller = parent.get(id);
    const part = own ?? (caller === undefined ? 'other' : resolve(caller));
    parts.set(id, part === 'V8 and Node (no JS frame)' && !special ? 'other' : part);
    return parts.get(id)!;
  };
  // Sample i ends at the sum of the deltas up to it; with --last, only those in the final window count.
  const ends: number[] = [];
  profile.timeDeltas.reduce((at, delta, i) => (ends[i] = at + delta), 0);
  const from = last === undefined ? -Infinity : (ends.at(-1) ?? 0) - last * 1e6;
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    if (ends[i]! >= from) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const byPart = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const part = resolve(id);
    byPart.set(part, (byPart.get(part) ?? 0) + us);
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|src|dist)\//, '$1/')}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const busy = total - (byPart.get('idle') ?? 0);
  const line = (name: string, us: number) =>
    `${(us / 1e6).toFixed(2).padStart(8)} s  ${((100 * us) / total).toFixed(1).padStart(5)} % of all  ${((100 * us) / busy).toFixed(1).padStart(5)} % of busy  ${name}`;
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy`);
  console.log('\nby part of a request (self time; Node and V8 code counted with its caller):');
  for (const [name, us] of [...byPart].sort((a, b) => b[1] - a[1])) console.log(line(name, us));
  console.log(`\nheaviest ${top} functions (self time):`);
  for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(line(name, us));
}

main();
