/**
 * Code samples for every operation of the OpenAPI document: curl, JavaScript with our typed client
 * (@dealsignal/client) and Python with the standard library, derived from the operation itself (its
 * path, method, security scheme, parameter examples and request body), so a sample changes with the
 * route it shows. They go two places: `x-codeSamples` (read by Redoc and Scalar) and a markdown
 * section of the description, as Swagger UI (our /docs) ignores `x-codeSamples`.
 */

export interface CodeSample {
  lang: 'Shell' | 'JavaScript' | 'Python';
  label: string;
  source: string;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  example?: unknown;
  schema?: { format?: string; default?: unknown; minimum?: number; maximum?: number };
}

interface MediaType {
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  schema?: { example?: unknown; examples?: unknown[] };
}

interface Operation {
  operationId?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  security?: Record<string, string[]>[];
}

interface SecurityScheme {
  type: string;
  in?: string;
  name?: string;
  scheme?: string;
}

interface Document {
  paths?: Record<string, Record<string, unknown>>;
  security?: Record<string, string[]>[];
  components?: { securitySchemes?: Record<string, SecurityScheme> };
}

/**
 * The client's method for each operation. `all` names the page iterator of the lists that have one.
 * An operation missing here makes withCodeSamples throw (a new route does not ship without its sample),
 * but for a v2 signal list, which the client's generic `v2.endpoint(path)` serves.
 */
const CLIENT_CALLS: Record<string, { call: string; all?: string }> = {
  listFunding: { call: 'v1.funding.list', all: 'v1.funding.all' },
  listMergersAndAcquisitions: { call: 'v1.deals.list', all: 'v1.deals.all' },
  lookupFunding: { call: 'v1.funding.lookup' },
  lookupMergersAndAcquisitions: { call: 'v1.deals.lookup' },
  getInvestors: { call: 'v2.investors.list', all: 'v2.investors.all' },
  getJobChangeSignals: { call: 'v2.jobChanges.list', all: 'v2.jobChanges.all' },
  getAcquisitionSignals: { call: 'v2.acquisitions.list', all: 'v2.acquisitions.all' },
  getFundingSignals: { call: 'v2.funding.list', all: 'v2.funding.all' },
  getHiringSignals: { call: 'v2.hiring.list', all: 'v2.hiring.all' },
  getCompanies: { call: 'v2.companies.list', all: 'v2.companies.all' },
  searchPeople: { call: 'v2.people.list', all: 'v2.people.all' },
  getCompany: { call: 'v2.companies.get' },
  lookupCompany: { call: 'v2.companies.lookup' },
  listChanges: { call: 'v2.changes.list' },
  createWebhook: { call: 'v2.webhooks.create' },
  listWebhooks: { call: 'v2.webhooks.list' },
  getWebhook: { call: 'v2.webhooks.get' },
  updateWebhook: { call: 'v2.webhooks.update' },
  deleteWebhook: { call: 'v2.webhooks.delete' },
  testWebhook: { call: 'v2.webhooks.test' },
  listWebhookDeliveries: { call: 'v2.webhooks.deliveries' },
  retryWebhookDelivery: { call: 'v2.webhooks.retry' },
  createCSVEnrichmentJob: { call: 'v2.enrichment.create' },
  getCSVEnrichmentJob: { call: 'v2.enrichment.get' },
  createMonitor: { call: 'v2.monitors.create' },
  listMonitors: { call: 'v2.monitors.list' },
  getMonitor: { call: 'v2.monitors.get' },
  updateMonitor: { call: 'v2.monitors.update' },
  deleteMonitor: { call: 'v2.monitors.delete' },
  listMonitorTargets: { call: 'v2.monitors.targets' },
  addMonitorTargets: { call: 'v2.monitors.addTargets' },
  removeMonitorTarget: { call: 'v2.monitors.removeTarget' },
  removeMonitorTargets: { call: 'v2.monitors.removeTargets' },
  replayMonitor: { call: 'v2.monitors.replay' },
};

