// Webhooks on the account pages: the list and the create form of the profile page, a page per
// webhook (settings, actions, the delivery log, the edit form) and the confirmation pages of
// delete and secret rotation. Like the rest of the pages, everything works without JavaScript.
import { EVENT_TYPES, FILTER_KEYS } from './event-filters.js';
import type { DeliveryView, WebhookView } from './service.js';
import { formatDateTime, formatNumber, isoTime, relativeTime } from '../platform/web/index.js';
import { html, type SafeHtml } from '../platform/web/index.js';
import { alert, csrfInput, layout, type PageContext } from '../platform/web/index.js';

/** What a create or edit form holds, as typed (re-shown when the form is refused). */
export interface WebhookFormValues {
  endpointUrl: string;
  eventTypes: readonly string[];
  filters: Readonly<Record<string, string>>;
}

export type FilterKey = (typeof FILTER_KEYS)[number];

/** The form field of a filter key. */
export const filterField = (key: FilterKey) => `filter_${key}`;

const EVENT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'funding.created': 'A new funding round',
  'funding.updated': 'A funding round changed',
  'deal.created': 'A new M&A deal (v1)',
  'deal.updated': 'An M&A deal changed',
  'acquisition.created': 'A new acquisition signal',
  'acquisition.updated': 'An acquisition signal changed',
  'job_change.created': 'A new job change',
  'job_change.updated': 'A job change changed',
  'investor.created': 'A new investor',
  'investor.updated': 'An investor changed',
  'hiring.created': 'A new job posting',
  'hiring.updated': 'A job posting changed',
  'new_company.created': 'A new company',
  'company.updated': 'A company changed',
  'enrichment.completed': 'One of your enrichment jobs finished',
  'system.test': 'Test events (sent only when you ask for one)',
};

// Shown by data set, "created" before "updated", the test event last.
// (A new company is published as new_company.created; its update is ours, company.updated.)
const EVENT_ORDER = ['funding', 'deal', 'acquisition', 'job_change', 'hiring', 'investor', 'company', 'enrichment', 'system'];
const eventRank = (type: string) => {
  const [prefix = '', action = ''] = type.split('.');
  return EVENT_ORDER.indexOf(prefix.replace(/^new_/, '')) * 2 + (action === 'updated' ? 1 : 0);
};

/** The event types a form offers: every one. */
export const FORM_EVENT_TYPES: readonly string[] = [...EVENT_TYPES].sort((a, b) => eventRank(a) - eventRank(b));

interface FilterInput {
  key: FilterKey;
  label: string;
  hint: string;
  placeholder: string;
}

const MAIN_FILTERS: readonly FilterInput[] = [
  {
    key: 'countries',
    label: 'Countries',
    hint: 'ISO codes (US or USA) or English names, comma-separated. Funding, M&A deals, investors, acquisition signals.',
    placeholder: 'e.g. US,GB',
  },
  {
    key: 'categories',
    label: 'Categories',
    hint: 'Comma-separated. Funding, M&A deals, acquisition signals.',
    placeholder: 'e.g. fintech',
  },
  {
    key: 'search',
    label: 'Search',
    hint: 'Every word must start a word of the record. Investors, job changes, acquisition signals.',
    placeholder: 'e.g. cto',
  },
  {
    key: 'dateFrom',
    label: 'From date',
    hint: 'YYYY-MM-DD, inclusive. Funding, M&A deals, acquisition signals.',
    placeholder: 'YYYY-MM-DD',
  },
  {
    key: 'dateTo',
    label: 'To date',
    hint: 'YYYY-MM-DD, inclusive. Funding, M&A deals, acquisition signals.',
    placeholder: 'YYYY-MM-DD',
  },
];

const AMOUNT_FILTERS: readonly FilterInput[] = [
  { key: 'funding', label: 'Round types', hint: 'Comma-separated. Funding events.', placeholder: 'e.g. Seed,Series A' },
  { key: 'fundingAmount', label: 'Minimum round amount', hint: 'USD. Funding events.', placeholder: 'e.g. 1000000' },
  { key: 'acquisitionAmount', label: 'Minimum deal amount', hint: 'USD. M&A deal events.', placeholder: 'e.g. 50000000' },
];

