import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { clearData, describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import {
  acquisitionRecord,
  insertAcquisitions,
  insertInvestors,
  insertJobChanges,
  investorRecord,
  jobChangeRecord,
} from '../fixtures.js';

describeEach('v2 signal filters', (backend) => {
  let ctx: TestContext;
  let key: string;

  const names = async (url: string, field: string) => {
    const res = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.pagination.totalCount, body.data.length, 'totalCount is exact');
    return body.data.map((r: Record<string, string>) => r[field]).sort();
  };

  before(async () => {
    ctx = await startApp(backend);
    key = (await makeKey(ctx.db, 'enterprise')).key;
  });
  after(() => ctx.close());
  beforeEach(() => clearData(ctx.db));

  describe('investors', () => {
    const inv = (q: string) => names(`/api/v2/signals/investors${q}`, 'name');
    beforeEach(() =>
      insertInvestors(ctx.db, [
        investorRecord({ name: 'Sequoia Capital', investorType: 'vc', country: 'United States' }),
        investorRecord({ name: 'Index Ventures', investorType: 'vc', country: 'United Kingdom' }),
        investorRecord({ name: 'Jane Doe', investorType: 'angel', country: 'Germany' }),
        investorRecord({ name: 'Ridge Family Office', investorType: 'family_office', country: 'United States' }),
      ]),
    );
    it('countries: ISO codes, case-insensitive, OR', async () => {
      assert.deepEqual(await inv('?countries=us'), ['Ridge Family Office', 'Sequoia Capital']);
      assert.deepEqual(await inv('?countries=GB,de'), ['Index Ventures', 'Jane Doe']);
    });
    it('categories: investor types, OR', async () => {
      assert.deepEqual(await inv('?categories=angel,family_office'), ['Jane Doe', 'Ridge Family Office']);
      assert.deepEqual(await inv('?categories=VC'), ['Index Ventures', 'Sequoia Capital']);
    });
    it('search: name or type, case-insensitive, every word must match', async () => {
      assert.deepEqual(await inv('?search=SEQUOIA'), ['Sequoia Capital']);
      assert.deepEqual(await inv('?search=capital%20sequ'), ['Sequoia Capital']);
      assert.deepEqual(await inv('?search=capital%20index'), []);
      assert.deepEqual(await inv('?search=angel'), ['Jane Doe']);
      assert.deepEqual(await inv('?search=family%20office'), ['Ridge Family Office']);
    });
    it('filters combine with AND', async () => {
      assert.deepEqual(await inv('?countries=US&categories=vc&search=capital'), ['Sequoia Capital']);
    });
  });

  describe('job changes', () => {
    const jc = (q: string) => names(`/api/v2/signals/job-changes${q}`, 'personName');
    beforeEach(() =>
      insertJobChanges(ctx.db, [
        jobChangeRecord({
          personName: 'Ada Lovelace',
          newRole: 'Co-Founder & CEO',
          companyName: 'Analytical Engines',
          companyLinkedinUrl: 'https://www.linkedin.com/company/analytical-engines',
          personLinkedinUrl: 'https://www.linkedin.com/in/ada-lovelace',
          previousCompanyName: 'Babbage & Co',
        }),
        jobChangeRecord({ personName: 'Grace Hopper', newRole: 'VP Engineering', companyName: 'Navy Systems' }),
        jobChangeRecord({ personName: 'Alan Turing', newRole: 'Head of Engineering', companyName: 'Bletchley Labs' }),
        jobChangeRecord({ personName: 'Katherine Johnson', newRole: 'Sr. Product Manager', companyName: 'Orbit' }),
        jobChangeRecord({ personName: 'Don Draper', newRole: 'VP of Marketing', companyName: 'Sterling Cooper' }),
        jobChangeRecord({ personName: 'Nobody', newRole: 'Board Observer', companyName: 'Quiet Co' }),
      ]),
    );
    it('positions: OR within the list', async () => {
      assert.deepEqual(await jc('?positions=ceo'), ['Ada Lovelace']);
      assert.deepEqual(await jc('?positions=vp%20of%20engineering,head%20of%20engineering'), ['Alan Turing', 'Grace Hopper']);
      assert.deepEqual(await jc('?positions=product%20manager'), ['Katherine Johnson']);
    });
    it('departments and seniorities, AND across lists', async () => {
      assert.deepEqual(await jc('?departments=engineering'), ['Alan Turing', 'Grace Hopper']);
      assert.deepEqual(await jc('?seniorities=vp'), ['Don Draper', 'Grace Hopper']);
      assert.deepEqual(await jc('?seniorities=vp,head&departments=engineering'), ['Alan Turing', 'Grace Hopper']);
      assert.deepEqual(await jc('?seniorities=vp&departments=marketing'), ['Don Draper']);
      assert.deepEqual(await jc('?seniorities=head&departments=marketing'), []);
    });
    it('search: person, company, role and previous company; every word must match', async () => {
      assert.deepEqual(await jc('?search=ada'), ['Ada Lovelace']);
      assert.deepEqual(await jc('?search=BABBAGE'), ['Ada Lovelace']);
      assert.deepEqual(await jc('?search=engines%20ceo'), ['Ada Lovelace']);
      assert.deepEqual(await jc('?search=engineering'), ['Alan Turing', 'Grace Hopper']);
      assert.deepEqual(await jc('?search=engineering%20navy'), ['Grace Hopper']);
    });
    it('LinkedIn URLs match exactly after normalising scheme, www., trailing slash and case', async () => {
      assert.deepEqual(await jc('?personLinkedinUrl=linkedin.com/in/ADA-LOVELACE/'), ['Ada Lovelace']);
      assert.deepEqual(await jc('?companyLinkedinUrl=http://linkedin.com/company/analytical-engines'), ['Ada Lovelace']);
      assert.deepEqual(await jc('?companyLinkedinUrl=https://www.linkedin.com/company/analytical'), []);
    });
    it('serves exactly the published record, newest occurredAt first', async () => {
      await insertJobChanges(ctx.db, [jobChangeRecord({ personName: 'Newest', occurredAt: '2026-01-01T00:00:00.000Z' })]);
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/v2/signals/job-changes',
        headers: { authorization: `Bearer ${key}` },
      });
      const first = res.json().data[0];
      assert.equal(first.personName, 'Newest');
      assert.deepEqual(Object.keys(first).sort(), [
        'companyLinkedinUrl',
        'companyName',
        'discoveredAt',
        'newRole',
        'occurredAt',
        'personLinkedinUrl',
        'personName',
        'previousCompanyName',
        'signalId',
        'signalType',
      ]);
    });
  });

  describe('acquisitions', () => {
    const acq = (q: string) => names(`/api/v2/signals/acquisitions${q}`, 'companyName');
    beforeEach(() =>
      insertAcquisitions(ctx.db, [
        acquisitionRecord({
          companyName: 'TechVentures',
          industry: 'Software Development',
          category: 'Technology',
          country: 'United States',
          lastUpdated: '2025-03-01T00:00:00.000Z',
        }),
        acquisitionRecord({
          companyName: 'HealthTech Solutions',
          industry: 'Healthcare Technology',
          category: 'Healthcare',
          country: 'United Kingdom',
          lastUpdated: '2025-03-31T23:59:59.000Z',
        }),
        acquisitionRecord({
          companyName: 'Old Mill',
          industry: 'Manufacturing',
          category: 'Industrial',
          country: 'Germany',
          lastUpdated: '2025-04-01T00:00:00.000Z',
        }),
      ]),
    );
    it('dateFrom / dateTo: inclusive on the signal date', async () => {
      assert.deepEqual(await acq('?dateFrom=2025-03-01&dateTo=2025-03-31'), ['HealthTech Solutions', 'TechVentures']);
      assert.deepEqual(await acq('?dateFrom=2025-03-31'), ['HealthTech Solutions', 'Old Mill']);
      assert.deepEqual(await acq('?dateTo=2025-03-01'), ['TechVentures']);
    });
    it('countries and categories (case-insensitive)', async () => {
      assert.deepEqual(await acq('?countries=gb,DE'), ['HealthTech Solutions', 'Old Mill']);
      assert.deepEqual(await acq('?categories=technology,HEALTHCARE'), ['HealthTech Solutions', 'TechVentures']);
    });
    it('search: company name or industry', async () => {
      // Words match from their start: "tech" starts TechVentures and HealthTech's "Technology"; "ealth" starts nothing.
      assert.deepEqual(await acq('?search=tech'), ['HealthTech Solutions', 'TechVentures']);
      assert.deepEqual(await acq('?search=ealth'), []);
      assert.deepEqual(await acq('?search=manufacturing'), ['Old Mill']);
      assert.deepEqual(await acq('?search=healthcare%20solutions'), ['HealthTech Solutions']);
    });
  });
});