/**
 * A v2 signal list the client has no named member for (a dataset added to the catalog): the client's
 * `v2.endpoint(path)` serves it, typed by the document.
 */
function signalListCall(path: string, method: string): { call: string; all: string } | undefined {
  if (method !== 'get' || !/^\/api\/v2\/signals\/[a-z0-9-]+$/.test(path)) return undefined;
  const endpoint = `v2.endpoint('${path}')`;
  return { call: `${endpoint}.list`, all: `${endpoint}.all` };
}

/**
 * Bodies for the operations whose document has no example body (the webhooks API takes free-form
 * names, so its schema carries none): the smallest body that does what the operation is for.
 */
const BODIES: Record<string, unknown> = {
  createWebhook: {
    endpoint_url: 'https://example.com/hooks/dealsignal',
    event_types: ['funding.created'],
    filters: { countries: 'US' },
  },
  updateWebhook: { active: false },
  createMonitor: {
    name: 'Target accounts',
    signal_types: ['funding_round', 'acquisition', 'job_change', 'hiring'],
    webhook_url: 'https://example.com/hooks/dealsignal',
  },
  updateMonitor: { active: false },
  addMonitorTargets: { targets: ['mollie.com', 'https://www.linkedin.com/company/stripe'], backfill_days: 30 },
  removeMonitorTargets: { targets: ['mollie.com'] },
  replayMonitor: { since: '2026-11-01T00:00:00Z' },
  createCSVEnrichmentJob: {
    fileName: 'target-accounts.csv',
    wait: true,
    timeout: 30,
    companies: [{ company_name: 'Mollie', website_url: 'mollie.com', external_id: 'acct_123' }],
  },
};

// A sample shows a couple of filters, not every example: enough to see the shape, few enough to read.
const SAMPLE_FILTERS = 2;
// And asks for a short page, so what it prints fits on a screen.
const SAMPLE_LIMIT = 5;
const WIDTH = 100;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const LABELS = { Shell: 'curl', JavaScript: 'JavaScript (@dealsignal/client)', Python: 'Python (standard library)' } as const;
const FENCES = { Shell: 'sh', JavaScript: 'js', Python: 'python' } as const;

/** Everything the three samples of one operation say, language aside. */
interface SampleRequest {
  method: string;
  baseUrl: string;
  /** The base URL and the path, placeholders in. */
  url: string;
  query: [string, unknown][];
  /** The header the key travels in, and what precedes the key in it. */
  auth?: { header: string; prefix: string };
  body?: unknown;
  /** Placeholders in the URL (WEBHOOK_ID), with what to put there. */
  placeholders: { name: string; meaning: string }[];
  client: { call: string; all?: string; pathArgs: string[] };
}

/** A copy of the document with samples on every operation; the document itself is left as it is. */
export function withCodeSamples<T extends object>(document: T, baseUrl: string): T {
  const doc = document as Document;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const shared = (item.parameters ?? []) as Parameter[];
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([method, value]) => {
        if (!METHODS.includes(method)) return [method, value];
        const operation = value as Operation;
        const samples = codeSamples(describeRequest(doc, baseUrl, path, method, operation, shared));
        return [method, { ...operation, description: withSection(operation.description, samples), 'x-codeSamples': samples }];
      }),
    );
  }
  return { ...document, paths };
}