const QUERY_FILTER: FilterInput = {
  key: 'query',
  label: 'List endpoint and query',
  hint:
    'A list endpoint and its query string, e.g. /api/v2/signals/job-changes?positions=cto: the webhook gets exactly ' +
    'the records that request would list. Use it on its own, without the filters above.',
  placeholder: 'e.g. /api/v2/signals/job-changes?positions=cto',
};

// ---------- small pieces ----------

function timeTag(value: string, text: string): SafeHtml {
  return html`<time datetime="${isoTime(value)}" title="${formatDateTime(value)}">${text}</time>`;
}

const relative = (value: string | null, now: Date, none = 'Never') =>
  value ? timeTag(value, relativeTime(value, now)) : html`<span class="muted">${none}</span>`;
const full = (value: string | null) => (value ? timeTag(value, formatDateTime(value)) : html`<span class="muted">—</span>`);

const pausedByService = (webhook: WebhookView) => !webhook.active && webhook.paused_reason !== null;

function webhookStatus(webhook: WebhookView): SafeHtml {
  if (webhook.active) return html`<span class="pill pill--ok">Active</span>`;
  if (pausedByService(webhook)) return html`<span class="pill pill--bad">Paused after failures</span>`;
  return html`<span class="pill pill--off">Paused</span>`;
}

function eventTags(types: readonly string[]): SafeHtml {
  const sorted = [...types].sort((a, b) => eventRank(a) - eventRank(b));
  return html`<ul class="tag-list" aria-label="Event types">
    ${sorted.map((type) => html`<li><span class="tag">${type}</span></li>`)}
  </ul>`;
}

function filterList(filters: Readonly<Record<string, string>>): SafeHtml {
  const entries = Object.entries(filters);
  if (entries.length === 0) return html`<p class="muted webhook-filters">No filters: every event of these types.</p>`;
  return html`<ul class="filter-list" aria-label="Filters">
    ${entries.map(([key, value]) => html`<li><code>${key}=${value}</code></li>`)}
  </ul>`;
}

/** The prominent notice of a webhook the service paused, saying why and what to do. */
function pausedBanner(webhook: WebhookView, action: SafeHtml | string = ''): SafeHtml {
  return html`<div class="paused-banner" data-paused-reason>
    <div class="paused-icon" aria-hidden="true">!</div>
    <div class="paused-body">
      <p class="paused-title">Deliveries stopped: dealsignal paused this webhook</p>
      <p class="paused-reason">${webhook.paused_reason}</p>
      ${action}
    </div>
  </div>`;
}

function statsList(webhook: WebhookView, now: Date): SafeHtml {
  const { stats } = webhook;
  return html`<dl class="webhook-stats">
    <div>
      <dt>Pending</dt>
      <dd data-stat="pending">${formatNumber(webhook.pending_deliveries)}</dd>
    </div>
    <div>
      <dt>Delivered</dt>
      <dd data-stat="successes">${formatNumber(stats.successful_deliveries)}</dd>
    </div>
    <div>
      <dt>Failed</dt>
      <dd data-stat="failures">${formatNumber(stats.failed_deliveries)}</dd>
    </div>
    <div>
      <dt>Failures in a row</dt>
      <dd data-stat="consecutive-failures" class="${stats.consecutive_failures > 0 ? 'stat-bad' : ''}">
        ${formatNumber(stats.consecutive_failures)}
      </dd>
    </div>
    <div>
      <dt>Last success</dt>
      <dd data-stat="last-success">${relative(stats.last_success_at, now)}</dd>
    </div>
    <div>
      <dt>Last failure</dt>
      <dd data-stat="last-failure">${relative(stats.last_failure_at, now)}</dd>
    </div>
  </dl>`;
}

// ---------- the form (create and edit) ----------

/**
 * A refused form's message, and the field it is about (a field of webhookFields: 'url',
 * 'event_types' or a filter key), when the message names one.
 */
export interface FieldProblem {
  message: string;
  field: string | null;
}

/** The form field a refusal is about: the error's `param` when it has one, else the field its message starts with. */
export function webhookFieldOf(error: { message: string; param?: string }): string | null {
  const named = error.param ?? /^(endpoint_url|event_types|filters\.[A-Za-z]+)\b/.exec(error.message)?.[1];
  if (!named) return null;
  if (named === 'endpoint_url') return 'url';
  if (named === 'event_types') return 'event_types';
  const key = named.startsWith('filters.') ? named.slice('filters.'.length) : named;
  return (FILTER_KEYS as readonly string[]).includes(key) ? key : null;
}

