// The operator channel. The embedded store can be open in one process only, so while the server
// runs on it, store commands (keys, accounts, import, …) run inside the server instead: it listens
// on 127.0.0.1 at a random port and writes the port and a random token to a file in DATA_DIR that
// only its owner can read; a command that finds the store held by that server sends it its
// arguments and prints what comes back. The command functions are the same ones a terminal runs.
//
// Client → server: frames of a 4-byte big-endian length and that many bytes. The first holds the
// request as JSON; the next ones carry standard input once the command asks for it, and an empty
// frame ends it (a connection that ends without one is an interrupted input, never a short one).
// Server → client: one JSON object a line: {out}, {err}, {stdin: true}, then {exit} or {error}.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Config } from '../config.js';
import { storeOwner } from '../platform/db/index.js';
import type { Database } from '../platform/db/index.js';
import { isStoreCommand, STORE_COMMANDS } from './commands.js';
import type { CommandIo } from './io.js';

const CHANNEL_FILE = 'operator-channel.json';
/** Largest frame either side accepts; standard input is sent in pieces of at most this size. */
const MAX_FRAME_BYTES = 1024 * 1024;
/**
 * Largest request (token, arguments, working directory): a connection not yet known to hold the
 * token may not make the server buffer a megabyte for each of its MAX_CONNECTIONS places.
 */
const MAX_REQUEST_BYTES = 64 * 1024;
/** A connection that has not sent its request by then is dropped (anyone on the host can connect). */
const REQUEST_TIMEOUT_MS = 10_000;
/**
 * Once the answer is sent, how long the client has to hang up before the connection is cut: the
 * client closes on reading {exit}, so only one that ignores it (or vanished) is ever cut.
 */
const CLOSE_GRACE_MS = 5_000;
/** Connections at once; Node closes any beyond them at once, unserved. */
const MAX_CONNECTIONS = 32;

interface ChannelFile {
  pid: number;
  port: number;
  token: string;
}

interface ChannelRequest {
  token: string;
  argv: string[];
  cwd: string;
}

type Reply = { out: string } | { err: string } | { stdin: true } | { exit: number } | { error: string };

function frame(payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(payload.length);
  return Buffer.concat([header, payload]);
}

/** Splits a byte stream into frames; throws on a frame larger than its limit (MAX_FRAME_BYTES unless set). */
class FrameReader {
  private pending: Buffer = Buffer.alloc(0);
  limit = MAX_FRAME_BYTES;

  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Buffer[] = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readUInt32BE(0);
      if (length > this.limit) throw new Error('frame too large');
      if (this.pending.length < 4 + length) break;
      frames.push(this.pending.subarray(4, 4 + length));
      this.pending = this.pending.subarray(4 + length);
    }
    return frames;
  }
}

function parseRequest(bytes: Buffer): ChannelRequest | undefined {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as Partial<ChannelRequest>;
    const strings = (list: unknown): list is string[] => Array.isArray(list) && list.every((item) => typeof item === 'string');
    if (typeof value.token === 'string' && typeof value.cwd === 'string' && strings(value.argv) && value.argv.length > 0) {
      return { token: value.token, argv: value.argv, cwd: value.cwd };
    }
  } catch {
    // answered below as a malformed request
  }
  return undefined;
}

/** Compares digests, so the time taken says nothing about how much of a guess was right. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function channelPath(dataDir: string): string {
  return join(dataDir, CHANNEL_FILE);
}

function readChannelFile(dataDir: string): ChannelFile | undefined {
  try {
    const value = JSON.parse(readFileSync(channelPath(dataDir), 'utf8')) as Partial<ChannelFile>;
    if (Number.isInteger(value.pid) && Number.isInteger(value.port) && typeof value.token === 'string') {
      return value as ChannelFile;
    }
  } catch {
    // missing, unreadable (another user's server) or half-written: no channel to use
  }
  return undefined;
}

/** Written under another name and renamed, so a reader never sees half a file; owner-only from the start. */
function writeChannelFile(dataDir: string, content: ChannelFile): void {
  const file = channelPath(dataDir);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(content) + '\n', { mode: 0o600 });
  renameSync(partial, file);
}

