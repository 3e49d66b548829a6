// One country rule everywhere, over HTTP on both stores: v1 `country`, v2 `countries` and
// `exclude_countries`, webhook filters of every event type, and ingested records take ISO 3166
// alpha-2 and alpha-3 codes and English names, any case; an unknown value gets one message.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { EVENT_TYPES } from '../../src/webhooks/schemas.js';
import {
  fundingRecord,
  insertAcquisitions,
  acquisitionRecord,
  insertFunding,
  insertInvestors,
  investorRecord,
} from '../fixtures.js';
import { describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { ADMIN_TOKEN, ndjson } from '../ingest/support.js';
import { startReceiver, type TestReceiver } from '../webhooks/receiver.js';
import { webhookApi } from '../webhooks/support.js';

const unknown = (name: string, value: string) =>
  `${name}: "${value}" is not a country: use an ISO 3166 alpha-2 or alpha-3 code or an English country name ` +
  '(e.g. US, USA or United States), any case';

/** Every way of naming Germany and the United States the rule takes. */
const GERMANY = ['DE', 'de', 'DEU', 'deu', 'Germany', 'GERMANY', ' germany '];
const UNITED_STATES = ['US', 'us', 'USA', 'usa', 'United States', 'united states'];

describeEach('one country rule', (backend) => {
  let ctx: TestContext;
  let key: string;
  let receiver: TestReceiver;

  const get = (url: string) =>
    ctx.app.inject({ method: 'GET', url, headers: { 'x-lot-api-key': key, authorization: `Bearer ${key}` } });
  const ok = async (url: string) => {
    const res = await get(url);
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json();
  };

  before(async () => {
    ctx = await startApp(backend, { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', ADMIN_TOKEN });
    key = (await makeKey(ctx.db, 'enterprise')).key;
    receiver = await startReceiver();
    const located = (country: string) => {
      const record = fundingRecord();
      record.company_info = { ...record.company_info!, hq_country: country };
      return record;
    };
    await insertFunding(ctx.db, [located('Germany'), located('United States'), located('France')]);
    await insertInvestors(ctx.db, [
      investorRecord({ country: 'Germany' }),
      investorRecord({ country: 'United States' }),
      investorRecord({ country: 'France' }),
    ]);
    await insertAcquisitions(ctx.db, [acquisitionRecord({ country: 'Germany' }), acquisitionRecord({ country: 'France' })]);
  });
  after(async () => {
    await ctx?.close();
    await receiver?.close();
  });

  it('v1 country and v2 countries take alpha-2, alpha-3 and English names, any case, alike', async () => {
    for (const germany of GERMANY) {
      const q = encodeURIComponent(germany);
      const v1 = await ok(`/api/v1/funding?country=${q}`);
      assert.deepEqual(
        v1.response.data.map((round: { company_info: { hq_country: string } }) => round.company_info.hq_country),
        ['Germany'],
        germany,
      );
      const v2 = await ok(`/api/v2/signals/investors?countries=${q}`);
      assert.deepEqual(
        v2.data.map((investor: { country: string }) => investor.country),
        ['Germany'],
        germany,
      );
      const acquisitions = await ok(`/api/v2/signals/acquisitions?countries=${q}`);
      assert.equal(acquisitions.data.length, 1, germany);
    }
    for (const us of UNITED_STATES) {
      const v2 = await ok(`/api/v2/signals/investors?countries=${encodeURIComponent(`${us},FRA`)}`);
      assert.deepEqual(v2.data.map((investor: { country: string }) => investor.country).sort(), ['France', 'United States'], us);
      const excluded = await ok(`/api/v2/signals/investors?exclude_countries=${encodeURIComponent(us)}`);
      assert.deepEqual(excluded.data.map((investor: { country: string }) => investor.country).sort(), ['France', 'Germany'], us);
    }
    const signals = await ok('/api/v2/signals/funding?countries=deu');
    assert.equal(signals.data.length, 1);
  });

  it('an unknown country gets one message in every family and parameter', async () => {
    const v1 = await get('/api/v1/funding?country=Atlantis');
    assert.equal(v1.statusCode, 400);
    assert.deepEqual(v1.json(), { code: 400, message: unknown('country', 'Atlantis') });
    for (const [path, name] of [
      ['/api/v2/signals/investors', 'countries'],
      ['/api/v2/signals/funding', 'countries'],
      ['/api/v2/signals/acquisitions', 'exclude_countries'],
    ] as const) {
      const res = await get(`${path}?${name}=US,XYZ`);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { success: false, error: unknown(name, 'XYZ'), code: 'invalid_parameter', param: name });
    }
  });

  it('a webhook filter takes the rule with every event type, and refuses an unknown country in the same words', async () => {
    const api = webhookApi(ctx.app, (await makeKey(ctx.db, 'pro')).key);
    // The event types whose records have a country (the others ignore the key, as published).
    const withCountries = EVENT_TYPES.filter((type) => /^(funding|acquisition|investor)\./.test(type));
    assert.ok(withCountries.length >= 6);
    for (const eventType of withCountries) {
      for (const countries of ['Germany', 'DEU,usa', 'de']) {
        const created = await api.create({ endpoint_url: receiver.url, event_types: [eventType], filters: { countries } });
        assert.equal(created.status, 201, `${eventType} ${countries}: ${JSON.stringify(created.body)}`);
        assert.equal((await api.call('DELETE', `/api/v2/webhooks/${created.id}`)).status, 200);
      }
      const refused = await api.create({
        endpoint_url: receiver.url,
        event_types: [eventType],
        filters: { countries: 'Atlantis' },
      });
      assert.equal(refused.status, 400, eventType);
      assert.equal(refused.body.error, `filters.${unknown('countries', 'Atlantis')}`, eventType);
      assert.equal(refused.body.param, 'filters.countries');
    }
  });

  it('an ingested record with an alpha-3 country is found by every spelling of it', async () => {
    const record = fundingRecord({ company_name: 'Alpha Three GmbH' });
    record.company_info = { ...record.company_info!, hq_country: 'DEU' };
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/admin/ingest/funding',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      payload: ndjson([record]),
    });
    assert.equal(res.statusCode, 200, res.body);
    for (const germany of ['DE', 'Germany', 'deu']) {
      const names = (await ok(`/api/v1/funding?country=${germany}`)).response.data.map(
        (round: { company_name: string }) => round.company_name,
      );
      assert.ok(names.includes('Alpha Three GmbH'), `${germany}: ${names}`);
    }
  });
});