/** The id of a form's field, for the error summary's link. */
export const fieldId = (idPrefix: string, field: string) => `${idPrefix}-${field === 'event_types' ? 'types' : field}`;

/** The attributes of an input a refusal is about: marked invalid, described by the error, focused. */
const invalidAttributes = () => html` aria-invalid="true" autofocus`;

const fieldError = (id: string, problem: FieldProblem) => html`<p class="field-error" id="${id}-error">${problem.message}</p>`;

function textField(idPrefix: string, input: FilterInput, value: string | undefined, problem: FieldProblem | null): SafeHtml {
  const id = `${idPrefix}-${input.key}`;
  const invalid = problem?.field === input.key;
  return html`<div class="field${invalid ? ' field--invalid' : ''}">
    <label for="${id}">${input.label}</label>
    <input
      id="${id}"
      name="${filterField(input.key)}"
      type="text"
      maxlength="1000"
      placeholder="${input.placeholder}"
      value="${value ?? ''}"
      aria-describedby="${id}-hint${invalid ? ` ${id}-error` : ''}"
      autocomplete="off"
      ${invalid ? invalidAttributes() : ''}
    />
    <p class="field-hint" id="${id}-hint">${input.hint}</p>
    ${invalid ? fieldError(id, problem) : ''}
  </div>`;
}

function webhookFields(idPrefix: string, values: WebhookFormValues, problem: FieldProblem | null = null): SafeHtml {
  const checked = new Set(values.eventTypes);
  // A type set through the API that the form does not offer stays listed, so saving keeps it.
  const offered = [...FORM_EVENT_TYPES, ...values.eventTypes.filter((type) => !FORM_EVENT_TYPES.includes(type))];
  const amountsOpen = AMOUNT_FILTERS.some((input) => values.filters[input.key] !== undefined || problem?.field === input.key);
  const urlInvalid = problem?.field === 'url';
  const typesInvalid = problem?.field === 'event_types';
  const typesId = fieldId(idPrefix, 'event_types');
  return html`<div class="field${urlInvalid ? ' field--invalid' : ''}">
      <label for="${idPrefix}-url">Endpoint URL</label>
      <input
        id="${idPrefix}-url"
        name="endpoint_url"
        type="url"
        inputmode="url"
        maxlength="500"
        required
        placeholder="https://example.com/webhooks/dealsignal"
        value="${values.endpointUrl}"
        aria-describedby="${idPrefix}-url-hint${urlInvalid ? ` ${idPrefix}-url-error` : ''}"
        autocomplete="off"
        spellcheck="false"
        ${urlInvalid ? invalidAttributes() : ''}
      />
      <p class="field-hint" id="${idPrefix}-url-hint">An http or https URL; every event arrives there as a signed POST.</p>
      ${urlInvalid ? fieldError(`${idPrefix}-url`, problem) : ''}
    </div>
    <fieldset
      class="fieldset${typesInvalid ? ' field--invalid' : ''}"
      ${typesInvalid ? html`aria-describedby="${typesId}-error"` : ''}
    >
      <legend>Event types</legend>
      ${typesInvalid ? fieldError(typesId, problem) : ''}
      <div class="check-grid">
        ${offered.map(
          (type, i) =>
            html`<label class="check">
              <input
                ${i === 0 ? html`id="${typesId}"` : ''}
                type="checkbox"
                name="event_types"
                value="${type}"
                ${checked.has(type) ? html`checked` : ''}
                ${i === 0 && typesInvalid ? html`autofocus` : ''}
              />
              <span
                ><code>${type}</code><small>${EVENT_DESCRIPTIONS[type] ?? 'Accepted; never sent by this service'}</small></span
              >
            </label>`,
        )}
      </div>
    </fieldset>
    <fieldset class="fieldset">
      <legend>Filters <span class="legend-note">optional; empty fields are left out</span></legend>
      <div class="filter-grid">
        ${MAIN_FILTERS.map((input) => textField(idPrefix, input, values.filters[input.key], problem))}
      </div>
      <details class="more-filters" ${amountsOpen ? html`open` : ''}>
        <summary>Funding and M&amp;A amounts</summary>
        <div class="filter-grid">
          ${AMOUNT_FILTERS.map((input) => textField(idPrefix, input, values.filters[input.key], problem))}
        </div>
      </details>
      ${textField(idPrefix, QUERY_FILTER, values.filters.query, problem)}
    </fieldset>`;
}

