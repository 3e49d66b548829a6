// The profile page: plan and limits, credits, keys, usage and a quick start.
import type { Profile } from '../accounts.js';
import { isUsable, type AccountKey, type KeyStatus } from '../api-keys.js';
import type { FormProblem } from '../form-outcomes.js';
import { usageCharts } from './usage-chart.js';
import { formatDate, formatDateTime, formatNumber, isoTime, relativeTime, shortWindow } from '../../platform/web/index.js';
import { html, type SafeHtml } from '../../platform/web/index.js';
import { alert, csrfInput, layout, type PageContext } from '../../platform/web/index.js';
import { tierName } from './home-page.js';
import { formProblemSummary, webhooksCard, type WebhooksSectionView } from '../../webhooks/index.js';
import { enrichmentCard } from '../../enrichment/index.js';
import { monitorsCard } from '../../monitors/index.js';

export interface NewKeyView {
  /** The full key: in this response only. */
  key: string;
  name: string;
  /** When this key replaced another by a roll: the old key's end. */
  previousExpiresAt?: string;
}

export interface AccountView {
  profile: Profile;
  now: Date;
  publicUrl: string;
  csrfToken: string;
  newKey?: NewKeyView | null;
  notice?: string | null;
  problem?: FormProblem | null;
  /** The create-key form's name, as typed, when it was refused. */
  keyName?: string;
  /** The webhooks section (absent when the app has no webhook service). */
  webhooks?: WebhooksSectionView | null;
  /** Whether the enrichment card is shown (the app has the enrichment service). */
  enrichment?: boolean;
}

export const maskedKey = (key: Pick<AccountKey, 'prefix' | 'last4'>) => `${key.prefix}…${key.last4}`;

function statusPill(status: KeyStatus, now: Date): SafeHtml {
  switch (status.kind) {
    case 'active':
      return html`<span class="pill pill--ok">Active</span>`;
    case 'expiring':
      return html`<span class="pill pill--warn" title="${formatDateTime(status.at)}"
        >Expires ${relativeTime(status.at, now)}</span
      >`;
    case 'expired':
      return html`<span class="pill pill--off" title="${formatDateTime(status.at)}">Expired</span>`;
    case 'revoked':
      return html`<span class="pill pill--off" title="${formatDateTime(status.at)}">Revoked</span>`;
  }
}

function keyRow(key: AccountKey, now: Date): SafeHtml {
  const actions = isUsable(key)
    ? html`<a class="btn btn-secondary btn-sm" href="/account/keys/${key.id}/roll" aria-label="Roll key ${key.name}">Roll</a>
        <a class="btn btn-danger-quiet btn-sm" href="/account/keys/${key.id}/revoke" aria-label="Revoke key ${key.name}"
          >Revoke</a
        >`
    : '';
  return html`<tr class="${isUsable(key) ? '' : 'row-muted'}" data-key-id="${key.id}">
    <td data-label="Name" class="cell-name">${key.name}</td>
    <td data-label="Key"><code class="key-mask">${maskedKey(key)}</code></td>
    <td data-label="Created">
      <time datetime="${isoTime(key.createdAt)}" title="${formatDateTime(key.createdAt)}">${formatDate(key.createdAt)}</time>
    </td>
    <td data-label="Last used">
      ${key.lastUsedAt ? html`<time datetime="${isoTime(key.lastUsedAt)}" title="${formatDateTime(key.lastUsedAt)}">${relativeTime(key.lastUsedAt, now)}</time>` : html`<span class="muted">Never</span>`}
    </td>
    <td data-label="Status">${statusPill(key.status, now)}</td>
    <td class="cell-actions">${actions}</td>
  </tr>`;
}

function keysCard(view: AccountView): SafeHtml {
  const { keys } = view.profile;
  const nameProblem = view.problem?.field === 'name' ? view.problem : null;
  const table = keys.length
    ? html`<div class="table-wrap">
        <table class="data-table keys-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col"><span class="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            ${keys.map((key) => keyRow(key, view.now))}
          </tbody>
        </table>
      </div>`
    : html`<div class="empty">
        <p class="empty-title">No API keys yet</p>
        <p>Create a key to start calling the API. It is shown once, so have somewhere safe to keep it.</p>
      </div>`;
  return html`<section class="card" aria-labelledby="keys-title" id="keys">
    <header class="card-head">
      <div>
        <h2 id="keys-title">API keys</h2>
        <p class="card-sub">
          Send a key in the <code>x-lot-api-key</code> header (v1) or as a Bearer token (v2). Keys are stored only as a
          fingerprint.
        </p>
      </div>
      <form class="create-key${nameProblem ? ' field--invalid' : ''}" method="post" action="/account/keys">
        ${csrfInput(view.csrfToken)}
        <label class="sr-only" for="key-name">Key name</label>
        <input
          id="key-name"
          name="name"
          type="text"
          maxlength="60"
          placeholder="e.g. production"
          value="${view.keyName ?? ''}"
          ${nameProblem ? html` aria-invalid="true" aria-describedby="key-name-error" autofocus` : ''}
        />
        <button class="btn btn-primary" type="submit">Create key</button>
        ${nameProblem ? html`<p class="field-error" id="key-name-error">${nameProblem.message}</p>` : ''}
      </form>
    </header>
    ${view.newKey ? newKeyCallout(view.newKey, view.now) : ''} ${table}
  </section>`;
}

