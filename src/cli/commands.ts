// The commands that work on the store. Each runs against whatever io gives it: this process and
// its own connection, or (on the embedded store while the server runs) the server's open store
// through the operator channel, so one implementation serves both.
import { parseArgs } from 'node:util';
import { TIERS, type Config, type Tier } from '../config.js';
import { migrate } from '../platform/db/index.js';
import { findAccountByReference, listAccounts, setAccountTier, setV1RateLimit } from '../accounts/index.js';
import { listApiKeys, revokeApiKey } from '../accounts/index.js';
import { createApiKey } from '../accounts/index.js';
import { CreditMeter } from '../accounts/index.js';
import type { Scale } from '../demo/index.js';
import { companies, DATASETS } from '../catalog/index.js';
import { resolveAll } from '../companies/index.js';
import { upserterOf } from '../ingest/index.js';
import { importCommand, watchCommand } from './ingest-command.js';
import { openUnmigrated, withStore, type CommandIo } from './io.js';

/** Resolves to the exit status; a thrown Error is reported as "dealsignal: MESSAGE" with status 1. */
export type StoreCommand = (config: Config, args: string[], io: CommandIo) => Promise<number>;

function fail(message: string): never {
  throw new Error(message);
}

function wholeNumber(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) fail(`${flag} must be a whole number >= 0`);
  return Number(value);
}

async function keysCommand(config: Config, args: string[], io: CommandIo): Promise<number> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      tier: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean', default: false },
      add: { type: 'string' },
      set: { type: 'string' },
    },
  });
  switch (action) {
    case 'create': {
      if (!values.email) fail('keys create needs --email EMAIL');
      if (values.tier && !TIERS.includes(values.tier as Tier)) fail(`--tier must be one of ${TIERS.join(', ')}`);
      const created = await withStore(config, io, (db) =>
        createApiKey(db, { email: values.email!, tier: values.tier as Tier | undefined, name: values.name }),
      );
      if (values.json) {
        io.out(JSON.stringify(created));
      } else {
        io.out(`Created key ${created.id} (${created.name}) for ${created.email}, tier ${created.tier}.`);
        io.out('This is the only time the key is shown; store it safely:');
        io.out(`  ${created.key}`);
      }
      return 0;
    }
    case 'list': {
      const keys = await withStore(config, io, (db) => listApiKeys(db, values.email?.trim().toLowerCase()));
      if (values.json) {
        io.out(JSON.stringify(keys));
        return 0;
      }
      if (keys.length === 0) io.out('no keys');
      for (const k of keys) {
        const status = k.revoked_at ? `revoked ${k.revoked_at}` : 'active';
        io.out(`${k.id}  ${k.prefix}…${k.last4}  ${k.email}  ${k.name}  created ${k.created_at}  ${status}`);
      }
      return 0;
    }
    case 'revoke': {
      const id = positionals[0] ?? fail('keys revoke needs a key ID (see keys list)');
      const revoked = await withStore(config, io, (db) => revokeApiKey(db, id));
      if (!revoked) fail(`no key with id ${id}`);
      io.out(`Revoked ${id}. It stops working within ${Math.ceil(config.keyCacheMs / 1000)} s on every instance.`);
      return 0;
    }
    case 'credits': {
      const reference = positionals[0] ?? fail('keys credits needs an account email, account id or key id');
      if (values.add !== undefined && values.set !== undefined) fail('use either --add or --set, not both');
      const change =
        values.add !== undefined
          ? { add: wholeNumber('--add', values.add) }
          : values.set !== undefined
            ? { set: wholeNumber('--set', values.set) }
            : undefined;
      const result = await withStore(config, io, async (db) => {
        const account = await findAccountByReference(db, reference);
        if (!account) fail(`no account matches ${reference}`);
        const meter = new CreditMeter(db, config.credits);
        const balance = change ? await meter.adjust(account.id, change) : await meter.balance(account.id);
        return { account, balance };
      });
      io.out(`${result.account.email} (${result.account.tier}): ${result.balance} credits`);
      return 0;
    }
    default:
      fail(`unknown keys action "${action ?? ''}"; use create, list, revoke or credits`);
  }
}