/**
 * A refused form's error at the top of the page, where the user is looking after the post, with a
 * link to the field (next to which it is shown again, focused) or to the form.
 */
export function formProblemSummary(idPrefix: string, problem: FieldProblem): SafeHtml {
  const target = problem.field ? fieldId(idPrefix, problem.field) : idPrefix;
  return alert('error', html`${problem.message}<a class="alert-link" href="#${target}">Go to the form</a>`);
}

// ---------- the profile page's section ----------

/**
 * The most webhooks the profile page lists (the newest): with every field bounded, the page stays
 * small whatever WEBHOOK_MAX_PER_ACCOUNT allows; the others are listed by the API and keep their pages.
 */
export const WEBHOOKS_ON_PROFILE = 20;

export interface WebhooksSectionView {
  /** The newest webhooks; one more than WEBHOOKS_ON_PROFILE says there are more. */
  webhooks: readonly WebhookView[];
  csrfToken: string;
  now: Date;
  /** The create form as typed, when it was refused. */
  form?: WebhookFormValues | null;
  problem?: FieldProblem | null;
}

const EMPTY_FORM: WebhookFormValues = { endpointUrl: '', eventTypes: [], filters: {} };

function webhookItem(webhook: WebhookView, now: Date): SafeHtml {
  return html`<li class="webhook-item" data-webhook-id="${webhook.id}">
    <div class="webhook-item-head">
      <a class="webhook-url" href="/account/webhooks/${webhook.id}">${webhook.endpoint_url}</a>
      ${webhookStatus(webhook)}
    </div>
    ${pausedByService(webhook) ? pausedBanner(webhook) : ''} ${eventTags(webhook.event_types)} ${filterList(webhook.filters)}
    ${statsList(webhook, now)}
  </li>`;
}

export function webhooksCard(view: WebhooksSectionView): SafeHtml {
  const webhooks = view.webhooks.slice(0, WEBHOOKS_ON_PROFILE);
  const more =
    view.webhooks.length > WEBHOOKS_ON_PROFILE
      ? html`<p class="muted" data-webhooks-more>
          Showing your newest ${WEBHOOKS_ON_PROFILE} webhooks. The API lists the others (<code
            >GET /api/v2/webhooks?offset=${WEBHOOKS_ON_PROFILE}</code
          >); each keeps its page here.
        </p>`
      : '';
  const list = webhooks.length
    ? html`<ul class="webhook-list">
          ${webhooks.map((webhook) => webhookItem(webhook, view.now))}
        </ul>
        ${more}`
    : html`<div class="empty">
        <p class="empty-title">No webhooks yet</p>
        <p>Add one below to get a signed POST when a matching record arrives, instead of polling.</p>
      </div>`;
  return html`<section class="card" aria-labelledby="webhooks-title" id="webhooks">
    <header class="card-head">
      <div>
        <h2 id="webhooks-title">Webhooks</h2>
        <p class="card-sub">
          New and changed records, pushed to your endpoint as they arrive. Failed deliveries are retried for about a day; each
          event costs 1 credit once it has reached your endpoint, whatever it answers, and its retries are free.
        </p>
      </div>
    </header>
    ${list}
    <form class="form webhook-form" method="post" action="/account/webhooks" id="new-webhook" aria-labelledby="new-webhook-title">
      <h3 id="new-webhook-title">Add a webhook</h3>
      ${view.problem && !view.problem.field ? alert('error', view.problem.message) : ''} ${csrfInput(view.csrfToken)}
      ${webhookFields('new-webhook', view.form ?? EMPTY_FORM, view.problem ?? null)}
      <div class="actions"><button class="btn btn-primary" type="submit">Create webhook</button></div>
    </form>
  </section>`;
}

// ---------- a webhook's page ----------

export interface TestOutcome {
  success: boolean;
  response_status: number;
  response_body: string;
  /** Why there was no response (from the delivery log), if there was none. */
  error?: string | null;
}

