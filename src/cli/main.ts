import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, TIERS, type Config, type Tier } from '../config.js';
import { migrate } from '../db/migrate.js';
import { openDatabase } from '../db/open.js';
import type { Database } from '../db/port.js';
import {
  findAccountByReference,
  listAccounts,
  listApiKeys,
  revokeApiKey,
  setAccountTier,
  setV1RateLimit,
} from '../db/queries/accounts.js';
import { CreditMeter } from '../services/credits.js';
import { importCommand, watchCommand } from './ingest.js';
import { serve } from '../server.js';
import { createApiKey } from '../services/accounts.js';
import { SCALES, seedDatabase, startOfTodayUtc, type Scale } from '../services/seed.js';

const USAGE = `Usage: dealsignal <command> [options]

Commands:
  serve [--workers N]                     start the HTTP server (migrates; seeds demo data into an empty embedded store);
                                          N worker processes (default: one per core on PostgreSQL, 1 embedded)
  migrate                                 apply pending database migrations
  seed --scale demo|large [--seed N] [--as-of YYYY-MM-DD]
                                          load the deterministic synthetic data set
  keys create --email EMAIL [--tier free|pro|enterprise] [--name NAME] [--json]
                                          create a key (and the account if needed); the key is printed once
  keys list [--email EMAIL] [--json]      list keys (prefix and last 4 only)
  keys revoke ID                          revoke a key at once
  keys credits ACCOUNT_OR_KEY [--add N | --set N]
                                          show or change an account's v2 credit balance
                                          (ACCOUNT_OR_KEY: email, account id or key id)
  import KIND FILE|- [--skip-invalid] [--json]
                                          ingest records (KIND: funding, m-a, investors, job-changes, acquisitions)
  watch DIR [--skip-invalid]              ingest files dropped into DIR (moved to processed/ or failed/ with a report)
  accounts list [--json]                  list accounts with tier, limits and credit balance
  accounts set-tier EMAIL free|pro|enterprise
                                          change an account's tier (its v2 rate limit and monthly credits)
  accounts set-limit EMAIL --v1 N|default give an account its own v1 limit per window (enterprise arrangement)

Configuration comes from the environment (PORT, HOST, DATA_DIR, DATABASE_URL, ...); see the README.`;

async function withDatabase<T>(config: Config, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(config);
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}

function fail(message: string): never {
  throw new Error(message);
}

function wholeNumber(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) fail(`${flag} must be a whole number >= 0`);
  return Number(value);
}

async function keysCommand(config: Config, args: string[]): Promise<number> {
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
      const created = await withDatabase(config, (db) =>
        createApiKey(db, { email: values.email!, tier: values.tier as Tier | undefined, name: values.name }),
      );
      if (values.json) {
        console.log(JSON.stringify(created));
      } else {
        console.log(`Created key ${created.id} (${created.name}) for ${created.email}, tier ${created.tier}.`);
        console.log('This is the only time the key is shown; store it safely:');
        console.log(`  ${created.key}`);
      }
      return 0;
    }
    case 'list': {
      const keys = await withDatabase(config, (db) => listApiKeys(db, values.email?.trim().toLowerCase()));
      if (values.json) {
        console.log(JSON.stringify(keys));
        return 0;
      }
      if (keys.length === 0) console.log('no keys');
      for (const k of keys) {
        const status = k.revoked_at ? `revoked ${k.revoked_at}` : 'active';
        console.log(`${k.id}  ${k.prefix}…${k.last4}  ${k.email}  ${k.name}  created ${k.created_at}  ${status}`);
      }
      return 0;
    }
    case 'revoke': {
      const id = positionals[0] ?? fail('keys revoke needs a key ID (see keys list)');
      const revoked = await withDatabase(config, (db) => revokeApiKey(db, id));
      if (!revoked) fail(`no key with id ${id}`);
      console.log(`Revoked ${id}. It stops working within ${Math.ceil(config.keyCacheMs / 1000)} s on every instance.`);
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
      const result = await withDatabase(config, async (db) => {
        const account = await findAccountByReference(db, reference);
        if (!account) fail(`no account matches ${reference}`);
        const meter = new CreditMeter(db, config.credits);
        const balance = change ? await meter.adjust(account.id, change) : await meter.balance(account.id);
        return { account, balance };
      });
      console.log(`${result.account.email} (${result.account.tier}): ${result.balance} credits`);
      return 0;
    }
    default:
      fail(`unknown keys action "${action ?? ''}"; use create, list, revoke or credits`);
  }
}