function newKeyCallout(newKey: NewKeyView, now: Date): SafeHtml {
  return html`<section class="callout" aria-labelledby="new-key-title">
    <div class="callout-icon" aria-hidden="true">✓</div>
    <div class="callout-body">
      <h2 id="new-key-title">Your new key “${newKey.name}” is ready</h2>
      <p>Copy it now and store it somewhere safe. We keep only a fingerprint, so <strong>it will not be shown again</strong>.</p>
      <div class="key-reveal">
        <input
          id="new-key"
          class="key-input"
          type="text"
          readonly
          value="${newKey.key}"
          aria-label="Your new API key"
          spellcheck="false"
          autocomplete="off"
          data-select-on-focus
        />
        <button class="btn btn-primary" type="button" data-copy="new-key" hidden>Copy key</button>
      </div>
      ${newKey.previousExpiresAt ? html`<p class="callout-note">The key it replaces keeps working until <time datetime="${isoTime(newKey.previousExpiresAt)}">${formatDateTime(newKey.previousExpiresAt)}</time> (${relativeTime(newKey.previousExpiresAt, now)}), then stops.</p>` : ''}
    </div>
  </section>`;
}

function planCard(profile: Profile): SafeHtml {
  const { plan } = profile;
  const per = shortWindow(plan.windowMs);
  return html`<article class="card stat" aria-labelledby="plan-title">
    <header class="stat-head">
      <h2 id="plan-title">Plan</h2>
      <span class="badge badge--${plan.tier}">${tierName(plan.tier)}</span>
    </header>
    <dl class="facts">
      <div>
        <dt>Signals (v2)</dt>
        <dd>${formatNumber(plan.v2Limit)} requests ${per}</dd>
      </div>
      <div>
        <dt>Funding &amp; M&amp;A (v1)</dt>
        <dd>${formatNumber(plan.v1Limit)} requests ${per}</dd>
      </div>
      <div>
        <dt>Monthly credits</dt>
        <dd>${formatNumber(plan.monthlyCredits)}</dd>
      </div>
    </dl>
    <p class="stat-foot">
      ${plan.limitsEnforced ? 'Limits count per account, across all its keys, in a rolling window.' : 'Rate limits are not enforced on this server.'}
    </p>
  </article>`;
}

function creditsCard(profile: Profile): SafeHtml {
  const { balance, nextRefill } = profile.credits;
  const allowance = profile.plan.monthlyCredits;
  return html`<article class="card stat" aria-labelledby="credits-title">
    <header class="stat-head">
      <h2 id="credits-title">Credits</h2>
      <span class="stat-period">This month</span>
    </header>
    <p class="stat-value" id="credit-balance">
      ${formatNumber(balance)}<span class="stat-unit"> of ${formatNumber(allowance)} left</span>
    </p>
    <progress class="meter" max="${Math.max(allowance, balance, 1)}" value="${balance}" aria-labelledby="credits-title">
      ${formatNumber(balance)}
    </progress>
    <dl class="facts facts--inline">
      <div>
        <dt>Next refill</dt>
        <dd><time datetime="${nextRefill.toISOString().slice(0, 10)}">${formatDate(nextRefill)}</time></dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd>1 credit per v2 page</dd>
      </div>
    </dl>
  </article>`;
}

function usageTotals(profile: Profile) {
  return profile.usage.reduce(
    (t, d) => ({ v1: t.v1 + d.v1_requests, v2: t.v2 + d.v2_requests, credits: t.credits + d.credits }),
    { v1: 0, v2: 0, credits: 0 },
  );
}

function requestsCard(profile: Profile): SafeHtml {
  const totals = usageTotals(profile);
  return html`<article class="card stat" aria-labelledby="requests-title">
    <header class="stat-head">
      <h2 id="requests-title">Requests</h2>
      <span class="stat-period">Last 30 days</span>
    </header>
    <p class="stat-value" id="request-count">${formatNumber(totals.v1 + totals.v2)}</p>
    <dl class="facts facts--inline">
      <div>
        <dt><span class="swatch swatch--v1"></span>v1</dt>
        <dd>${formatNumber(totals.v1)}</dd>
      </div>
      <div>
        <dt><span class="swatch swatch--v2"></span>v2</dt>
        <dd>${formatNumber(totals.v2)}</dd>
      </div>
      <div>
        <dt><span class="swatch swatch--credits"></span>Credits used</dt>
        <dd>${formatNumber(totals.credits)}</dd>
      </div>
    </dl>
    <dl class="facts facts--inline credit-uses" aria-label="Credits used, by use">
      ${profile.creditUses.map(
        ({ use, credits }) =>
          html`<div data-use="${use}">
            <dt>${USE_LABELS.get(use) ?? use.replaceAll('_', ' ')}</dt>
            <dd>${formatNumber(credits)}</dd>
          </div>`,
      )}
    </dl>
  </article>`;
}

