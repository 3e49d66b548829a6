// Sends one request to a server, and puts an answer in the form two servers' answers are compared
// in: what is random per run or per moment is replaced by a marker, everything else is kept.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Answer, RequestTemplate, Step } from './plan.js';

/** What one server has given so far: values for the templates, and the per-run values to mask. */
export class ServerState {
  readonly vars = new Map<string, string>();
  /** value → marker, e.g. the id of the first webhook → <hook.quiet.id>. */
  readonly aliases = new Map<string, string>();

  constructor(
    readonly name: string,
    readonly baseUrl: string,
    readonly agent = new Agent({ keepAlive: true, maxSockets: 1 }),
  ) {}

  resolve(template: string): string {
    return template.replace(/\{\{([^}]+)\}\}/g, (_, name: string) => this.vars.get(name) ?? `{{missing ${name}}}`);
  }

  alias(value: string, marker: string): void {
    if (value.length >= 5) this.aliases.set(value, `<${marker}>`);
  }
}

export async function send(state: ServerState, template: RequestTemplate): Promise<Answer> {
  const url = new URL(state.baseUrl);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(template.headers ?? {})) headers[name] = state.resolve(value);
  const body = typeof template.body === 'string' ? Buffer.from(state.resolve(template.body)) : template.body;
  if (body !== undefined) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: template.method,
        path: state.resolve(template.path),
        headers,
        agent: state.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const answerHeaders: Record<string, string> = {};
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i]!.toLowerCase();
            const value = res.rawHeaders[i + 1]!;
            answerHeaders[name] = name in answerHeaders ? `${answerHeaders[name]}, ${value}` : value;
          }
          resolve({ status: res.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error('no answer within 60 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Headers left out of the comparison: each differs between two runs of the same code.
 * - date: the clock;
 * - x-request-id: a random UUID per request;
 * - connection, keep-alive: how this client's connection is kept, not the answer.
 */
export const IGNORED_HEADERS = ['date', 'x-request-id', 'connection', 'keep-alive'];

/**
 * Headers kept but whose value is masked, with the reason:
 * - x-ratelimit-reset: a Unix time, now + the window;
 * - ratelimit: its t= is the seconds left in the window;
 * - retry-after on a 429: seconds left in the window (a fixed Retry-After, as on 503, is kept);
 * - set-cookie: the cookie's value is random (sealed with a random IV, or a random session id);
 *   its name and attributes are kept;
 * - etag: only when the body it covers holds a per-run value (below): the tag hashes it.
 */
function normaliseHeaders(answer: Answer, bodyHadRunValues: boolean, state: ServerState): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (IGNORED_HEADERS.includes(name)) continue;
    let normalised = maskAliases(value, state);
    if (name === 'x-ratelimit-reset') normalised = '<unix time>';
    if (name === 'ratelimit') normalised = normalised.replace(/t=\d+/g, 't=<seconds>');
    if (name === 'retry-after' && answer.status === 429) normalised = '<seconds>';
    if (name === 'set-cookie')
      normalised = normalised.replace(/^([^=]+)=[^;]*/, '$1=<value>').replace(/, ([^=;, ]+)=[^;]*/g, ', $1=<value>');
    if (name === 'etag' && bodyHadRunValues) normalised = '<tag of a body with per-run values>';
    if (name === 'content-length' && bodyHadRunValues) normalised = '<length of a body with per-run values>';
    out[name] = normalised;
  }
  return out;
}

function maskAliases(text: string, state: ServerState): string {
  let out = text;
  for (const [value, marker] of state.aliases) if (out.includes(value)) out = out.split(value).join(marker);
  return out;
}

const TIMESTAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}(?::?\d{2})?)/g;

/**
 * Timestamps of "now": any date-time at or after the moment the servers were started is a time
 * the run made (a webhook's created_at, a change's changedAt, a delivery's attempt); the demo
 * data's own dates all lie before the day of the run.
 */
function maskNow(text: string, startedAt: number): string {
  return text.replace(TIMESTAMP, (stamp) => {
    const time = Date.parse(stamp.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'));
    return Number.isFinite(time) && time >= startedAt ? '<now>' : stamp;
  });
}

/**
 * Body fields whose value is a duration measured by the server (an import's, a delivery's
 * latency): they vary run to run. Masked wherever they appear in a JSON body.
 */
export const TIMING_FIELDS = ['durationMs', 'duration_ms', 'latency_ms', 'latencyMs', 'response_time_ms'];

/**
 * Markup holding per-form random values: the hidden anti-forgery field of each form (a random
 * token per render).
 */
const FORM_TOKEN = /(name="(?:csrf|_csrf|csrf_token|form_token)"[^>]*value=")[^"]*(")/g;

function maskJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskJson);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        TIMING_FIELDS.includes(key) && typeof inner === 'number' ? '<ms>' : maskJson(inner),
      ]),
    );
  }
  return value;
}

export interface Shown {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function normalise(answer: Answer, step: Step, state: ServerState, startedAt: number): Shown {
  const raw = answer.body.toString('utf8');
  const type = answer.headers['content-type'] ?? '';
  if (step.compare === 'metric-names') {
    // Names only: every sample's value, and which label values exist, depend on the moment.
    const names = new Set<string>();
    for (const line of raw.split('\n')) {
      const match = /^# TYPE (\S+) (\S+)/.exec(line);
      if (match) names.add(`${match[1]} ${match[2]}`);
    }
    return { status: answer.status, headers: normaliseHeaders(answer, true, state), body: [...names].sort().join('\n') };
  }
  let body = maskNow(maskAliases(raw, state), startedAt);
  let hadRunValues = body !== raw;
  if (type.includes('json')) {
    try {
      const parsed: unknown = JSON.parse(body);
      const masked = maskJson(parsed);
      hadRunValues ||= JSON.stringify(masked) !== JSON.stringify(parsed);
      body = JSON.stringify(masked, null, 2);
    } catch {
      // Not JSON after all (a refused body may say so): compared as text.
    }
  } else if (type.includes('html')) {
    const masked = body.replace(FORM_TOKEN, '$1<token>$2');
    hadRunValues ||= masked !== body;
    body = masked;
  }
  return { status: answer.status, headers: normaliseHeaders(answer, hadRunValues, state), body };
}

export function render(shown: Shown): string {
  const headers = Object.keys(shown.headers)
    .sort()
    .map((name) => `${name}: ${shown.headers[name]}`);
  return [`HTTP ${shown.status}`, ...headers, '', shown.body, ''].join('\n');
}

/** A unified diff of two texts (diff -u), labelled base and head. */
export function unifiedDiff(base: string, head: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'compare-diff-'));
  try {
    writeFileSync(join(dir, 'base'), base);
    writeFileSync(join(dir, 'head'), head);
    const result = spawnSync('diff', ['-u', '--label', 'base', '--label', 'head', join(dir, 'base'), join(dir, 'head')], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return result.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function describe(template: RequestTemplate): string {
  const headers = Object.entries(template.headers ?? {})
    .map(([name, value]) => ` ${name}: ${value}`)
    .join('');
  const body =
    template.body === undefined
      ? ''
      : typeof template.body === 'string'
        ? ` body ${template.body.length} bytes: ${template.body.slice(0, 200)}`
        : ` body ${template.body.length} bytes (binary)`;
  return `${template.method} ${template.path.length > 300 ? template.path.slice(0, 300) + '…' : template.path}${headers}${body}`;
}
