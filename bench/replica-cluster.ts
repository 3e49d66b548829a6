// The engines of a layout past one machine, made on this one: a PostgreSQL streaming replica of the
// bench's server (a second cluster on another port, copied with pg_basebackup) and HAProxy in front
// of several instances. Both are the operator's everyday tools; nothing here is the server's own.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Queryable } from '../src/platform/db/port.js';
import { commandExists, freePort, startService, type Service } from './processes.js';
import { WORK_DIR } from './options.js';

/** A running streaming replica and how to take it down again, leaving the primary as it was. */
export interface Replica {
  url: string;
  port: number;
  /** The copy's size and how long pg_basebackup took. */
  copiedBytes: number;
  copySeconds: number;
  stop(): Promise<void>;
}

/** Where the server's own programs (pg_ctl, pg_basebackup) of the primary's major version are. */
async function serverBinaries(primary: Queryable): Promise<string> {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const rows = await primary.query<{ version: string }>("SELECT current_setting('server_version_num') AS version");
  const major = Math.floor(Number(rows[0]!.version) / 10_000);
  const dir = `/usr/lib/postgresql/${major}/bin`;
  if (!existsSync(join(dir, 'pg_basebackup'))) {
    throw new Error(
      `no PostgreSQL ${major} server programs in ${dir} (set PG_BIN_DIR to the folder holding pg_ctl and pg_basebackup)`,
    );
  }
  return dir;
}

/** PostgreSQL refuses to run as root: as root, its programs run as the cluster's owner. */
function asClusterOwner(
  owner: { uid: number; gid: number },
  command: string,
  args: string[],
): { command: string; args: string[] } {
  if (process.getuid?.() !== 0) return { command, args };
  return { command: 'setpriv', args: [`--reuid=${owner.uid}`, `--regid=${owner.gid}`, '--clear-groups', command, ...args] };
}

function run(command: string, args: string[], what: string): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${what} failed (exit ${result.status ?? result.signal}): ${result.stderr || result.stdout}`);
  return result.stdout;
}

const HBA_LINE = 'host replication all 127.0.0.1/32 trust # bench/replicas.ts, removed when it ends';

/**
 * Lets pg_basebackup and the replica connect for replication from this machine: the entry is
 * added to the primary's pg_hba.conf when it has none (a stock cluster has none for 127.0.0.1,
 * "all" does not cover replication) and removed again by the function returned.
 */
async function allowLocalReplication(primary: Queryable): Promise<() => Promise<void>> {
  const rules = await primary.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_hba_file_rules
      WHERE 'replication' = ANY(database) AND type IN ('host', 'hostnossl') AND auth_method = 'trust'
        AND (address IS NULL OR address IN ('127.0.0.1', 'all'))`,
  );
  if (rules[0]!.n > 0) return async () => undefined;
  const file = (await primary.query<{ file: string }>("SELECT current_setting('hba_file') AS file"))[0]!.file;
  const original = readFileSync(file, 'utf8');
  console.log(`adding "${HBA_LINE}" to ${file} for the run`);
  // Rules are read top down: first, before any line that would reject the connection.
  writeFileSync(file, `${HBA_LINE}\n${original}`);
  await primary.query('SELECT pg_reload_conf()');
  return async () => {
    const now = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      now
        .split('\n')
        .filter((line) => line !== HBA_LINE)
        .join('\n'),
    );
    await primary.query('SELECT pg_reload_conf()');
  };
}

/**
 * Copies the primary's cluster with pg_basebackup (streaming its WAL, a replication slot of its own
 * so the primary keeps what the replica has not received) and starts it as a hot standby on a free
 * port. `stop` stops it, drops the slot and removes the copy.
 */