async function accountsCommand(config: Config, args: string[], io: CommandIo): Promise<number> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, v1: { type: 'string' } },
  });
  switch (action) {
    case 'list': {
      const accounts = await withStore(config, io, async (db) => {
        const meter = new CreditMeter(db, config.credits);
        const rows = await listAccounts(db);
        return Promise.all(rows.map(async (a) => ({ ...a, credits: await meter.balance(a.id) })));
      });
      if (values.json) io.out(JSON.stringify(accounts));
      else if (accounts.length === 0) io.out('no accounts');
      for (const a of values.json ? [] : accounts) {
        const v1 = a.v1_rate_limit ?? config.rateLimits.v1;
        const v2 = config.rateLimits.v2[a.tier];
        io.out(
          `${a.id}  ${a.email}  ${a.tier}  v1 ${v1}/window  v2 ${v2}/window  ${a.credits} credits  ${a.active_keys} active keys`,
        );
      }
      return 0;
    }
    case 'set-tier': {
      const [email, tier] = positionals;
      if (!email || !tier) fail('accounts set-tier needs EMAIL and TIER');
      if (!TIERS.includes(tier as Tier)) fail(`TIER must be one of ${TIERS.join(', ')}`);
      const changed = await withStore(config, io, (db) => setAccountTier(db, email, tier as Tier));
      if (!changed) fail(`no account with email ${email}`);
      io.out(`${email.toLowerCase()} is now on the ${tier} tier.`);
      return 0;
    }
    case 'set-limit': {
      const email = positionals[0] ?? fail('accounts set-limit needs EMAIL');
      if (values.v1 === undefined) fail('accounts set-limit needs --v1 N (or --v1 default)');
      const limit = values.v1 === 'default' ? null : wholeNumber('--v1', values.v1);
      if (limit === 0) fail('--v1 must be at least 1');
      const changed = await withStore(config, io, (db) => setV1RateLimit(db, email, limit));
      if (!changed) fail(`no account with email ${email}`);
      io.out(`${email.toLowerCase()}: v1 limit ${limit ?? `${config.rateLimits.v1} (default)`} requests per window.`);
      return 0;
    }
    default:
      fail(`unknown accounts action "${action ?? ''}"; use list, set-tier or set-limit`);
  }
}

async function seedCommand(config: Config, args: string[], io: CommandIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { scale: { type: 'string', default: 'demo' }, seed: { type: 'string', default: '42' }, 'as-of': { type: 'string' } },
  });
  // Loaded only by this command: the generators bring faker, and the server runs these commands too.
  const { SCALES, seedDatabase, startOfTodayUtc } = await import('../demo/index.js');
  const scale = values.scale as Scale;
  if (!(scale in SCALES)) fail(`--scale must be one of ${Object.keys(SCALES).join(', ')}`);
  if (!/^\d+$/.test(values.seed!)) fail('--seed must be a whole number');
  const asOf = values['as-of'] ? new Date(`${values['as-of']}T00:00:00Z`) : startOfTodayUtc();
  if (Number.isNaN(asOf.getTime())) fail('--as-of must be a date in YYYY-MM-DD form');
  const started = Date.now();
  const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
  let lastReport = 0;
  // Each dataset's time runs from the end of the one before (or the start).
  let datasetStarted = started;
  const counts = await withStore(config, io, (db) =>
    seedDatabase(db, {
      scale,
      seed: Number(values.seed),
      asOf,
      onProgress: (dataset, done, total) => {
        if (Date.now() - lastReport > 2000 || done === total) {
          lastReport = Date.now();
          const took = done === total ? ` in ${seconds(datasetStarted)}` : '';
          io.err(`  ${dataset}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')}${took}`);
          // After the last dataset come the statistics (VACUUM ANALYZE on PostgreSQL).
          if (done === total) datasetStarted = Date.now();
        }
      },
    }),
  );
  io.err(`  table statistics and counts: ${seconds(datasetStarted)}`);
  const loaded = DATASETS.map((dataset) => `${counts[dataset.name]} ${dataset.label}`).join(', ');
  io.out(`Seeded (${scale}, seed ${values.seed}) in ${seconds(started)}: ${loaded}.`);
  return 0;
}

async function companiesCommand(config: Config, args: string[], io: CommandIo): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'resolve') fail('usage: dealsignal companies resolve [--batch N]');
  const { values } = parseArgs({ args: rest, options: { batch: { type: 'string', default: '2000' } } });
  const batchRows = wholeNumber('--batch', values.batch!);
  if (batchRows < 1) fail('--batch must be at least 1');
  const started = Date.now();
  let lastReport = 0;
  const report = await withStore(config, io, (db) =>
    resolveAll(db, {
      batchRows,
      upsertCompanies: upserterOf(companies),
      onProgress: (dataset, records, changed) => {
        if (Date.now() - lastReport < 2000) return;
        lastReport = Date.now();
        io.err(`  ${dataset}: ${records.toLocaleString('en')} records, ${changed.toLocaleString('en')} links changed`);
      },
    }),
  );
  const parts = Object.entries(report.datasets).map(
    ([name, counts]) => `${name} ${counts.records.toLocaleString('en')} (${counts.changed.toLocaleString('en')} changed)`,
  );
  const took = ((Date.now() - started) / 1000).toFixed(1);
  io.out(
    `Resolved in ${took} s: ${parts.join(', ')}; ${report.companies.toLocaleString('en')} companies made or filled, ` +
      `${report.removed.toLocaleString('en')} made from records and no longer linked removed.`,
  );
  return 0;
}

async function migrateCommand(config: Config, _args: string[], io: CommandIo): Promise<number> {
  // Not openStore: that migrates before the command could say what it applied.
  const db = await openUnmigrated(config, io);
  try {
    const applied = await migrate(db);
    io.out(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'migrations are up to date');
  } finally {
    await db.close();
  }
  return 0;
}

/** Every command that opens the store, by name (serve is not one: it owns the store). */
export const STORE_COMMANDS: Readonly<Record<string, StoreCommand>> = {
  migrate: migrateCommand,
  seed: seedCommand,
  companies: companiesCommand,
  keys: keysCommand,
  accounts: accountsCommand,
  import: importCommand,
  watch: watchCommand,
};

export function isStoreCommand(name: string): boolean {
  return Object.hasOwn(STORE_COMMANDS, name);
}