export interface ChannelLog {
  info(message: string): void;
}

export interface OperatorChannel {
  /** Stops taking commands, stops long-running ones (watch) and waits for those under way. */
  close(): Promise<void>;
}

/** Serves store commands against the server's open store (embedded store only). */
export async function openOperatorChannel(config: Config, db: Database, log: ChannelLog): Promise<OperatorChannel> {
  const token = randomBytes(32).toString('base64url');
  // Commands close the store when they are done; this one belongs to the server, which closes it.
  const store: Database = { ...db, close: async () => undefined };
  let stop: () => void = () => undefined;
  const stopping = new Promise<void>((resolve) => (stop = resolve));
  const running = new Set<Promise<void>>();

  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    const served = serveConnection(socket, { config, store, token, stopping, log });
    running.add(served);
    void served.finally(() => running.delete(served));
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => resolve());
  });
  writeChannelFile(config.dataDir, { pid: process.pid, port: (server.address() as AddressInfo).port, token });

  return {
    async close() {
      rmSync(channelPath(config.dataDir), { force: true });
      server.close();
      stop();
      await Promise.allSettled([...running]);
    },
  };
}

interface ConnectionContext {
  config: Config;
  store: Database;
  token: string;
  stopping: Promise<void>;
  log: ChannelLog;
}

/** Reads one request, runs its command and answers; resolves when the command is over. */
function serveConnection(socket: Socket, context: ConnectionContext): Promise<void> {
  return new Promise<void>((done) => {
    const reader = new FrameReader();
    reader.limit = MAX_REQUEST_BYTES; // until the request is read
    const stdin = new PassThrough();
    // The command that reads standard input sees its errors; one that never asked must not crash on them.
    stdin.on('error', () => undefined);
    let request: ChannelRequest | undefined;
    let stdinRequested = false;
    let stdinEnded = false;
    let finished = false;
    let clientLeft: () => void = () => undefined;
    const clientGone = new Promise<void>((resolve) => (clientLeft = resolve));

    const send = (reply: Reply) => {
      if (socket.writable) socket.write(JSON.stringify(reply) + '\n');
    };
    const timer = setTimeout(() => socket.destroy(), REQUEST_TIMEOUT_MS);
    // A connection still silent when the channel closes would otherwise hold the shutdown up.
    void context.stopping.then(() => {
      if (!request) socket.destroy();
    });

    const run = async (accepted: ChannelRequest) => {
      const [name, ...args] = accepted.argv as [string, ...string[]];
      const io: CommandIo = {
        get stdin() {
          if (!stdinRequested) {
            stdinRequested = true;
            send({ stdin: true });
          }
          return stdin;
        },
        out: (text) => send({ out: text }),
        err: (text) => send({ err: text }),
        cwd: accepted.cwd,
        open: async () => context.store,
        untilStopped: () => Promise.race([clientGone, context.stopping]),
      };
      const label = [name, args[0] && !args[0].startsWith('-') ? args[0] : undefined].filter(Boolean).join(' ');
      try {
        const status = await STORE_COMMANDS[name]!(context.config, args, io);
        context.log.info(`operator command "${label}": exit ${status}`);
        send({ exit: status });
      } catch (err) {
        context.log.info(`operator command "${label}": failed`);
        send({ error: err instanceof Error ? err.message : String(err) });
      }
    };

    const accept = (bytes: Buffer) => {
      clearTimeout(timer);
      reader.limit = MAX_FRAME_BYTES;
      request = parseRequest(bytes);
      if (!request || !sameToken(request.token, context.token)) {
        send({ error: 'the running server refused the command: the operator channel token does not match' });
      } else if (!isStoreCommand(request.argv[0]!)) {
        send({ error: `"${request.argv[0]}" is not a command the running server takes` });
      } else {
        void run(request).finally(() => {
          finished = true;
          socket.resume(); // nothing more is read; let a sender still writing finish
          hangUpOurSide();
          done();
        });
        return;
      }
      finished = true;
      hangUpOurSide();
      done();
    };
    // The connection is half-open (allowHalfOpen): ending our side frees it only once the client
    // ends its own, so a client that never does is cut after a grace.
    const hangUpOurSide = () => {
      socket.end();
      setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
    };

    socket.on('data', (chunk: Buffer) => {
      let frames: Buffer[];
      try {
        frames = reader.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const bytes of frames) {
        if (!request && !finished) accept(bytes);
        else if (finished || stdinEnded) continue;
        else if (bytes.length === 0) {
          stdinEnded = true;
          stdin.end();
        } else if (!stdin.write(bytes)) {
          socket.pause();
          stdin.once('drain', () => socket.resume());
        }
      }
    });
    const hangUp = () => {
      // Input that stops without its end frame was cut off (the client was interrupted or died).
      if (!stdinEnded) stdin.destroy(new Error('interrupted'));
      clientLeft();
      if (!request) {
        // Nothing to answer (a port check, a client that gave up): half-open, the socket would
        // otherwise wait in CLOSE-WAIT for an end of ours that never comes, holding one of the
        // MAX_CONNECTIONS places until every command is refused.
        clearTimeout(timer);
        socket.destroy();
        done();
      }
    };
    socket.once('end', hangUp);
    socket.once('close', hangUp);
    socket.on('error', () => undefined); // 'close' follows
  });
}