/** How the profile names what credits were used for (a reason added later shows under its own name). */
const USE_LABELS: ReadonlyMap<string, string> = new Map([
  ['api', 'API pages'],
  ['feed', 'Feed pages'],
  ['webhook', 'Webhook deliveries'],
]);

function usageCard(profile: Profile): SafeHtml {
  const charts = usageCharts(profile.usage);
  return html`<section class="card" aria-labelledby="usage-title">
    <header class="card-head">
      <div>
        <h2 id="usage-title">Usage</h2>
        <p class="card-sub">
          Requests per day made with your keys, and credits used: API and feed pages, and webhook deliveries (UTC days).
        </p>
      </div>
      <ul class="legend" aria-label="Legend">
        <li><span class="swatch swatch--v1"></span>v1 requests</li>
        <li><span class="swatch swatch--v2"></span>v2 requests</li>
        <li><span class="swatch swatch--credits"></span>Credits</li>
      </ul>
    </header>
    <h3 class="chart-title">Requests</h3>
    <div class="chart-box">${charts.requests}</div>
    <h3 class="chart-title">Credits used</h3>
    <div class="chart-box chart-box--small">${charts.credits}</div>
    <details class="data-details">
      <summary>Show as table</summary>
      ${charts.table}
    </details>
  </section>`;
}

function snippet(id: string, title: string, command: string): SafeHtml {
  return html`<div class="snippet">
    <div class="snippet-head">
      <span>${title}</span><button class="btn btn-ghost btn-xs" type="button" data-copy="${id}" hidden>Copy</button>
    </div>
    <pre><code id="${id}">${command}</code></pre>
  </div>`;
}

function quickStartCard(view: AccountView): SafeHtml {
  const key = view.newKey?.key ?? 'YOUR_API_KEY';
  const base = view.publicUrl;
  return html`<section class="card" aria-labelledby="quickstart-title">
    <header class="card-head">
      <div>
        <h2 id="quickstart-title">Quick start</h2>
        <p class="card-sub">
          ${view.newKey ? 'Ready to run with your new key.' : html`Replace <code>YOUR_API_KEY</code> with one of your keys.`} Full
          reference in the <a href="/docs">API docs</a>.
        </p>
      </div>
    </header>
    <div class="snippets">
      ${snippet('curl-v1', 'v1 · Funding rounds in the US', `curl -H 'x-lot-api-key: ${key}' \\\n  '${base}/api/v1/funding?country=US'`)}
      ${snippet('curl-v2', 'v2 · US investors, 5 per page', `curl -H 'Authorization: Bearer ${key}' \\\n  '${base}/api/v2/signals/investors?countries=US&limit=5'`)}
    </div>
  </section>`;
}

export function accountPage(ctx: PageContext, view: AccountView): string {
  const { profile } = view;
  const generalProblem = view.problem && view.problem.field !== 'name' ? view.problem : null;
  const main = html`<div class="container page">
    <header class="page-head">
      <div>
        <h1>Account</h1>
        <p class="page-sub">
          <span id="account-email">${profile.account.email}</span
          ><span>Member since ${formatDate(profile.account.created_at)}</span>
        </p>
      </div>
      <div class="page-actions">
        <a class="btn btn-secondary" href="/docs">API docs</a><a class="btn btn-primary" href="#keys">Manage keys</a>
      </div>
    </header>
    ${view.notice ? alert('success', view.notice) : ''}${generalProblem ? alert('error', generalProblem.message) : ''}
    ${view.problem?.field === 'name' ? alert('error', html`${view.problem.message}<a class="alert-link" href="#key-name">Go to the form</a>`) : ''}
    ${view.webhooks?.problem ? formProblemSummary('new-webhook', view.webhooks.problem) : ''}
    <div class="grid grid-3 stats">${planCard(profile)}${creditsCard(profile)}${requestsCard(profile)}</div>
    ${keysCard(view)} ${view.webhooks ? webhooksCard(view.webhooks) : ''} ${view.enrichment ? enrichmentCard(view.csrfToken) : ''}
    ${monitorsCard(view.csrfToken, ctx.assets)} ${usageCard(profile)} ${quickStartCard(view)}
  </div>`;
  return layout(ctx, { title: 'Account', main, ...(view.enrichment && { script: ctx.assets.enrichment }) });
}