function describeRequest(
  doc: Document,
  baseUrl: string,
  path: string,
  method: string,
  operation: Operation,
  shared: Parameter[],
): SampleRequest {
  const where = `${method.toUpperCase()} ${path}`;
  const operationId = operation.operationId;
  if (!operationId) throw new Error(`${where} has no operationId, so no code sample`);
  const client = CLIENT_CALLS[operationId] ?? signalListCall(path, method);
  if (!client) {
    throw new Error(
      `${where} (${operationId}) has no client call for its JavaScript sample: add it to CLIENT_CALLS in src/platform/http/code-samples.ts`,
    );
  }
  // Operation parameters override the path item's of the same name and place.
  const own = operation.parameters ?? [];
  const parameters = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];

  const placeholders: SampleRequest['placeholders'] = [];
  const pathArgs: string[] = [];
  const urlPath = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const placeholder = placeholderFor(path, name);
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
    placeholders.push({ name: placeholder, meaning: parameter?.description ?? `the ${name} path parameter` });
    pathArgs.push(placeholder);
    return placeholder;
  });

  const base = baseUrl.replace(/\/+$/, '');
  return {
    method: method.toUpperCase(),
    baseUrl: base,
    url: base + urlPath,
    query: sampleQuery(where, parameters),
    auth: authFor(doc, where, operation.security ?? doc.security),
    body: operation.requestBody ? bodyFor(where, operationId, operation.requestBody) : undefined,
    placeholders,
    client: { ...client, pathArgs },
  };
}

/** `{id}` after `/webhooks` is WEBHOOK_ID, after `/companies` COMPANY_ID; `{deliveryId}` is DELIVERY_ID. */
function placeholderFor(path: string, name: string): string {
  const before = path
    .slice(0, path.indexOf(`{${name}}`))
    .split('/')
    .filter(Boolean);
  const owner = before.filter((segment) => !segment.startsWith('{')).at(-1);
  const full = name === 'id' && owner ? `${owner.replace(/ies$/, 'y').replace(/s$/, '')}_id` : name;
  return full
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
}

/**
 * The first filters with a documented example, and a short page when the operation pages by `limit`.
 * Date filters are left out: their examples are relative to the day the document is served, and a
 * copied sample would one day match nothing. (Filters combine with AND, so any subset of the examples,
 * which together return records on the demo data, returns records too.)
 */
function sampleQuery(where: string, parameters: Parameter[]): [string, unknown][] {
  const query = parameters.filter((p) => p.in === 'query');
  const chosen = query.filter((p) => p.example !== undefined && p.schema?.format !== 'date').slice(0, SAMPLE_FILTERS);
  for (const parameter of query.filter((p) => p.required && !chosen.includes(p))) {
    if (parameter.example === undefined && parameter.schema?.default === undefined) {
      throw new Error(`${where}: the required parameter ${parameter.name} has no example for the code samples`);
    }
    chosen.push(parameter);
  }
  const entries: [string, unknown][] = chosen.map((p) => [p.name, p.example ?? p.schema?.default]);
  const limit = query.find((p) => p.name === 'limit');
  if (
    limit &&
    !chosen.includes(limit) &&
    (limit.schema?.minimum ?? 1) <= SAMPLE_LIMIT &&
    SAMPLE_LIMIT <= (limit.schema?.maximum ?? Infinity)
  ) {
    entries.push(['limit', SAMPLE_LIMIT]);
  }
  return entries;
}

