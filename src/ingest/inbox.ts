// The inbox: a folder polled for files to import. A file is taken once its size and modification
// time have stayed the same for one polling interval (or write it as NAME.tmp and rename it when
// complete: .tmp files are never read). Its name says its kind: it starts with the kind, e.g.
// "m-a-2025-06-01.ndjson", "funding.json", "job-changes_batch7.jsonl" (".gz" compressed too).
// After the import it moves to processed/ (committed) or failed/ (not), with NAME.report.json.
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, stat, writeFile, access } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Database } from '../platform/db/index.js';
import { INGEST_KINDS, ingest, summarize, type IngestKind, type IngestReport } from './importer.js';

export interface InboxLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface InboxOptions {
  /** Import the valid records of a file and report the others (default: all-or-nothing). */
  skipInvalid?: boolean;
  /** How often the folder is scanned (default 1000 ms). */
  intervalMs?: number;
}

export interface Inbox {
  /** Stops polling; resolves once the file being imported, if any, is done and moved. */
  stop(): Promise<void>;
}

/** What an inbox writes beside each file it has handled. */
export interface InboxReport extends Partial<IngestReport> {
  file: string;
  movedTo: 'processed' | 'failed';
  startedAt: string;
  finishedAt: string;
  error?: string;
}

const INBOX_FILE = /\.(json|ndjson|jsonl)(\.gz)?$/i;
// Longest first, so no kind is mistaken for a shorter one that prefixes it.
const KINDS_BY_LENGTH = [...INGEST_KINDS].sort((a, b) => b.length - a.length);

/** The kind a file name announces ("m-a-2025-06-01.ndjson" → "m-a"), if any. */
export function kindOfFileName(name: string): IngestKind | undefined {
  const lower = name.toLowerCase();
  return KINDS_BY_LENGTH.find((kind) => lower.startsWith(kind) && /^[._-]/.test(lower.slice(kind.length)));
}

/** A file to import, decompressed when its name ends in .gz. */
export function openInputFile(path: string): Readable {
  const file = createReadStream(path, { highWaterMark: 1024 * 1024 });
  if (!/\.gz$/i.test(path)) return file;
  const gunzip = createGunzip();
  file.on('error', (err) => gunzip.destroy(err));
  return file.pipe(gunzip);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** A free name in dir: the file's own, or one with the time inserted before its extensions. */
async function freeName(dir: string, name: string): Promise<string> {
  if (!(await exists(join(dir, name)))) return name;
  const gz = /\.gz$/i.test(name) ? extname(name) : '';
  const inner = name.slice(0, name.length - gz.length);
  const ext = extname(inner);
  const stem = inner.slice(0, inner.length - ext.length);
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 0; ; n++) {
    const candidate = `${stem}.${stamp}${n === 0 ? '' : `-${n}`}${ext}${gz}`;
    if (!(await exists(join(dir, candidate)))) return candidate;
  }
}

/** Imports one inbox file and moves it; a database failure leaves it in place for a later scan. */
export async function processInboxFile(
  db: Database,
  dir: string,
  name: string,
  log: InboxLog,
  options: InboxOptions = {},
): Promise<InboxReport | undefined> {
  const path = join(dir, name);
  const startedAt = new Date().toISOString();
  const kind = kindOfFileName(name);
  let report: IngestReport | undefined;
  let error: string | undefined;
  if (kind === undefined) {
    error = `the file name must start with the kind of its records (${INGEST_KINDS.join(', ')}), e.g. "m-a-2025-06-01.ndjson"`;
  } else {
    try {
      report = await ingest(db, kind, openInputFile(path), { skipInvalid: options.skipInvalid ?? false });
    } catch (err) {
      log.error(`inbox: ${name} could not be imported (${err instanceof Error ? err.message : String(err)}); will retry`);
      return undefined;
    }
  }
  const movedTo = report?.committed ? 'processed' : 'failed';
  const target = join(dir, movedTo);
  const finalName = await freeName(target, name);
  try {
    await rename(path, join(target, finalName));
  } catch (err) {
    // Gone meanwhile (another watcher took it): its import was idempotent, nothing to report.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const inboxReport: InboxReport = {
    file: name,
    movedTo,
    startedAt,
    finishedAt: new Date().toISOString(),
    ...(report ?? {}),
    ...(error !== undefined ? { error } : {}),
  };
  // Written whole under a .tmp name (never read by the inbox), then renamed: whoever watches
  // processed/ and failed/ for reports never reads half of one.
  const partial = join(dir, `${finalName}.report.json.tmp`);
  await writeFile(partial, JSON.stringify(inboxReport, null, 2) + '\n');
  await rename(partial, join(target, `${finalName}.report.json`));
  const line = `inbox: ${name} → ${movedTo}/${finalName}: ${report ? summarize(report) : error}`;
  if (movedTo === 'processed') log.info(line);
  else log.warn(line);
  return inboxReport;
}

/** Starts polling dir; files are imported one at a time, in name order. */
export async function startInbox(db: Database, dir: string, log: InboxLog, options: InboxOptions = {}): Promise<Inbox> {
  const intervalMs = options.intervalMs ?? 1000;
  await mkdir(join(dir, 'processed'), { recursive: true });
  await mkdir(join(dir, 'failed'), { recursive: true });
  /** Size and modification time of each candidate at the previous scan. */
  let previous = new Map<string, string>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let scanning: Promise<void> = Promise.resolve();

  const scan = async () => {
    const entries = await readdir(dir, { withFileTypes: true });
    const seen = new Map<string, string>();
    const ready: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.startsWith('.') || !INBOX_FILE.test(entry.name)) continue;
      const info = await stat(join(dir, entry.name)).catch(() => undefined);
      if (!info) continue;
      const signature = `${info.size}:${info.mtimeMs}`;
      seen.set(entry.name, signature);
      if (previous.get(entry.name) === signature) ready.push(entry.name);
    }
    previous = seen;
    for (const name of ready.sort()) {
      if (stopped) return;
      const handled = await processInboxFile(db, dir, name, log, options);
      if (handled) previous.delete(name);
    }
  };

  const loop = () => {
    if (stopped) return;
    scanning = scan()
      .catch((err: unknown) => log.error(`inbox: scanning ${dir} failed (${err instanceof Error ? err.message : String(err)})`))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, intervalMs);
      });
  };
  loop();
  log.info(`inbox: watching ${dir} (every ${intervalMs} ms; files move to processed/ or failed/ with a report)`);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await scanning;
    },
  };
}