export interface RedeliveryOutcome {
  success: boolean;
  status: string;
  response_status: number;
  attempt_count: number;
  error?: string | null;
  /** What the redelivery cost: 1 when its event was not paid for yet and the body reached the endpoint. */
  credits_used: number;
}

export interface WebhookPageView {
  webhook: WebhookView;
  deliveries: readonly DeliveryView[];
  /** The log page's own cursor (absent on the newest page) and the next one's. */
  cursor?: string | null;
  nextCursor: string | null;
  now: Date;
  csrfToken: string;
  notice?: string | null;
  problem?: string | null;
  /** A secret in this response only: on creation, or after a rotation. */
  secret?: { value: string; rotated: boolean } | null;
  test?: TestOutcome | null;
  redelivery?: RedeliveryOutcome | null;
  /** The edit form as typed, when it was refused, and why. */
  form?: WebhookFormValues | null;
  formProblem?: FieldProblem | null;
}

function secretCallout(secret: { value: string; rotated: boolean }): SafeHtml {
  return html`<section class="callout" aria-labelledby="new-secret-title">
    <div class="callout-icon" aria-hidden="true">✓</div>
    <div class="callout-body">
      <h2 id="new-secret-title">
        ${secret.rotated ? 'Your new signing secret' : 'Your webhook is ready: here is its signing secret'}
      </h2>
      <p>
        Copy it now and store it with your receiver: <strong>it will not be shown again</strong>.
        ${secret.rotated ? 'The previous secret no longer signs deliveries.' : ''}
      </p>
      <div class="key-reveal">
        <input
          id="new-secret"
          class="key-input"
          type="text"
          readonly
          value="${secret.value}"
          aria-label="Webhook signing secret"
          spellcheck="false"
          autocomplete="off"
          data-select-on-focus
        />
        <button class="btn btn-primary" type="button" data-copy="new-secret" hidden>Copy secret</button>
      </div>
      <p class="callout-note">
        Every delivery carries two signatures made with this secret; check either. <code>X-Webhook-Signature</code> is the hex
        HMAC-SHA256 of the raw request body, keyed with the whole secret string (<code>whsec_</code> included).
        <code>webhook-signature</code> (Standard Webhooks, with <code>webhook-id</code> and <code>webhook-timestamp</code>) is
        <code>v1,</code> and the base64 HMAC-SHA256 of <code>id.timestamp.body</code>, keyed with the base64-decoded part after
        <code>whsec_</code>: any Standard Webhooks library verifies it with this secret as it is. The webhooks guide
        (docs/api/webhooks.md) has a receiver that checks both.
      </p>
    </div>
  </section>`;
}

function responseText(status: number, error: string | null | undefined): string {
  if (status === 0) return `no response${error ? ` (${error})` : ''}`;
  return `HTTP ${status}`;
}

function outcomeCallout(id: string, success: boolean, title: string, detail: SafeHtml | string, body: string | null): SafeHtml {
  return html`<section
    class="callout ${success ? '' : 'callout--error'}"
    id="${id}"
    data-outcome="${success ? 'success' : 'failure'}"
    aria-labelledby="${id}-title"
    role="status"
  >
    <div class="callout-icon" aria-hidden="true">${success ? '✓' : '✕'}</div>
    <div class="callout-body">
      <h2 id="${id}-title">${title}</h2>
      <p>${detail}</p>
      ${
        body
          ? html`<details class="response-body" open>
              <summary>Response body</summary>
              <pre>${body}</pre>
            </details>`
          : ''
      }
    </div>
  </section>`;
}

function testCallout(test: TestOutcome): SafeHtml {
  const answer = responseText(test.response_status, test.error);
  return outcomeCallout(
    'test-outcome',
    test.success,
    test.success ? 'Test event delivered' : 'Test event not delivered',
    test.success
      ? html`Your endpoint answered <strong>${answer}</strong>. Check that it verified the signatures.`
      : html`Your endpoint gave <strong>${answer}</strong>; only a 2xx answer counts as delivered.`,
    test.response_body || null,
  );
}

