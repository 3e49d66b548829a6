// dealsignal import KIND FILE|- and dealsignal watch DIR.
import { stat } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Config } from '../config.js';
import { openInputFile, startInbox, type InboxLog } from '../ingest/index.js';
import { INGEST_KINDS, ingest, isIngestKind, position, summarize, type IngestReport } from '../ingest/index.js';
import { openStore, processIo, userPath, type CommandIo } from './io.js';

export { startInbox, type Inbox, type InboxLog, type InboxOptions } from '../ingest/index.js';
export type { CommandIo } from './io.js';

export const IMPORT_USAGE = `dealsignal import KIND FILE|- [--skip-invalid] [--json] [--format auto|ndjson|json]
  KIND: ${INGEST_KINDS.join(', ')}
  FILE: NDJSON or a JSON array of records in the API's shape (.gz is decompressed); - reads standard input
  --skip-invalid  import the valid records and report the others (default: one invalid record rejects the file)
  --json          print the report as JSON
  Exit status: 0 imported, 1 nothing imported (the report says why), 2 usage error.`;

export const WATCH_USAGE = `dealsignal watch DIR [--skip-invalid] [--interval MS]
  Imports every file dropped in DIR whose name starts with its kind (e.g. m-a-2025-06-01.ndjson), once
  it has stopped growing (or write NAME.tmp and rename it), then moves it to DIR/processed/ or DIR/failed/
  with NAME.report.json beside it. Runs until SIGINT or SIGTERM.`;

class UsageError extends Error {}

function parse(args: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args, allowPositionals: true, options });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/** The report as people read it: the counts, then every listed problem. */
export function formatReport(report: IngestReport): string {
  const lines = [summarize(report)];
  if (report.error) lines.push(`  error: ${report.error}`);
  if (report.rejects.length > 0) {
    lines.push('rejected:');
    for (const reject of report.rejects) {
      if (!reject.problems) {
        lines.push(`  ${reject.reason}`);
        continue;
      }
      // Several problems: one a line, under the record's position.
      lines.push(`  ${position(reject)}:`);
      for (const problem of reject.problems) lines.push(`    ${problem}`);
    }
    if (report.rejectsTruncated > 0) lines.push(`  … and ${report.rejectsTruncated} more`);
  }
  if (report.replaced.length > 0) {
    lines.push('duplicates (the last record with a key wins):');
    for (const duplicate of report.replaced) lines.push(`  ${duplicate.reason}`);
    if (report.replacedTruncated > 0) lines.push(`  … and ${report.replacedTruncated} more`);
  }
  return lines.join('\n');
}

/** dealsignal import KIND FILE|-: exit 0 when committed, 1 when not, 2 on a usage error. */
export async function importCommand(config: Config, args: string[], io: CommandIo = processIo): Promise<number> {
  let kind: string;
  let file: string;
  let values: { 'skip-invalid'?: boolean; json?: boolean; format?: string };
  try {
    const parsed = parse(args, {
      'skip-invalid': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      format: { type: 'string', default: 'auto' },
    });
    values = parsed.values as typeof values;
    if (parsed.positionals.length !== 2) throw new UsageError('import needs KIND and FILE (or - for standard input)');
    [kind, file] = parsed.positionals as [string, string];
    if (!isIngestKind(kind)) throw new UsageError(`unknown kind "${kind}"; kinds: ${INGEST_KINDS.join(', ')}`);
    if (!['auto', 'ndjson', 'json'].includes(values.format!)) throw new UsageError('--format must be auto, ndjson or json');
    if (file !== '-') {
      const info = await stat(userPath(io, file)).catch((err: NodeJS.ErrnoException) => {
        throw new UsageError(`cannot read ${file} (${err.code ?? err.message})`);
      });
      if (!info.isFile()) throw new UsageError(`${file} is not a file`);
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`dealsignal: ${err.message}\n\nUsage: ${IMPORT_USAGE}`);
    return 2;
  }

  const db = await openStore(config, io);
  let report: IngestReport;
  try {
    const source = file === '-' ? io.stdin : openInputFile(userPath(io, file));
    report = await ingest(db, kind, source, {
      skipInvalid: values['skip-invalid'] === true,
      format: values.format as 'auto' | 'ndjson' | 'json',
    });
  } finally {
    await db.close();
  }
  io.out(values.json ? JSON.stringify(report) : formatReport(report));
  return report.committed ? 0 : 1;
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/** dealsignal watch DIR: runs the inbox until stopped; exit 0, or 2 on a usage error. */
export async function watchCommand(config: Config, args: string[], io: CommandIo = processIo): Promise<number> {
  let dir: string;
  let values: { 'skip-invalid'?: boolean; interval?: string };
  try {
    const parsed = parse(args, {
      'skip-invalid': { type: 'boolean', default: false },
      interval: { type: 'string', default: '1000' },
    });
    values = parsed.values as typeof values;
    if (parsed.positionals.length !== 1) throw new UsageError('watch needs one DIR');
    dir = parsed.positionals[0]!;
    if (!/^\d+$/.test(values.interval!) || Number(values.interval) < 10) {
      throw new UsageError('--interval must be a whole number of milliseconds >= 10');
    }
    const info = await stat(userPath(io, dir)).catch(() => undefined);
    if (!info?.isDirectory()) throw new UsageError(`${dir} is not a directory`);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`dealsignal: ${err.message}\n\nUsage: ${WATCH_USAGE}`);
    return 2;
  }

  const db = await openStore(config, io);
  const log: InboxLog = { info: io.out, warn: io.out, error: io.err };
  try {
    const inbox = await startInbox(db, userPath(io, dir), log, {
      skipInvalid: values['skip-invalid'] === true,
      intervalMs: Number(values.interval),
    });
    await (io.untilStopped ?? waitForSignal)();
    await inbox.stop();
  } finally {
    await db.close();
  }
  return 0;
}