function authFor(doc: Document, where: string, security: Operation['security']): SampleRequest['auth'] {
  const name = Object.keys(security?.[0] ?? {})[0];
  if (name === undefined) return undefined;
  const scheme = doc.components?.securitySchemes?.[name];
  if (scheme?.type === 'apiKey' && scheme.in === 'header' && scheme.name) return { header: scheme.name, prefix: '' };
  if (scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') return { header: 'Authorization', prefix: 'Bearer ' };
  throw new Error(`${where}: the code samples do not know how to send the key of security scheme ${name}`);
}

function bodyFor(where: string, operationId: string, requestBody: NonNullable<Operation['requestBody']>): unknown {
  const json = requestBody.content?.['application/json'];
  const documented =
    json?.example ?? Object.values(json?.examples ?? {})[0]?.value ?? json?.schema?.example ?? json?.schema?.examples?.[0];
  const body = documented ?? BODIES[operationId];
  if (body === undefined && requestBody.required) {
    throw new Error(
      `${where} (${operationId}) takes a body and documents no example: add one to BODIES in src/platform/http/code-samples.ts`,
    );
  }
  return body;
}

function codeSamples(request: SampleRequest): CodeSample[] {
  return (['Shell', 'JavaScript', 'Python'] as const).map((lang) => ({
    lang,
    label: LABELS[lang],
    source: { Shell: curlSample, JavaScript: javascriptSample, Python: pythonSample }[lang](request),
  }));
}

function withSection(description: string | undefined, samples: CodeSample[]): string {
  const blocks = samples.map((sample) => `${sample.label}:\n\n\`\`\`${FENCES[sample.lang]}\n${sample.source}\n\`\`\``);
  const section = ['**Code samples** (the key is read from the `DEALSIGNAL_API_KEY` environment variable)', ...blocks].join(
    '\n\n',
  );
  return description ? `${description}\n\n${section}` : section;
}

const placeholderComments = (request: SampleRequest, comment: string) =>
  request.placeholders.map(({ name, meaning }) => `${comment} Replace ${name} with the ${lowerFirst(meaning)}.`);

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

// ---- curl

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function curlSample(request: SampleRequest): string {
  // --fail-with-body: an error answer sets the exit status, and its body (which says what was wrong) is still shown.
  let command = 'curl -sS --fail-with-body';
  // curl sends a POST by itself when it has a body.
  if (request.method !== 'GET' && !(request.method === 'POST' && request.body !== undefined)) command += ` -X ${request.method}`;
  // -G turns the --data-urlencode lines into the query string; with a body, the query goes in the URL.
  const inUrl = request.body !== undefined && request.query.length > 0;
  if (request.query.length > 0 && !inUrl) command += ' -G';
  const lines = [`${command} ${shellQuote(inUrl ? `${request.url}?${queryString(request)}` : request.url)}`];
  if (request.auth) lines.push(`-H "${request.auth.header}: ${request.auth.prefix}$DEALSIGNAL_API_KEY"`);
  if (!inUrl) {
    for (const [name, value] of request.query) lines.push(`--data-urlencode ${shellQuote(`${name}=${queryValue(value)}`)}`);
  }
  if (request.body !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`, `--data ${shellQuote(JSON.stringify(request.body))}`);
  }
  return [...placeholderComments(request, '#'), lines.join(' \\\n  ')].join('\n');
}

const queryString = (request: SampleRequest) =>
  new URLSearchParams(request.query.map(([name, value]) => [name, queryValue(value)])).toString();

/** A query value as it travels: the API reads `true`, not Python's `True`. */
const queryValue = (value: unknown) => String(value);

// ---- JavaScript, with @dealsignal/client

function javascriptSample(request: SampleRequest): string {
  const { call, all, pathArgs } = request.client;
  const lines = [
    `import { DealSignal } from '@dealsignal/client';`,
    '',
    `const ds = new DealSignal({ apiKey: process.env.DEALSIGNAL_API_KEY, baseUrl: ${jsLiteral(request.baseUrl)} });`,
  ];
  const args = pathArgs.map((placeholder) => jsLiteral(placeholder));
  if (request.query.length > 0) {
    lines.push(`const params = ${jsLiteral(Object.fromEntries(request.query), 'const params = '.length)};`);
    args.push('params');
  }
  if (request.body !== undefined) {
    lines.push(`const body = ${jsLiteral(request.body, 'const body = '.length)};`);
    args.push('body');
  }
  lines.push(...placeholderComments(request, '//'));
  if (all) {
    lines.push(`const page = await ds.${call}(${args.join(', ')});`, 'console.log(page.data);');
    lines.push(
      '',
      '// Or record by record, page after page (here at most 3 pages):',
      `for await (const record of ds.${all}(${[...args, '{ maxPages: 3 }'].join(', ')})) console.log(record);`,
    );
  } else {
    lines.push(`const result = await ds.${call}(${args.join(', ')});`, 'console.dir(result, { depth: null });');
  }
  return lines.join('\n');
}

function jsLiteral(value: unknown, column = 0): string {
  return literal(value, column, {
    string: (text) => `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`,
    key: (key) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`),
    constants: { true: 'true', false: 'false', null: 'null' },
    braces: (inner) => `{ ${inner} }`,
    indent: '  ',
  });
}