function redeliveryCallout(outcome: RedeliveryOutcome): SafeHtml {
  const answer = responseText(outcome.response_status, outcome.error);
  const cost =
    outcome.credits_used > 0
      ? '1 credit was used (the event reached your endpoint; its later attempts are free)'
      : 'nothing was charged';
  return outcomeCallout(
    'redelivery-outcome',
    outcome.success,
    outcome.success ? 'Redelivered' : 'Redelivery failed',
    outcome.success
      ? html`Your endpoint answered <strong>${answer}</strong> (attempt ${outcome.attempt_count}); ${cost}.`
      : html`Your endpoint gave <strong>${answer}</strong> (attempt ${outcome.attempt_count}); ${cost}. You can redeliver again
          once the endpoint is fixed.`,
    null,
  );
}

function deliveryStatus(delivery: DeliveryView): SafeHtml {
  switch (delivery.status) {
    case 'done':
      return html`<span class="pill pill--ok">Delivered</span>`;
    case 'failed':
      return html`<span class="pill pill--bad">Failed</span>`;
    case 'pending':
      return html`<span class="pill pill--warn">${delivery.attempt_count > 0 ? 'Retrying' : 'Pending'}</span>`;
  }
}

function deliveryOutcomeTime(delivery: DeliveryView): SafeHtml {
  // One element each, so the narrow layout keeps the words and the time together.
  if (delivery.status === 'done' && delivery.delivered_at) return html`<span>Delivered ${full(delivery.delivered_at)}</span>`;
  if (delivery.status === 'failed' && delivery.failed_at) return html`<span>Failed ${full(delivery.failed_at)}</span>`;
  if (delivery.status === 'pending') {
    return delivery.next_attempt_at
      ? html`<span>Next attempt ${full(delivery.next_attempt_at)}</span>`
      : html`<span class="muted">Waiting to be sent</span>`;
  }
  return html`<span class="muted">—</span>`;
}

function deliveryRow(delivery: DeliveryView, webhookId: string, csrfToken: string): SafeHtml {
  const response =
    delivery.response_status === null
      ? html`<span class="muted">Not sent yet</span>`
      : delivery.response_status === 0
        ? html`<span class="text-bad">No response</span>`
        : html`<code>${delivery.response_status}</code>`;
  const problem = delivery.last_error ?? (delivery.status !== 'done' && delivery.response_body ? delivery.response_body : null);
  const redeliver =
    delivery.status === 'done'
      ? ''
      : html`<form method="post" action="/account/webhooks/${webhookId}/deliveries/${delivery.id}/redeliver">
          ${csrfInput(csrfToken)}
          <button
            class="btn btn-secondary btn-sm"
            type="submit"
            aria-label="Redeliver ${delivery.event_type} ${delivery.event_id}"
          >
            Redeliver
          </button>
        </form>`;
  return html`<tr data-delivery-id="${delivery.id}" data-status="${delivery.status}">
    <td data-label="Status">${deliveryStatus(delivery)}</td>
    <td data-label="Event" class="cell-event">
      <span class="event-cell"
        ><span class="tag">${delivery.event_type}</span><code class="event-id" title="Event id">${delivery.event_id}</code></span
      >
    </td>
    <td data-label="Response">${response}</td>
    <td data-label="Latency">
      ${delivery.latency_ms === null ? html`<span class="muted">—</span>` : `${formatNumber(delivery.latency_ms)} ms`}
    </td>
    <td data-label="Attempts">${formatNumber(delivery.attempt_count)}</td>
    <td data-label="Created" class="cell-time">${full(delivery.created_at)}</td>
    <td data-label="Outcome" class="cell-time">${deliveryOutcomeTime(delivery)}</td>
    <td data-label="Last error" class="cell-error">
      ${problem ? html`<span class="error-text">${problem}</span>` : html`<span class="muted">—</span>`}
    </td>
    <td class="cell-actions">${redeliver}</td>
  </tr>`;
}