/**
 * Runs a store command in the server holding the embedded store in DATA_DIR and prints its
 * output here. Undefined when no running server takes commands there: the caller then opens
 * the store itself.
 */
export async function runInServer(config: Config, argv: string[], io: CommandIo): Promise<number | undefined> {
  const owner = storeOwner(config.dataDir);
  const channel = owner === undefined ? undefined : readChannelFile(config.dataDir);
  if (!channel || channel.pid !== owner) return undefined;
  const socket = await new Promise<Socket | undefined>((resolve) => {
    const attempt = connect({ host: '127.0.0.1', port: channel.port });
    attempt.once('connect', () => resolve(attempt));
    attempt.once('error', () => resolve(undefined));
  });
  if (!socket) return undefined;
  socket.on('error', () => undefined); // 'close' follows
  const request: ChannelRequest = { token: channel.token, argv, cwd: io.cwd ?? process.cwd() };
  return converse(socket, request, io, channel.pid);
}

function converse(socket: Socket, request: ChannelRequest, io: CommandIo, pid: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    let sendingStdin = false;
    // Interrupted here: the server stops a long-running command (watch) and abandons an import
    // reading standard input, then answers as the command would.
    const interrupt = () => socket.end();
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
      if (sendingStdin) io.stdin.destroy(); // stop reading input nobody takes any more
      socket.destroy();
      outcome();
    };

    const sendStdin = async () => {
      sendingStdin = true;
      try {
        for await (const chunk of io.stdin) {
          const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
          for (let at = 0; at < bytes.length && !settled; at += MAX_FRAME_BYTES) {
            if (!socket.write(frame(bytes.subarray(at, at + MAX_FRAME_BYTES)))) {
              await new Promise((resume) => {
                socket.once('drain', resume);
                socket.once('close', resume);
              });
            }
          }
          if (settled) return;
        }
        socket.write(frame(Buffer.alloc(0)));
      } catch {
        socket.end(); // unreadable input: the server sees it cut off
      }
    };

    let pending = '';
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      pending += text;
      for (let newline = pending.indexOf('\n'); newline >= 0 && !settled; newline = pending.indexOf('\n')) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        let reply: Reply;
        try {
          reply = JSON.parse(line) as Reply;
        } catch {
          settle(() => reject(new Error(`the running server (pid ${pid}) sent an answer that is not JSON`)));
          return;
        }
        if ('out' in reply) io.out(reply.out);
        else if ('err' in reply) io.err(reply.err);
        else if ('stdin' in reply) void sendStdin();
        else if ('exit' in reply) settle(() => resolve(reply.exit));
        else if ('error' in reply) settle(() => reject(new Error(reply.error)));
      }
    });
    socket.once('close', () =>
      settle(() => reject(new Error(`the running server (pid ${pid}) closed the connection before the command finished`))),
    );
    socket.write(frame(Buffer.from(JSON.stringify(request))));
  });
}
