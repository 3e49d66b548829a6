// Email digests of monitors without a webhook, through a real SMTP server the test starts
// (smtp-server): one message per monitor with its signals, at most every MONITOR_DIGEST_MINUTES,
// to the account's address, with an unsubscribe link (and List-Unsubscribe headers) that stops
// them after a confirmation.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { companyRecord, fundingRecord } from '../fixtures.js';
import { describeEach, makeKey, startApp, type TestContext } from '../helpers.js';
import { ADMIN_TOKEN, importRecords } from '../ingest/support.js';
import { eventually } from '../webhooks/support.js';

describeEach('monitor email digests', (backend) => {
  let ctx: TestContext;
  let smtp: SMTPServer;
  const inbox: { to: string[]; mail: ParsedMail }[] = [];

  const importKind = (kind: string, records: object[]) => importRecords(ctx.app, kind, records);
  const waitUntil = (what: string, check: () => boolean | Promise<boolean>) => eventually(async () => check(), 10_000, what);
  const round = (name: string, website: string) =>
    fundingRecord({
      company_name: name,
      round_type: 'series a',
      date_seen: new Date().toISOString(),
      company_info: { ...fundingRecord().company_info, name, website },
      contact_info: [],
    });

  before(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((mail) => {
            inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    ctx = await startApp(backend, {
      ADMIN_TOKEN,
      WEBHOOK_DELIVERY: 'true',
      WEBHOOK_POLL_MS: '50',
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'alerts@dealsignal.test',
      MONITOR_MAIL_POLL_MS: '100',
      MONITOR_DIGEST_MINUTES: '60',
      PUBLIC_URL: 'http://dealsignal.test',
    });
  });
  after(async () => {
    await ctx.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it("mails one digest of a monitor's signals to the account, no more often than set, with a working unsubscribe link", async () => {
    const email = `owner-${backend.name}-${Date.now()}@example.com`;
    const { key } = await makeKey(ctx.db, 'pro', email);
    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => {
      const res = await ctx.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      assert.ok(res.statusCode < 300, res.body);
      return res.json() as { data: { id: string; email_alerts: boolean } };
    };
    await importKind('companies', [
      companyRecord({ name: 'Mailco', website: 'https://mailco.example', linkedinUrl: null }),
      companyRecord({ name: 'Postco', website: 'https://postco.example', linkedinUrl: null }),
    ]);
    const monitor = (await call('POST', '/api/v2/monitors', { name: 'Mail me', signal_types: ['funding_round'] })).data;
    assert.equal(monitor.email_alerts, true);
    await call('POST', `/api/v2/monitors/${monitor.id}/targets`, { targets: ['mailco.example', 'postco.example'] });
    const mine = () => inbox.filter((m) => m.to.includes(email));

    await importKind('funding', [round('Mailco', 'https://mailco.example'), round('Postco', 'https://postco.example')]);
    await waitUntil('the digest', () => mine().length >= 1);
    await delay(500);
    assert.equal(mine().length, 1, 'both signals in one message');
    const { mail } = mine()[0]!;
    assert.equal(mail.subject, '2 new signals for "Mail me"');
    assert.equal(mail.from?.value[0]?.address, 'alerts@dealsignal.test');
    assert.match(mail.text ?? '', /Funding round: Mailco raised a Series A round/);
    assert.match(mail.text ?? '', /Funding round: Postco raised a Series A round/);
    assert.match(String(mail.html), /<li>Funding round: Mailco/);
    const link = /Stop these emails for this monitor: (\S+)/.exec(mail.text ?? '')?.[1];
    assert.ok(link?.startsWith('http://dealsignal.test/monitors/unsubscribe?'), link);
    const header = (name: string) => mail.headerLines.find((line) => line.key === name)?.line.replace(/\r\n\s+/g, ' ');
    assert.equal(header('list-unsubscribe-post'), 'List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    assert.equal(header('list-unsubscribe'), `List-Unsubscribe: <${link}>`);

    // Another signal within the digest interval waits for the next digest.
    await importKind('funding', [round('Mailco', 'https://mailco.example')]);
    await delay(800);
    assert.equal(mine().length, 1);

    // The link: opening it asks, a forged token is refused, confirming stops the emails.
    const path = link!.slice('http://dealsignal.test'.length);
    const asked = await ctx.app.inject({ url: path });
    assert.equal(asked.statusCode, 200);
    assert.match(asked.body, /Stop these emails\?/);
    const forged = await ctx.app.inject({ method: 'POST', url: path.replace(/token=[^&]+/, 'token=forged') });
    assert.equal(forged.statusCode, 400);
    assert.equal((await call('GET', `/api/v2/monitors/${monitor.id}`)).data.email_alerts, true);
    const confirmed = await ctx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal((await call('GET', `/api/v2/monitors/${monitor.id}`)).data.email_alerts, false);
  });
});