async function accountsCommand(config: Config, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, v1: { type: 'string' } },
  });
  switch (action) {
    case 'list': {
      const accounts = await withDatabase(config, async (db) => {
        const meter = new CreditMeter(db, config.credits);
        const rows = await listAccounts(db);
        return Promise.all(rows.map(async (a) => ({ ...a, credits: await meter.balance(a.id) })));
      });
      if (values.json) console.log(JSON.stringify(accounts));
      else if (accounts.length === 0) console.log('no accounts');
      for (const a of values.json ? [] : accounts) {
        const v1 = a.v1_rate_limit ?? config.rateLimits.v1;
        const v2 = config.rateLimits.v2[a.tier];
        console.log(
          `${a.id}  ${a.email}  ${a.tier}  v1 ${v1}/window  v2 ${v2}/window  ${a.credits} credits  ${a.active_keys} active keys`,
        );
      }
      return 0;
    }
    case 'set-tier': {
      const [email, tier] = positionals;
      if (!email || !tier) fail('accounts set-tier needs EMAIL and TIER');
      if (!TIERS.includes(tier as Tier)) fail(`TIER must be one of ${TIERS.join(', ')}`);
      const changed = await withDatabase(config, (db) => setAccountTier(db, email, tier as Tier));
      if (!changed) fail(`no account with email ${email}`);
      console.log(`${email.toLowerCase()} is now on the ${tier} tier.`);
      return 0;
    }
    case 'set-limit': {
      const email = positionals[0] ?? fail('accounts set-limit needs EMAIL');
      if (values.v1 === undefined) fail('accounts set-limit needs --v1 N (or --v1 default)');
      const limit = values.v1 === 'default' ? null : wholeNumber('--v1', values.v1);
      if (limit === 0) fail('--v1 must be at least 1');
      const changed = await withDatabase(config, (db) => setV1RateLimit(db, email, limit));
      if (!changed) fail(`no account with email ${email}`);
      console.log(`${email.toLowerCase()}: v1 limit ${limit ?? `${config.rateLimits.v1} (default)`} requests per window.`);
      return 0;
    }
    default:
      fail(`unknown accounts action "${action ?? ''}"; use list, set-tier or set-limit`);
  }
}

async function seedCommand(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { scale: { type: 'string', default: 'demo' }, seed: { type: 'string', default: '42' }, 'as-of': { type: 'string' } },
  });
  const scale = values.scale as Scale;
  if (!(scale in SCALES)) fail(`--scale must be one of ${Object.keys(SCALES).join(', ')}`);
  if (!/^\d+$/.test(values.seed!)) fail('--seed must be a whole number');
  const asOf = values['as-of'] ? new Date(`${values['as-of']}T00:00:00Z`) : startOfTodayUtc();
  if (Number.isNaN(asOf.getTime())) fail('--as-of must be a date in YYYY-MM-DD form');
  const started = Date.now();
  let lastReport = 0;
  const counts = await withDatabase(config, (db) =>
    seedDatabase(db, {
      scale,
      seed: Number(values.seed),
      asOf,
      onProgress: (dataset, done, total) => {
        if (Date.now() - lastReport > 2000 || done === total) {
          lastReport = Date.now();
          process.stderr.write(`  ${dataset}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')}\n`);
        }
      },
    }),
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `Seeded (${scale}, seed ${values.seed}) in ${seconds} s: ${counts.funding} funding rounds, ${counts.ma} M&A deals, ` +
      `${counts.investors} investors, ${counts.jobChanges} job changes, ${counts.acquisitions} acquisition signals.`,
  );
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`dealsignal: ${err.message}`);
      return 1;
    }
    throw err;
  }
  switch (command) {
    case 'serve': {
      const { values } = parseArgs({ args, options: { workers: { type: 'string' } } });
      await serve(config, { workers: values.workers === undefined ? undefined : wholeNumber('--workers', values.workers) || 1 });
      return 0;
    }
    case 'migrate': {
      const db = await openDatabase(config);
      try {
        const applied = await migrate(db);
        console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'migrations are up to date');
      } finally {
        await db.close();
      }
      return 0;
    }
    case 'seed':
      return seedCommand(config, args);
    case 'keys':
      return keysCommand(config, args);
    case 'accounts':
      return accountsCommand(config, args);
    case 'import':
      return importCommand(config, args);
    case 'watch':
      return watchCommand(config, args);
    default:
      console.error(`dealsignal: unknown command "${command}"\n\n${USAGE}`);
      return 1;
  }
}