export async function startReplica(primaryUrl: string, primary: Queryable): Promise<Replica> {
  const bin = await serverBinaries(primary);
  const rows = await primary.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir");
  // The replica belongs to whoever owns the primary's cluster.
  const { uid, gid } = statSync(rows[0]!.dir);
  const port = await freePort();
  const dir = join(tmpdir(), `dealsignal-replica-${port}`);
  const slot = `dealsignal_bench_${port}`;
  const source = new URL(primaryUrl);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { mode: 0o700 });
  chownSync(dir, uid, gid);
  const owned = (command: string, args: string[]) => asClusterOwner({ uid, gid }, join(bin, command), args);

  const disallow = await allowLocalReplication(primary);
  let started = false;
  const stop = async () => {
    if (started) {
      const stopping = owned('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']);
      spawnSync(stopping.command, stopping.args, { stdio: 'ignore' });
    }
    // A slot left behind would keep the primary's WAL forever.
    await primary
      .query('SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1', [slot])
      .catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    await disallow();
  };
  try {
    const copyStarted = performance.now();
    const basebackup = owned('pg_basebackup', [
      '-d',
      `host=${source.hostname} port=${source.port || 5432} user=${decodeURIComponent(source.username || 'postgres')}`,
      '-D',
      dir,
      '-X',
      'stream',
      '-c',
      'fast',
      '-C',
      '-S',
      slot,
      '-R',
    ]);
    console.log(`copying the primary's cluster with pg_basebackup into ${dir}...`);
    run(basebackup.command, basebackup.args, 'pg_basebackup');
    const copySeconds = (performance.now() - copyStarted) / 1000;
    const copiedBytes = Number(run('du', ['-sb', dir], 'du').split('\t')[0]);
    // Debian keeps a cluster's settings outside its data directory: the copy gets its own.
    const sharedBuffers = (await primary.query<{ value: string }>("SELECT current_setting('shared_buffers') AS value"))[0]!.value;
    const files: Record<string, string> = {
      'postgresql.conf': [
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'hot_standby = on',
        // Queries on the standby are short; replay is never held back for them long.
        'max_standby_streaming_delay = 1s',
        `shared_buffers = '${sharedBuffers}'`,
        'max_connections = 200',
        '',
      ].join('\n'),
      'pg_hba.conf': 'local all all trust\nhost all all 127.0.0.1/32 trust\n',
      'pg_ident.conf': '',
    };
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
      chownSync(join(dir, name), uid, gid);
      chmodSync(join(dir, name), 0o600);
    }
    const starting = owned('pg_ctl', ['-D', dir, '-l', join(dir, 'server.log'), '-w', '-t', '300', 'start']);
    run(starting.command, starting.args, 'pg_ctl start');
    started = true;
    const url = new URL(primaryUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    await waitForStandby(url.href);
    return { url: url.href, port, copiedBytes, copySeconds, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitForStandby(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      const rows = await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
      if (!rows.rows[0]!.standby) throw new Error('the copy is not a standby');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(500);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** How far behind the replica replays, as the primary sees it (pg_stat_replication), in bytes of WAL and seconds. */
export async function replicationLag(primary: Queryable): Promise<{ bytes: number; replaySeconds: number } | undefined> {
  const rows = await primary.query<{ bytes: number | null; seconds: number | null }>(
    `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::float8 AS bytes,
            extract(epoch FROM replay_lag)::float8 AS seconds
       FROM pg_stat_replication ORDER BY backend_start DESC LIMIT 1`,
  );
  const row = rows[0];
  return row ? { bytes: row.bytes ?? 0, replaySeconds: row.seconds ?? 0 } : undefined;
}

/** HAProxy in front of the instances: round robin per request, an instance taken out while /readyz is not 200. */
export async function startHaproxy(backends: readonly string[]): Promise<Service> {
  if (!commandExists('haproxy')) throw new Error('haproxy is not installed (apt-get install haproxy)');
  const port = await freePort();
  const file = join(WORK_DIR, 'haproxy.cfg');
  mkdirSync(WORK_DIR, { recursive: true });
  writeFileSync(
    file,
    [
      'global',
      '  maxconn 4096',
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 60s',
      '  timeout server 60s',
      'frontend api',
      `  bind 127.0.0.1:${port}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      ...backends.map((base, i) => `  server instance${i + 1} ${new URL(base).host} check inter 1s`),
      '',
    ].join('\n'),
  );
  return startService('haproxy', 'haproxy', ['-f', file, '-db'], { env: process.env, baseUrl: `http://127.0.0.1:${port}` });
}
