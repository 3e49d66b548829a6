// `dealsignal mcp`: the API's list endpoints and changes feed as Model Context Protocol tools, and
// ready-made tasks over them as prompts, over stdio, for AI assistants. It calls a running dealsignal
// server through the typed client with one key; it needs none of the server's own configuration.
// stdout is the protocol channel: everything else goes to stderr.
import { readFileSync } from 'node:fs';
import { DealSignal, DealSignalError } from '@dealsignal/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type GetPromptResult,
} from '@modelcontextprotocol/sdk/types.js';
import { MCP_PROMPTS } from './mcp-prompts.js';
import { ArgumentError, MCP_TOOLS } from './mcp-tools.js';

export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

export interface McpConfig {
  apiKey: string;
  baseUrl: string;
}

export class McpConfigError extends Error {}

/** The command's configuration, from the environment it is given: DEALSIGNAL_API_KEY and DEALSIGNAL_URL. */
export function loadMcpConfig(env: Record<string, string | undefined>): McpConfig {
  const apiKey = env.DEALSIGNAL_API_KEY?.trim();
  if (!apiKey) {
    throw new McpConfigError(
      'DEALSIGNAL_API_KEY is not set: set it to a dealsignal API key (ds_…; `dealsignal keys create --email EMAIL` makes one)',
    );
  }
  const baseUrl = env.DEALSIGNAL_URL?.trim() || DEFAULT_API_URL;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new McpConfigError(`DEALSIGNAL_URL="${baseUrl}" is not a URL (e.g. ${DEFAULT_API_URL})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new McpConfigError(`DEALSIGNAL_URL="${baseUrl}" must use http: or https:`);
  }
  return { apiKey, baseUrl };
}

const INSTRUCTIONS =
  'dealsignal business-intelligence data: venture funding rounds and M&A deals (v1 tools, free), investors, job ' +
  'changes, acquisition signals, funding signals, hiring signals, companies and the people to contact at companies that ' +
  'just moved (find_people) (v2 tools, 1 credit per call; `count: true` is free), and a feed ' +
  'of every change to the data (list_changes, 1 credit per call). Results hold a page of records trimmed to a few ' +
  'fields (ask for others with `fields`), the exact `total` and `hasNextPage`. Prefer narrow filters and count mode ' +
  'to paging through everything.';

/** An error the API (or the network) returned, as a tool result the model can read and act on. */
function apiErrorText(err: DealSignalError): string {
  if (err.status === 0)
    return `No answer from the dealsignal API (is DEALSIGNAL_URL right, and the server running?): ${err.message}`;
  const details = [`HTTP ${err.status}`];
  if (typeof err.code === 'string') details.push(`code ${err.code}`);
  if (err.body && 'param' in err.body && err.body.param !== undefined) details.push(`parameter ${err.body.param}`);
  return `${err.message} (${details.join(', ')})`;
}

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function packageVersion(): string {
  // dist/cli/ and src/cli/ both sit two levels below the package root.
  const manifest: { version?: unknown } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return String(manifest.version ?? '0.0.0');
}

/** The MCP server over one client: tools/list and tools/call, prompts/list and prompts/get. */
export function createMcpServer(ds: DealSignal): Server {
  const server = new Server(
    { name: 'dealsignal', title: 'dealsignal', version: packageVersion() },
    { capabilities: { tools: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  const tools = new Map(MCP_TOOLS.map((tool) => [tool.name, tool]));
  const prompts = new Map(MCP_PROMPTS.map((prompt) => [prompt.name, prompt]));

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: MCP_TOOLS.map(({ name, title, description, inputSchema, outputSchema }) => ({
      name,
      title,
      description,
      inputSchema,
      outputSchema,
      annotations: { title, readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      const result = await tool.call(ds, request.params.arguments ?? {}, { signal: extra.signal });
      return { structuredContent: result, content: [{ type: 'text', text: JSON.stringify(result) }] };
    } catch (err) {
      if (err instanceof DealSignalError) return errorResult(apiErrorText(err));
      if (err instanceof ArgumentError) return errorResult(err.message);
      // A fault of this process: the model gets a result it can report, the log the details.
      console.error('dealsignal mcp:', err);
      return errorResult(`Internal error in dealsignal mcp: ${err instanceof Error ? err.message : String(err)}`);
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: MCP_PROMPTS.map(({ name, title, description, arguments: args }) => ({
      name,
      title,
      description,
      arguments: args.map((arg) => ({ ...arg, required: arg.required ?? false })),
    })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, (request): GetPromptResult => {
    const prompt = prompts.get(request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const args = request.params.arguments ?? {};
    const known = new Set(prompt.arguments.map((arg) => arg.name));
    const unknown = Object.keys(args).filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `${prompt.name} takes no argument ${unknown.join(', ')} (it takes ${[...known].join(', ')})`,
      );
    }
    const missing = prompt.arguments.filter((arg) => arg.required && !args[arg.name]?.trim());
    if (missing.length > 0) {
      throw new McpError(ErrorCode.InvalidParams, `${prompt.name} needs ${missing.map((arg) => arg.name).join(', ')}`);
    }
    try {
      return {
        description: prompt.description,
        messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args, new Date()) } }],
      };
    } catch (err) {
      if (err instanceof ArgumentError) throw new McpError(ErrorCode.InvalidParams, err.message);
      throw err;
    }
  });
  return server;
}

/** Runs the server on stdin/stdout until the client closes stdin (or SIGINT/SIGTERM); the exit status. */
export async function runMcp(args: string[], env: Record<string, string | undefined>): Promise<number> {
  if (args.length > 0) {
    // Never shown: an argument here is most likely the key (`dealsignal mcp ds_…`), and this message
    // goes to the assistant's logs. A key belongs in the environment, not in the process list either.
    console.error(
      `dealsignal mcp: takes no arguments (${args.length} given, not shown); ` +
        'set the key in DEALSIGNAL_API_KEY and the server in DEALSIGNAL_URL',
    );
    return 2;
  }
  let config: McpConfig;
  try {
    config = loadMcpConfig(env);
  } catch (err) {
    if (!(err instanceof McpConfigError)) throw err;
    console.error(`dealsignal mcp: ${err.message}`);
    return 1;
  }
  // A stray console.log from any module would corrupt the protocol stream.
  console.log = console.info = console.debug = console.error;

  const server = createMcpServer(new DealSignal({ apiKey: config.apiKey, baseUrl: config.baseUrl }));
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  const transport = new StdioServerTransport();
  const inFlight = trackRequests(transport);
  const stop = () => void server.close();
  // A client that writes its requests and closes stdin at once (`printf … | dealsignal mcp`) still
  // gets every answer: the end of input closes the server only once nothing asked is unanswered.
  const finish = () => void inFlight.idle().then(stop);
  process.stdin.once('end', finish);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await server.connect(transport);
  await closed;
  process.stdin.off('end', finish);
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  return 0;
}

/**
 * Counts the requests received on a transport and not yet answered. Counted at the transport, as
 * messages arrive and leave, so a request is counted from the moment it is read, before any handler runs.
 */
function trackRequests(transport: Transport): { idle(): Promise<void> } {
  const pending = new Set<string | number>();
  let wake: (() => void) | undefined;
  const connected = transport.start.bind(transport);
  transport.start = async () => {
    // The server sets onmessage when it connects, just before start: wrapped here, it sees every request.
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('method' in message && 'id' in message) pending.add(message.id);
      receive?.(message, extra);
    };
    return connected();
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      if (!('method' in message) && 'id' in message && message.id !== undefined) {
        pending.delete(message.id);
        if (pending.size === 0) wake?.();
      }
    }
  };
  return {
    idle: () => (pending.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve))),
  };
}
