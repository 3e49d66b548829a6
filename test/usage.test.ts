import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildApp } from '../src/app.js';
import { migrate } from '../src/platform/db/migrate.js';
import { dailyUsage } from '../src/accounts/usage-queries.js';
import { describeEach, makeKey, testConfig } from './helpers.js';

describeEach('usage recording', (backend) => {
  it('records every keyed request (family, endpoint, status, credits) and marks the key used', async () => {
    const db = await backend.open();
    try {
      await migrate(db);
      const app = await buildApp({ config: testConfig(), db });
      const account = await makeKey(db, 'pro');
      const v1 = { 'x-lot-api-key': account.key };
      const v2 = { authorization: `Bearer ${account.key}` };
      await app.inject({ url: '/api/v1/funding', headers: v1 });
      await app.inject({ url: '/api/v1/m-a?status=nope', headers: v1 });
      await app.inject({ url: '/api/v2/signals/investors', headers: v2 });
      await app.inject({ url: '/api/v2/signals/investors?count=true', headers: v2 });
      await app.inject({ url: '/api/v1/funding', headers: { 'x-lot-api-key': 'bad' } });
      await app.close(); // flushes the buffer
      const rows = await db.query(
        'SELECT family, endpoint, status, credits FROM usage_events WHERE account_id = $1 ORDER BY id',
        [account.accountId],
      );
      assert.deepEqual(rows, [
        { family: 'v1', endpoint: '/api/v1/funding', status: 200, credits: 0 },
        { family: 'v1', endpoint: '/api/v1/m-a', status: 400, credits: 0 },
        { family: 'v2', endpoint: '/api/v2/signals/investors', status: 200, credits: 1 },
        { family: 'v2', endpoint: '/api/v2/signals/investors', status: 200, credits: 0 },
      ]);
      const [key] = await db.query('SELECT last_used_at IS NOT NULL AS used FROM api_keys WHERE id = $1', [account.id]);
      assert.equal(key!.used, true);
      const days = await dailyUsage(db, account.accountId, 30);
      assert.equal(days.length, 30);
      assert.deepEqual(days.at(-1)!, { day: new Date().toISOString().slice(0, 10), v1_requests: 2, v2_requests: 2, credits: 1 });
    } finally {
      await db.close();
    }
  });
});
