import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/platform/db/port.js';
import type { Lifecycle } from '../../src/app-services.js';
import { makeKey, testConfig, describeOnOneStore } from '../helpers.js';

const BIN = new URL('../../bin/dealsignal.js', import.meta.url).pathname;

describeOnOneStore('health, readiness, metrics, request ids and logs', (backend) => {
  let db: Database;
  let app: FastifyInstance;
  let logs: string[];
  const lifecycle: Lifecycle = { draining: false };

  before(async () => {
    db = await backend.openMigrated();
    logs = [];
    app = await buildApp({
      config: testConfig({ LOG_LEVEL: 'info', METRICS_TOKEN: 'metrics-secret' }),
      db,
      lifecycle,
      logStream: { write: (line: string) => logs.push(line) } as unknown as NodeJS.WritableStream,
    });
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  it('/healthz is alive; /readyz is ready while the database answers and 503 while draining', async () => {
    assert.deepEqual((await app.inject('/healthz')).json(), { status: 'ok' });
    const ready = await app.inject('/readyz');
    assert.equal(ready.statusCode, 200);
    lifecycle.draining = true;
    try {
      const draining = await app.inject('/readyz');
      assert.equal(draining.statusCode, 503);
      assert.equal(draining.headers.connection, 'close', 'keep-alive clients are told to reconnect elsewhere');
    } finally {
      lifecycle.draining = false;
    }
  });

  it('every response carries a request id; a sane incoming one is kept', async () => {
    const fresh = await app.inject('/healthz');
    assert.match(String(fresh.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const traced = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'lb-trace.42' } });
    assert.equal(traced.headers['x-request-id'], 'lb-trace.42');
    const hostile = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'x'.repeat(500) } });
    assert.notEqual(hostile.headers['x-request-id'], 'x'.repeat(500));
  });

  it('logs carry the request id and never an API key, cookie or credential', async () => {
    const { key } = await makeKey(db);
    logs.length = 0;
    await app.inject({ url: '/api/v1/funding', headers: { 'x-lot-api-key': key, cookie: 'session=topsecret' } });
    await app.inject({ url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${key}` } });
    await app.inject({ url: `/api/v1/funding?api_key=${key}` });
    await app.inject({ url: `/api/v2/signals/investors?token=${key}&password=hunter2hunter2` });
    const output = logs.join('');
    assert.ok(logs.length >= 8, 'requests were logged');
    assert.ok(!output.includes(key), 'the key string appears nowhere in the logs');
    assert.ok(!output.includes('topsecret'));
    assert.ok(!output.includes('hunter2'));
    for (const line of logs.map((l) => JSON.parse(l))) {
      if (line.req || line.res) assert.ok(line.reqId, `request log lines carry reqId: ${JSON.stringify(line)}`);
    }
  });

  it('/metrics needs the token when one is set and reports requests, latency, limits and credits', async () => {
    assert.equal((await app.inject('/metrics')).statusCode, 401);
    const { key } = await makeKey(db);
    await app.inject({ url: '/api/v2/signals/investors', headers: { authorization: `Bearer ${key}` } });
    const res = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer metrics-secret' } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/plain/);
    assert.match(
      res.body,
      /dealsignal_http_requests_total\{method="GET",route="\/api\/v2\/signals\/investors",status="200"\} [1-9]/,
    );
    assert.match(res.body, /dealsignal_http_request_duration_seconds_bucket\{/);
    assert.match(res.body, /dealsignal_credits_charged_total\{endpoint="signals.investors"\} [1-9]/);
    assert.match(res.body, /dealsignal_rate_limit_rejections_total/);
    assert.match(res.body, /dealsignal_ingest_records_total/);
    if (backend.name === 'postgres') assert.match(res.body, /dealsignal_db_pool_connections\{state="total"\}/);
  });

  it('overlong URLs get 414 in the family shape', async () => {
    const long = 'x'.repeat(5000);
    const v1 = await app.inject(`/api/v1/funding?round=${long}`);
    assert.equal(v1.statusCode, 414);
    assert.deepEqual(Object.keys(v1.json()), ['code', 'message']);
    const v2 = await app.inject(`/api/v2/signals/investors?search=${long}`);
    assert.equal(v2.statusCode, 414);
    assert.deepEqual(v2.json(), { success: false, error: 'URI too long: at most 4096 characters', code: 'uri_too_long' });
  });
});

describe('/metrics exposure', () => {
  it('a server on any address but loopback refuses to start without METRICS_TOKEN, before touching the store', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dealsignal-metrics-'));
    try {
      for (const host of ['0.0.0.0', '::', '192.0.2.10']) {
        const env: NodeJS.ProcessEnv = { ...process.env, HOST: host, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
        delete env.METRICS_TOKEN;
        delete env.DATABASE_URL;
        const result = spawnSync(process.execPath, [BIN, 'serve'], { env, encoding: 'utf8', timeout: 30_000 });
        assert.equal(result.status, 1, `HOST=${host}: ${result.stdout}${result.stderr}`);
        assert.match(result.stderr, /METRICS_TOKEN is required/);
        assert.match(result.stderr, new RegExp(`HOST=${host.replace(/\./g, '\\.')}`));
        assert.deepEqual(readdirSync(dataDir), [], 'no store was created');
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('loopback addresses may leave /metrics open; any address is fine with a token', () => {
    for (const host of ['127.0.0.1', '127.0.0.53', 'localhost', '::1']) {
      assert.equal(testConfig({ HOST: host }).metricsToken, undefined, host);
    }
    assert.equal(testConfig({ HOST: '0.0.0.0', METRICS_TOKEN: 'metrics-secret' }).metricsToken, 'metrics-secret');
  });

  describeOnOneStore('/metrics on a loopback server without a token', (backend) => {
    let db: Database;
    let app: FastifyInstance;
    before(async () => {
      db = await backend.openMigrated();
      app = await buildApp({ config: testConfig({ HOST: '127.0.0.1' }), db });
    });
    after(async () => {
      await app.close();
      await db.close();
    });

    it('is served without a token', async () => {
      const res = await app.inject('/metrics');
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /dealsignal_http_requests_total/);
    });
  });
});