function deliveriesCard(view: WebhookPageView): SafeHtml {
  const { webhook } = view;
  const table = view.deliveries.length
    ? html`<div class="table-wrap">
        <table class="data-table deliveries-table">
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Event</th>
              <th scope="col">Response</th>
              <th scope="col">Latency</th>
              <th scope="col">Attempts</th>
              <th scope="col">Created</th>
              <th scope="col">Delivered / failed</th>
              <th scope="col">Last error</th>
              <th scope="col"><span class="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            ${view.deliveries.map((delivery) => deliveryRow(delivery, webhook.id, view.csrfToken))}
          </tbody>
        </table>
      </div>`
    : html`<div class="empty">
        <p class="empty-title">${view.cursor ? 'No older deliveries' : 'No deliveries yet'}</p>
        <p>Send a test event, or wait for a record that matches this webhook.</p>
      </div>`;
  const pager =
    view.cursor || view.nextCursor
      ? html`<nav class="pager" aria-label="Delivery log pages">
          ${view.cursor ? html`<a class="btn btn-secondary btn-sm" href="/account/webhooks/${webhook.id}#deliveries">Newest</a>` : ''}
          ${
            view.nextCursor
              ? html`<a
                  class="btn btn-secondary btn-sm"
                  rel="next"
                  href="/account/webhooks/${webhook.id}?cursor=${encodeURIComponent(view.nextCursor)}#deliveries"
                  >Older deliveries</a
                >`
              : ''
          }
        </nav>`
      : '';
  return html`<section class="card" aria-labelledby="deliveries-title" id="deliveries">
    <header class="card-head">
      <div>
        <h2 id="deliveries-title">Delivery log</h2>
        <p class="card-sub">
          Newest first. A failed attempt is retried by itself with growing waits; <strong>Redeliver</strong> sends one again now,
          with the same event id (1 credit when it reaches your endpoint, unless the event was paid for already).
        </p>
      </div>
      <a class="btn btn-ghost btn-sm" href="/account/webhooks/${webhook.id}#deliveries">Refresh</a>
    </header>
    ${table} ${pager}
  </section>`;
}

function summaryCard(view: WebhookPageView): SafeHtml {
  const { webhook, now } = view;
  const toggle = webhook.active
    ? html`<form method="post" action="/account/webhooks/${webhook.id}/pause">
        ${csrfInput(view.csrfToken)}<button class="btn btn-secondary" type="submit">Pause</button>
      </form>`
    : html`<form method="post" action="/account/webhooks/${webhook.id}/resume">
        ${csrfInput(view.csrfToken)}<button class="btn btn-primary" type="submit">Resume</button>
      </form>`;
  return html`<section class="card" aria-labelledby="webhook-settings-title">
    <header class="card-head">
      <div>
        <h2 id="webhook-settings-title">Settings</h2>
        <p class="card-sub">
          Created ${timeTag(webhook.created_at, formatDateTime(webhook.created_at))}; last changed
          ${relative(webhook.updated_at, now)}${webhook.last_modified_via ? ` (${webhook.last_modified_via === 'api' ? 'through the API' : 'on this page'})` : ''}.
        </p>
      </div>
      <div class="webhook-actions">
        <form method="post" action="/account/webhooks/${webhook.id}/test">
          ${csrfInput(view.csrfToken)}<button class="btn btn-primary" type="submit">Send test event</button>
        </form>
        ${toggle}
        <a class="btn btn-secondary" href="/account/webhooks/${webhook.id}/rotate">Rotate secret</a>
        <a class="btn btn-danger-quiet" href="/account/webhooks/${webhook.id}/delete">Delete</a>
      </div>
    </header>
    <dl class="facts webhook-facts">
      <div>
        <dt>Status</dt>
        <dd id="webhook-status">${webhookStatus(webhook)}</dd>
      </div>
      <div>
        <dt>Endpoint</dt>
        <dd><code class="webhook-endpoint">${webhook.endpoint_url}</code></dd>
      </div>
      <div>
        <dt>Event types</dt>
        <dd>${eventTags(webhook.event_types)}</dd>
      </div>
      <div>
        <dt>Filters</dt>
        <dd>${filterList(webhook.filters)}</dd>
      </div>
      <div>
        <dt>Signing secret</dt>
        <dd><code>${webhook.secret_preview ?? '…'}</code></dd>
      </div>
    </dl>
    <h3 class="subhead">Deliveries</h3>
    ${statsList(webhook, now)}
  </section>`;
}

