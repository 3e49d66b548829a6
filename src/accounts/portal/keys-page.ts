// Confirmation pages for the two irreversible key actions. They make the actions work without
// JavaScript (a link to a page with a POST form) and say what will happen before it does.
import { isUsable, type AccountKey } from '../api-keys.js';
import { formatDuration } from '../../platform/web/index.js';
import { html, type SafeHtml } from '../../platform/web/index.js';
import { alert, csrfInput, layout, type PageContext } from '../../platform/web/index.js';
import { maskedKey } from './profile-page.js';

export type KeyAction = 'roll' | 'revoke';

function confirmCard(ctx: PageContext, title: string, body: SafeHtml): string {
  const main = html`<div class="container confirm">
    <nav class="breadcrumb" aria-label="Breadcrumb">
      <a href="/account">Account</a><span aria-hidden="true">/</span><span>API keys</span>
    </nav>
    <section class="card confirm-card" aria-labelledby="confirm-title">${body}</section>
  </div>`;
  return layout(ctx, { title, main, narrow: true });
}

export function confirmKeyActionPage(
  ctx: PageContext,
  view: { action: KeyAction; key: AccountKey; csrfToken: string; graceMs: number; problem?: string | null },
): string {
  const { key, action } = view;
  const keyLabel = html`<strong>${key.name}</strong> <code class="key-mask">${maskedKey(key)}</code>`;
  if (!isUsable(key)) {
    return confirmCard(
      ctx,
      'Key not active',
      html`<h1 id="confirm-title">This key no longer works</h1>
        <div class="key-summary">${keyLabel}</div>
        <p>
          It has been ${key.status.kind === 'revoked' ? 'revoked' : 'retired'}, so it cannot be
          ${action === 'roll' ? 'rolled' : 'revoked'}.
        </p>
        <div class="actions"><a class="btn btn-secondary" href="/account">Back to your keys</a></div>`,
    );
  }
  const roll = action === 'roll';
  const body = html`<h1 id="confirm-title">${roll ? 'Roll' : 'Revoke'} this key?</h1>
    ${view.problem ? alert('error', view.problem) : ''}
    <div class="key-summary">${keyLabel}</div>
    ${
      roll
        ? html`<p>
            You get a new key with the same name straight away. The current key keeps working for
            <strong>${formatDuration(view.graceMs)}</strong>, so you can deploy the new one without downtime; then it stops.
          </p>`
        : html`<p>Requests made with this key will be refused <strong>immediately</strong>. This cannot be undone.</p>`
    }
    <form class="actions" method="post" action="/account/keys/${key.id}/${action}">
      ${csrfInput(view.csrfToken)}
      <button class="btn ${roll ? 'btn-primary' : 'btn-danger'}" type="submit">${roll ? 'Roll key' : 'Revoke key'}</button>
      <a class="btn btn-secondary" href="/account">Cancel</a>
    </form>`;
  return confirmCard(ctx, roll ? 'Roll key' : 'Revoke key', body);
}
