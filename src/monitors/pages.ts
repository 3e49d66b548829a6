// The profile page's monitors card: the create form, and the account's monitors with their forms
// (rename, pause or resume, delete, add targets pasted or from a CSV file), targets and last
// deliveries. The card is the page's; the list is rendered here too, as a fragment its browser
// script (assets/monitors.js) asks the page's own routes (portal-routes.ts) for, and asks again after
// every change, so the card never needs the profile page to load monitors.
import type { Assets } from '../platform/web/index.js';
import { formatDate, formatDateTime, formatNumber, isoTime, plural } from '../platform/web/index.js';
import { html, type SafeHtml } from '../platform/web/index.js';
import type { WebhookService } from '../webhooks/index.js';
import { MAX_TARGETS_PER_CALL, SIGNAL_TYPES, type SignalType, type Target } from './schemas.js';
import type { MonitorView } from './service.js';

type Delivery = Awaited<ReturnType<WebhookService['deliveries']>>['data'][number];

/** Targets a monitor shows (the newest); the API lists the others. */
export const TARGETS_SHOWN = 100;
/** Deliveries a monitor shows (the newest); its webhook's log in the API has the others. */
export const DELIVERIES_SHOWN = 5;

const SIGNAL_LABELS: Record<SignalType, { label: string; hint: string }> = {
  funding_round: { label: 'Funding rounds', hint: 'Rounds the company raised' },
  acquisition: { label: 'Acquisitions', hint: 'M&A deals it is in, and signals it may be acquired' },
  job_change: { label: 'Job changes', hint: 'People who joined or left it' },
  hiring: { label: 'Hiring', hint: 'Its new job postings' },
};

const signalLabel = (type: string) => SIGNAL_LABELS[type as SignalType]?.label ?? type.replaceAll('_', ' ');

/** A monitor with what its item shows: its newest targets and, with a webhook, its last deliveries. */
export interface MonitorEntry {
  monitor: MonitorView;
  targets: readonly Target[];
  /** Null for a monitor without a webhook (an email digest has no delivery log). */
  deliveries: readonly Delivery[] | null;
}

const errorBox = () => html`<div class="enrich-error" role="alert" data-monitor-error hidden></div>`;

function destination(monitor: MonitorView): SafeHtml {
  if (monitor.webhook) return html`<code class="webhook-endpoint">${monitor.webhook.endpoint_url ?? ''}</code>`;
  return html`${monitor.email_alerts ? 'Email digest' : 'Email digest (unsubscribed)'}`;
}

function targetStatus(target: Target): SafeHtml {
  return target.status === 'resolved'
    ? html`<span class="pill pill--ok">Resolved</span>`
    : html`<span class="pill pill--warn" title="Resolved as soon as an import brings a company that matches it">Pending</span>`;
}