function editCard(view: WebhookPageView): SafeHtml {
  const { webhook } = view;
  const values = view.form ?? { endpointUrl: webhook.endpoint_url, eventTypes: webhook.event_types, filters: webhook.filters };
  return html`<section class="card" aria-labelledby="edit-title" id="edit">
    <header class="card-head">
      <div>
        <h2 id="edit-title">Edit</h2>
        <p class="card-sub">Changes apply to events from now on; deliveries already queued are sent as they are.</p>
      </div>
    </header>
    <form class="form webhook-form" method="post" action="/account/webhooks/${webhook.id}" id="edit-webhook">
      ${view.formProblem && !view.formProblem.field ? alert('error', view.formProblem.message) : ''} ${csrfInput(view.csrfToken)}
      ${webhookFields('edit-webhook', values, view.formProblem ?? null)}
      <div class="actions">
        <button class="btn btn-primary" type="submit">Save changes</button>
        <a class="btn btn-secondary" href="/account/webhooks/${webhook.id}">Cancel</a>
      </div>
    </form>
  </section>`;
}

function breadcrumb(webhook?: WebhookView): SafeHtml {
  return html`<nav class="breadcrumb" aria-label="Breadcrumb">
    <a href="/account">Account</a><span aria-hidden="true">/</span><a href="/account#webhooks">Webhooks</a>
    ${webhook ? html`<span aria-hidden="true">/</span><a href="/account/webhooks/${webhook.id}">${hostOf(webhook.endpoint_url)}</a>` : ''}
  </nav>`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function webhookPage(ctx: PageContext, view: WebhookPageView): string {
  const { webhook } = view;
  const resume = html`<form method="post" action="/account/webhooks/${webhook.id}/resume">
    ${csrfInput(view.csrfToken)}<button class="btn btn-primary btn-sm" type="submit">Resume deliveries</button>
  </form>`;
  const main = html`<div class="container page">
    ${breadcrumb()}
    <header class="page-head">
      <div>
        <h1>Webhook</h1>
        <p class="page-sub"><span class="webhook-url-title">${webhook.endpoint_url}</span></p>
      </div>
    </header>
    ${view.notice ? alert('success', view.notice) : ''}${view.problem ? alert('error', view.problem) : ''}
    ${view.formProblem ? formProblemSummary('edit-webhook', view.formProblem) : ''}
    ${pausedByService(webhook) ? pausedBanner(webhook, resume) : ''} ${view.secret ? secretCallout(view.secret) : ''}
    ${view.test ? testCallout(view.test) : ''} ${view.redelivery ? redeliveryCallout(view.redelivery) : ''} ${summaryCard(view)}
    ${deliveriesCard(view)} ${editCard(view)}
  </div>`;
  return layout(ctx, { title: 'Webhook', main });
}

// ---------- confirmations ----------

export type WebhookAction = 'delete' | 'rotate';

export function confirmWebhookActionPage(
  ctx: PageContext,
  view: { action: WebhookAction; webhook: WebhookView; csrfToken: string; problem?: string | null },
): string {
  const { webhook, action } = view;
  const rotate = action === 'rotate';
  const body = html`<h1 id="confirm-title">${rotate ? 'Rotate the signing secret?' : 'Delete this webhook?'}</h1>
    ${view.problem ? alert('error', view.problem) : ''}
    <div class="key-summary"><code class="webhook-endpoint">${webhook.endpoint_url}</code>${webhookStatus(webhook)}</div>
    ${
      rotate
        ? html`<p>
            A new secret is shown once, on the next page. The current secret (<code>${webhook.secret_preview ?? '…'}</code>)
            <strong>stops signing at once</strong>: every delivery from now on is signed with the new one only, so update your
            receiver straight away.
          </p>`
        : html`<p>
            It stops receiving events <strong>immediately</strong> and leaves your list; deliveries still queued for it are not
            sent.
          </p>`
    }
    <form class="actions" method="post" action="/account/webhooks/${webhook.id}/${action}">
      ${csrfInput(view.csrfToken)}
      <button class="btn ${rotate ? 'btn-primary' : 'btn-danger'}" type="submit">
        ${rotate ? 'Rotate secret' : 'Delete webhook'}
      </button>
      <a class="btn btn-secondary" href="/account/webhooks/${webhook.id}">Cancel</a>
    </form>`;
  const main = html`<div class="container confirm">
    ${breadcrumb(webhook)}
    <section class="card confirm-card" aria-labelledby="confirm-title">${body}</section>
  </div>`;
  return layout(ctx, { title: rotate ? 'Rotate webhook secret' : 'Delete webhook', main, narrow: true });
}