// ---- Python, standard library only

function pythonSample(request: SampleRequest): string {
  const imports = [
    'import json',
    'import os',
    ...(request.query.length > 0 ? ['import urllib.parse'] : []),
    'import urllib.request',
  ];
  const lines = [...imports, ''];
  let url = pyLiteral(request.url);
  if (request.query.length > 0) {
    const params = Object.fromEntries(
      request.query.map(([name, value]) => [name, typeof value === 'number' ? value : queryValue(value)]),
    );
    lines.push(`params = ${pyLiteral(params, 'params = '.length)}`);
    url = `${pyLiteral(`${request.url}?`)} + urllib.parse.urlencode(params)`;
  }
  if (request.body !== undefined) lines.push(`body = ${pyLiteral(request.body, 'body = '.length)}`);
  const headers: string[] = [];
  if (request.auth) {
    const key = 'os.environ["DEALSIGNAL_API_KEY"]';
    headers.push(
      `${pyLiteral(request.auth.header)}: ${request.auth.prefix ? `${pyLiteral(request.auth.prefix)} + ${key}` : key}`,
    );
  }
  if (request.body !== undefined) headers.push('"Content-Type": "application/json"');
  const args = [url];
  if (request.body !== undefined) args.push('data=json.dumps(body).encode()');
  // urllib sends a POST by itself when it has a body.
  if (request.method !== 'GET' && !(request.method === 'POST' && request.body !== undefined)) {
    args.push(`method=${pyLiteral(request.method)}`);
  }
  if (headers.length === 1) args.push(`headers={${headers[0]}}`);
  if (headers.length > 1) args.push(['headers={', ...headers.map((header) => `        ${header},`), '    }'].join('\n'));
  lines.push(...placeholderComments(request, '#'), 'request = urllib.request.Request(', ...args.map((arg) => `    ${arg},`), ')');
  lines.push('with urllib.request.urlopen(request) as response:', '    print(json.dumps(json.load(response), indent=2))');
  return lines.join('\n');
}

function pyLiteral(value: unknown, column = 0): string {
  return literal(value, column, {
    // JSON's string escapes are Python's.
    string: (text) => JSON.stringify(text),
    key: (key) => JSON.stringify(key),
    constants: { true: 'True', false: 'False', null: 'None' },
    braces: (inner) => `{${inner}}`,
    indent: '    ',
  });
}

// ---- literals of both languages

interface LiteralStyle {
  string(text: string): string;
  key(key: string): string;
  constants: { true: string; false: string; null: string };
  braces(inner: string): string;
  indent: string;
}

/** A JSON value as source: on one line when it fits in WIDTH columns from `column`, else one entry a line. */
function literal(value: unknown, column: number, style: LiteralStyle, depth = 0): string {
  const oneLine = flat(value, style);
  if (column + oneLine.length <= WIDTH || value === null || typeof value !== 'object') return oneLine;
  const indent = style.indent.repeat(depth + 1);
  const lines = Array.isArray(value)
    ? value.map((item) => `${indent}${literal(item, indent.length, style, depth + 1)},`)
    : Object.entries(value).map(([key, item]) => {
        const name = `${style.key(key)}: `;
        return `${indent}${name}${literal(item, indent.length + name.length, style, depth + 1)},`;
      });
  if (lines.length === 0) return oneLine;
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${lines.join('\n')}\n${style.indent.repeat(depth)}${close}`;
}

function flat(value: unknown, style: LiteralStyle): string {
  if (value === null || value === undefined) return style.constants.null;
  if (typeof value === 'boolean') return style.constants[value ? 'true' : 'false'];
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return style.string(value);
  if (Array.isArray(value)) return `[${value.map((item) => flat(item, style)).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([key, item]) => `${style.key(key)}: ${flat(item, style)}`,
  );
  return entries.length > 0 ? style.braces(entries.join(', ')) : '{}';
}
