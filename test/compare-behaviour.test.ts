// The comparison script's own pieces: the plan is the same list for the same seed, and answers
// are masked only where a run puts values of its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalise, render, ServerState } from '../scripts/compare-behaviour/compare.js';
import { mainPlan, type Answer, type Discovered, type Step } from '../scripts/compare-behaviour/plan.js';

const found: Discovered = {
  websites: ['lumly.com', 'osiqlabs.com'],
  linkedinUrls: ['linkedin.com/company/champlin-media'],
  companyNames: ['Terramesa Labs'],
  acquirers: ['Blick'],
  personLinkedinUrls: ['linkedin.com/in/someone'],
  companyLinkedinUrls: ['linkedin.com/company/acme'],
  acquisitionDomains: ['acme.io'],
  acquisitionLinkedinUrls: ['linkedin.com/company/acme'],
  investorNames: ['Far Ridge Ventures'],
  fundingRecord: { company_name: 'Terramesa' },
  dealRecord: { company_name: 'Terramesa' },
  investorRecord: { name: 'Far Ridge Ventures' },
  jobChangeRecord: { personName: 'Someone' },
  acquisitionRecord: { companyName: 'Acme' },
};
const today = new Date('2026-07-15T00:00:00Z');
const plan = (seed: number) => mainPlan({ seed, size: 1000, today, found, receiver: 'http://127.0.0.1:4499/hook' });
const requests = (steps: Step[]) => JSON.stringify(steps.map((step) => step.request));

test('the same seed gives the same requests, another seed others, about as many as asked', () => {
  assert.equal(requests(plan(7)), requests(plan(7)));
  assert.notEqual(requests(plan(7)), requests(plan(8)));
  const steps = plan(7);
  assert.ok(steps.length >= 980 && steps.length <= 1010, `${steps.length} steps`);
  for (const family of [
    '/api/v1/funding',
    '/api/v1/m-a',
    '/api/v2/signals/',
    '/api/v2/changes',
    '/api/v2/webhooks',
    '/admin/ingest/',
  ]) {
    assert.ok(
      steps.some((step) => step.request.path.startsWith(family)),
      `no request to ${family}`,
    );
  }
});

const answer = (body: unknown, headers: Record<string, string> = {}): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', date: 'Wed, 15 Jul 2026 10:00:00 GMT', ...headers },
  body: Buffer.from(JSON.stringify(body)),
});

test('per-run values are masked; everything else, the data set dates included, is kept', () => {
  const startedAt = Date.parse('2026-07-15T09:00:00Z');
  const base = new ServerState('base', 'http://127.0.0.1:1');
  const head = new ServerState('head', 'http://127.0.0.1:2');
  base.alias('11111111-1111-4111-8111-111111111111', 'hook.id');
  head.alias('22222222-2222-4222-8222-222222222222', 'hook.id');
  const step: Step = { request: { method: 'GET', path: '/' } };
  const shown = (state: ServerState, id: string, requestId: string) =>
    render(
      normalise(
        answer(
          { id, created_at: '2026-07-15T09:30:00.123Z', date_seen: '2026-07-14T08:00:00Z', latency_ms: requestId.length },
          { 'x-request-id': requestId, 'x-ratelimit-reset': requestId },
        ),
        step,
        state,
        startedAt,
      ),
    );
  const baseShown = shown(base, '11111111-1111-4111-8111-111111111111', 'a');
  assert.equal(baseShown, shown(head, '22222222-2222-4222-8222-222222222222', 'bb'));
  assert.match(baseShown, /"id": "<hook.id>"/);
  assert.match(baseShown, /"created_at": "<now>"/);
  assert.match(baseShown, /"date_seen": "2026-07-14T08:00:00Z"/);
  assert.doesNotMatch(baseShown, /x-request-id|^date:/m);
  // A value that differs and is no per-run value is a difference.
  assert.notEqual(shown(base, 'other', 'a'), shown(head, 'another', 'a'));
});
