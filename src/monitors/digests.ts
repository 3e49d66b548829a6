// Email digests: what monitors without a webhook are sent (the published service always mails). A
// monitor's events since its last digest go out in one message, at most every MONITOR_DIGEST_MINUTES,
// with a link that unsubscribes it (and the List-Unsubscribe headers mail clients show as a button).
// Every instance may run the mailer: a monitor being mailed is locked, the others skip it.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '../platform/db/index.js';
import type { MailSender } from '../platform/mail/index.js';
import { escapeHtml } from '../platform/web/index.js';
import { dueDigests, markMailed, pendingMail } from './digest-queries.js';
import type { MonitorSignal } from './pass.js';

/** Events one digest lists, at most; more wait for the next one. */
const EVENTS_PER_DIGEST = 200;
/** Monitors one run mails, at most. */
const MONITORS_PER_RUN = 20;

const LABELS: Record<string, string> = {
  funding_round: 'Funding round',
  acquisition: 'Acquisition',
  job_change: 'Job change',
  hiring: 'Hiring',
};

/** The token of a monitor's unsubscribe link: an HMAC of its id with the server's secret. */
export function unsubscribeToken(secret: string, monitorId: string): string {
  return createHmac('sha256', secret).update(`monitor-unsubscribe:${monitorId}`).digest('base64url');
}

export function validUnsubscribeToken(secret: string, monitorId: string, token: string): boolean {
  const expected = Buffer.from(unsubscribeToken(secret, monitorId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** One line of a digest: what happened, to whom, when. */
function describe(signal: MonitorSignal): string {
  const record = (signal.signal ?? {}) as Record<string, unknown>;
  const text = (...names: string[]) => names.map((n) => record[n]).find((v): v is string => typeof v === 'string' && v !== '');
  const who = text('companyName', 'company_name', 'personName', 'title') ?? 'a watched company';
  const what =
    signal.signal_type === 'job_change'
      ? `${text('personName') ?? 'someone'} → ${text('newRole') ?? 'a new role'} at ${text('companyName') ?? who}`
      : signal.signal_type === 'hiring'
        ? `${who} is hiring: ${text('title', 'position') ?? 'a new role'}`
        : signal.signal_type === 'acquisition'
          ? `${who}${text('acquired_by') ? ` acquired by ${text('acquired_by')}` : ''}`
          : `${who}${text('roundType', 'round_type') ? ` raised a ${text('roundType', 'round_type')} round` : ' raised a round'}`;
  const when = text('announcedDate', 'occurredAt', 'date_seen', 'datePosted', 'lastUpdated');
  return `${LABELS[signal.signal_type] ?? signal.signal_type}: ${what}${when ? ` (${when.slice(0, 10)})` : ''}${signal.backfill ? ' [earlier]' : ''}`;
}

export interface DigestOptions {
  /** A monitor's digests go out at most this often. */
  minutes: number;
  /** The server's public address (links in the message). */
  publicUrl: string;
  /** What unsubscribe links are signed with. */
  secret: string;
}

export class MonitorDigests {
  constructor(
    private readonly db: Database,
    private readonly mail: MailSender,
    private readonly options: DigestOptions,
  ) {}

  /** Mails the monitors due a digest; returns how many were mailed. */
  async runOnce(): Promise<number> {
    return this.db.transaction(async (tx) => {
      const due = await dueDigests(tx, this.options.minutes, MONITORS_PER_RUN);
      for (const monitor of due) {
        const events = await pendingMail(tx, monitor.id, EVENTS_PER_DIGEST);
        const lines = events.map((event) => describe((JSON.parse(event.body) as { data: MonitorSignal }).data));
        const unsubscribe = `${this.options.publicUrl}/monitors/unsubscribe?monitor=${monitor.id}&token=${unsubscribeToken(this.options.secret, monitor.id)}`;
        const subject = `${lines.length} new signal${lines.length === 1 ? '' : 's'} for "${monitor.name}"`;
        // The server accepted the message before the events are marked: a failure here rolls back
        // and the same events go out in the next run.
        await this.mail.send({
          to: monitor.email,
          subject,
          text:
            `${subject}\n\n${lines.map((line) => `- ${line}`).join('\n')}\n\n` +
            `Manage your monitors: ${this.options.publicUrl}/account\n` +
            `Stop these emails for this monitor: ${unsubscribe}\n`,
          html:
            `<p>${escapeHtml(subject)}</p><ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` +
            `<p><a href="${escapeHtml(`${this.options.publicUrl}/account`)}">Manage your monitors</a> · ` +
            `<a href="${escapeHtml(unsubscribe)}">Unsubscribe from this monitor's emails</a></p>`,
          headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        });
        await markMailed(
          tx,
          monitor.id,
          events.map((event) => event.event_id),
        );
      }
      return due.length;
    });
  }
}

/** Runs the digests every `pollMs` until stopped. */
export class DigestTimer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly digests: MonitorDigests,
    private readonly pollMs: number,
    private readonly log: { error(message: string): void },
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.digests
        .runOnce()
        .catch((error: unknown) => this.log.error(`monitors: mailing digests failed: ${(error as Error).message}`))
        .finally(() => (this.running = null));
    }, this.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