function targetsTable(entry: MonitorEntry): SafeHtml {
  const { monitor, targets } = entry;
  if (targets.length === 0) return html`<p class="muted">No targets yet: add some above.</p>`;
  const more =
    monitor.stats.targets > targets.length
      ? html`<p class="muted">
          Showing the newest ${formatNumber(targets.length)} of ${formatNumber(monitor.stats.targets)}. The API lists them all
          (<code>GET /api/v2/monitors/${monitor.id}/targets</code>).
        </p>`
      : '';
  return html`<table class="data-table" data-monitor-targets>
      <thead>
        <tr>
          <th scope="col">Target</th>
          <th scope="col">Status</th>
          <th scope="col">Company</th>
          <th scope="col">Last signal</th>
        </tr>
      </thead>
      <tbody>
        ${targets.map(
          (target) =>
            html`<tr data-target="${target.value}">
              <td data-label="Target"><code>${target.value}</code></td>
              <td data-label="Status">${targetStatus(target)}</td>
              <td data-label="Company" data-target-company>${target.company?.name ?? html`<span class="muted">—</span>`}</td>
              <td data-label="Last signal" data-target-signal>
                ${
                  target.last_signal_type && target.last_signal_at
                    ? html`${signalLabel(target.last_signal_type)},
                        <time datetime="${isoTime(target.last_signal_at)}" title="${formatDateTime(target.last_signal_at)}"
                          >${formatDate(target.last_signal_at)}</time
                        >`
                    : html`<span class="muted">—</span>`
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${more}`;
}

function deliveryStatus(delivery: Delivery): SafeHtml {
  switch (delivery.status) {
    case 'done':
      return html`<span class="pill pill--ok">Delivered</span>`;
    case 'failed':
      return html`<span class="pill pill--bad">Failed</span>`;
    default:
      return html`<span class="pill pill--warn">${delivery.attempt_count > 0 ? 'Retrying' : 'Pending'}</span>`;
  }
}

function deliveriesTable(entry: MonitorEntry): SafeHtml | '' {
  const { monitor, deliveries } = entry;
  if (!deliveries || !monitor.webhook) return '';
  const log = html`<a href="/account/webhooks/${monitor.webhook.id}">its webhook's page</a>`;
  const body = deliveries.length
    ? html`<table class="data-table deliveries-table" data-monitor-deliveries>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Time</th>
          </tr>
        </thead>
        <tbody>
          ${deliveries.map(
            (delivery) =>
              html`<tr data-delivery-id="${delivery.id}">
                <td data-label="Event"><span class="tag">${delivery.event_type}</span></td>
                <td data-label="Status">${deliveryStatus(delivery)}</td>
                <td data-label="Time" class="cell-time">
                  <time datetime="${isoTime(delivery.delivered_at ?? delivery.failed_at ?? delivery.created_at)}"
                    >${formatDateTime(delivery.delivered_at ?? delivery.failed_at ?? delivery.created_at)}</time
                  >
                </td>
              </tr>`,
          )}
        </tbody>
      </table>`
    : html`<p class="muted">Nothing sent yet: each new signal about a resolved target is.</p>`;
  return html`<details class="data-details" data-monitor-details="deliveries">
    <summary>Last deliveries</summary>
    ${body}
    <p class="muted">The full log, redeliveries and the signing secret are on ${log}.</p>
  </details>`;
}

function monitorItem(entry: MonitorEntry): SafeHtml {
  const { monitor } = entry;
  const { id, name, stats } = monitor;
  const prefix = `monitor-${id}`;
  const toggle = monitor.active ? 'pause' : 'resume';
  return html`<li class="webhook-item monitor-item" data-monitor-id="${id}" aria-labelledby="${prefix}-name">
    <div class="webhook-item-head">
      <h3 class="webhook-url-title" id="${prefix}-name" data-monitor-name>${name}</h3>
      ${
        monitor.active
          ? html`<span class="pill pill--ok" data-monitor-state>Active</span>`
          : html`<span class="pill pill--off" data-monitor-state>Paused</span>`
      }
    </div>
    <ul class="tag-list" aria-label="Signal types">
      ${monitor.signal_types.map((type) => html`<li><span class="tag">${signalLabel(type)}</span></li>`)}
    </ul>
    <dl class="webhook-stats">
      <div>
        <dt>Sent to</dt>
        <dd data-monitor-destination>${destination(monitor)}</dd>
      </div>
      <div>
        <dt>Targets</dt>
        <dd data-monitor-count>${formatNumber(stats.resolved_targets)} of ${formatNumber(stats.targets)} resolved</dd>
      </div>
      <div>
        <dt>Signals, 30 days</dt>
        <dd>${formatNumber(stats.signals_30d)}</dd>
      </div>
    </dl>
    ${errorBox()}
    <div class="webhook-actions">
      <form class="create-key" data-monitor-action="rename">
        <label class="sr-only" for="${prefix}-rename">New name for ${name}</label>
        <input id="${prefix}-rename" name="name" type="text" maxlength="255" required value="${name}" autocomplete="off" />
        <button class="btn btn-secondary btn-sm" type="submit">Rename</button>
      </form>
      <form data-monitor-action="${toggle}">
        <button class="btn btn-secondary btn-sm" type="submit" aria-label="${monitor.active ? 'Pause' : 'Resume'} ${name}">
          ${monitor.active ? 'Pause' : 'Resume'}
        </button>
      </form>
      <form data-monitor-action="delete">
        <button class="btn btn-danger-quiet btn-sm" type="submit" aria-label="Delete ${name}">Delete</button>
      </form>
    </div>
    <form class="form" data-monitor-action="targets" aria-label="Add targets to ${name}">
      <div class="field">
        <label for="${prefix}-entries">Add targets</label>
        <textarea
          id="${prefix}-entries"
          name="targets"
          rows="3"
          spellcheck="false"
          placeholder="acme.com&#10;linkedin.com/company/acme&#10;linkedin.com/in/jane-doe"
          aria-describedby="${prefix}-entries-hint"
        ></textarea>
        <p class="field-hint" id="${prefix}-entries-hint">
          One per line or comma separated: company domains or websites, LinkedIn company pages, LinkedIn profiles (the company the
          person works at).
        </p>
      </div>
      <div class="field">
        <label for="${prefix}-file">Or read them from a CSV file</label>
        <input id="${prefix}-file" type="file" accept=".csv,text/csv" data-monitor-file />
        <p class="field-hint">
          The column named domain, website, linkedin or linkedin_url, or else the first one. The file is read in your browser and
          its targets put above, to check before adding.
        </p>
      </div>
      <p role="status" data-monitor-outcome hidden></p>
      <div class="actions"><button class="btn btn-primary btn-sm" type="submit">Add targets</button></div>
    </form>
    <details class="data-details" data-monitor-details="targets">
      <summary>Targets (${formatNumber(stats.targets)})</summary>
      ${targetsTable(entry)}
    </details>
    ${deliveriesTable(entry)}
  </li>`;
}

/** The account's monitors, newest first: the fragment the card's script puts in its list. */
export function monitorList(entries: readonly MonitorEntry[]): SafeHtml {
  if (entries.length === 0) {
    return html`<div class="empty">
      <p class="empty-title">No monitors yet</p>
      <p>Create one below, then add the companies to watch: each new signal about them is sent to you.</p>
    </div>`;
  }
  return html`<p class="muted">${plural(entries.length, 'monitor')}</p>
    <ul class="webhook-list">
      ${entries.map(monitorItem)}
    </ul>`;
}

export function monitorsCard(csrfToken: string, assets: Pick<Assets, 'monitors'>): SafeHtml {
  return html`<section
    class="card"
    aria-labelledby="monitors-title"
    id="monitors"
    data-monitors
    data-csrf="${csrfToken}"
    data-max-targets="${MAX_TARGETS_PER_CALL}"
  >
    <header class="card-head">
      <div>
        <h2 id="monitors-title">Monitors</h2>
        <p class="card-sub">
          Watch lists of companies: each new signal of the chosen types about one of them is sent to the monitor's webhook as a
          signed POST or, without one, mailed to you in a digest. Managing monitors is free; each delivery costs 1 credit, as
          every webhook delivery does.
        </p>
      </div>
    </header>
    <noscript><p class="muted">Managing monitors here needs JavaScript; the Monitoring API does it all too.</p></noscript>
    <div role="status" data-monitors-notice hidden></div>
    <div data-monitor-secret hidden>
      <section class="callout" aria-labelledby="monitor-secret-title">
        <div class="callout-icon" aria-hidden="true">✓</div>
        <div class="callout-body">
          <h2 id="monitor-secret-title">Your monitor's webhook signing secret</h2>
          <p>Copy it now and store it with your receiver: <strong>it will not be shown again</strong>.</p>
          <div class="key-reveal">
            <input
              class="key-input"
              type="text"
              readonly
              aria-label="Webhook signing secret"
              spellcheck="false"
              autocomplete="off"
              data-select-on-focus
              data-monitor-secret-value
            />
          </div>
        </div>
      </section>
    </div>
    <div data-monitor-list aria-live="polite"><p class="muted" data-monitors-loading>Loading your monitors…</p></div>
    <form class="form webhook-form" id="new-monitor" data-monitor-action="create" aria-labelledby="new-monitor-title">
      <h3 id="new-monitor-title">Add a monitor</h3>
      <div class="field">
        <label for="new-monitor-name">Monitor name</label>
        <input
          id="new-monitor-name"
          name="name"
          type="text"
          maxlength="255"
          required
          placeholder="e.g. Target accounts Q3"
          autocomplete="off"
        />
      </div>
      <fieldset class="fieldset">
        <legend>Signal types</legend>
        <div class="check-grid">
          ${SIGNAL_TYPES.map(
            (type) =>
              html`<label class="check">
                <input type="checkbox" name="signal_types" value="${type}" />
                <span>${SIGNAL_LABELS[type].label}<small>${SIGNAL_LABELS[type].hint}</small></span>
              </label>`,
          )}
        </div>
      </fieldset>
      <div class="field">
        <label for="new-monitor-webhook">Webhook URL <span class="legend-note">optional</span></label>
        <input
          id="new-monitor-webhook"
          name="webhook_url"
          type="url"
          inputmode="url"
          maxlength="500"
          placeholder="https://example.com/webhooks/monitors"
          aria-describedby="new-monitor-webhook-hint"
          autocomplete="off"
          spellcheck="false"
        />
        <p class="field-hint" id="new-monitor-webhook-hint">
          Where each signal is sent as a signed POST. Leave it empty to get an email digest instead.
        </p>
      </div>
      ${errorBox()}
      <div class="actions"><button class="btn btn-primary" type="submit">Create monitor</button></div>
    </form>
    <script src="${assets.monitors.path}" defer></script>
  </section>`;
}
