// Sign-up, sign-in and sign-out pages. A refused form comes back with its message and the
// email as typed (escaped); a password is never echoed.
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../passwords.js';
import { EMAIL_MAX_LENGTH } from '../accounts.js';
import type { FormProblem } from '../form-outcomes.js';
import { html, type SafeHtml } from '../../platform/web/index.js';
import { alert, csrfInput, layout, type PageContext } from '../../platform/web/index.js';

export interface AuthForm {
  csrfToken: string;
  email?: string;
  problem?: FormProblem | null;
  /** A neutral message above the form (e.g. "your session expired"). */
  notice?: string | null;
}

interface FieldSpec {
  name: 'email' | 'password';
  label: string;
  type: string;
  autocomplete: string;
  value?: string;
  hint?: string;
  min?: number;
  max: number;
}

function field(spec: FieldSpec, problem: FormProblem | null | undefined, autofocus: boolean): SafeHtml {
  const invalid = problem?.field === spec.name;
  const id = `field-${spec.name}`;
  const describedBy = [spec.hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${invalid ? ' field--invalid' : ''}">
    <label for="${id}">${spec.label}</label>
    <input
      id="${id}"
      name="${spec.name}"
      type="${spec.type}"
      autocomplete="${spec.autocomplete}"
      required
      maxlength="${spec.max}"
      ${spec.min ? html` minlength="${spec.min}"` : ''}${spec.value !== undefined ? html` value="${spec.value}"` : ''}${invalid ? html` aria-invalid="true"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}${autofocus ? html` autofocus` : ''}
    />
    ${spec.hint ? html`<p class="field-hint" id="${id}-hint">${spec.hint}</p>` : ''}${invalid ? html`<p class="field-error" id="${id}-error">${problem?.message}</p>` : ''}
  </div>`;
}

function authCard(
  ctx: PageContext,
  page: { title: string; heading: string; lead: string; body: SafeHtml; footer: SafeHtml },
): string {
  const main = html`<div class="auth">
    <section class="card auth-card" aria-labelledby="auth-title">
      <img class="auth-logo" src="${ctx.assets.icon.path}" width="40" height="40" alt="" />
      <h1 id="auth-title">${page.heading}</h1>
      <p class="auth-lead">${page.lead}</p>
      ${page.body}
    </section>
    <p class="auth-switch">${page.footer}</p>
  </div>`;
  return layout(ctx, { title: page.title, main, narrow: true });
}

/** Messages tied to a field are shown next to it; the others (CSRF, limits) above the form. */
function formAlerts(form: AuthForm): SafeHtml {
  const general = form.problem && !form.problem.field ? form.problem : null;
  return html`${form.notice ? alert('info', form.notice) : ''}${general ? alert('error', general.message) : ''}`;
}

export function signupPage(ctx: PageContext, form: AuthForm): string {
  const focusPassword = form.problem?.field === 'password';
  const body = html`${formAlerts(form)}
    <form class="form" method="post" action="/signup">
      ${csrfInput(form.csrfToken)}
      ${field({ name: 'email', label: 'Work email', type: 'email', autocomplete: 'email', value: form.email ?? '', max: EMAIL_MAX_LENGTH }, form.problem, !focusPassword)}
      ${field(
        {
          name: 'password',
          label: 'Password',
          type: 'password',
          autocomplete: 'new-password',
          hint: `At least ${PASSWORD_MIN_LENGTH} characters, and hard to guess: a few unrelated words are easy to remember and work well.`,
          min: PASSWORD_MIN_LENGTH,
          max: PASSWORD_MAX_LENGTH,
        },
        form.problem,
        focusPassword,
      )}
      <button class="btn btn-primary btn-block" type="submit">Create account</button>
    </form>
    <p class="fine-print">Free plan: monthly credits and rate limits apply. You can create API keys as soon as you sign in.</p>`;
  return authCard(ctx, {
    title: 'Sign up',
    heading: 'Create your account',
    lead: 'Get an API key for funding rounds, M&A deals and market signals.',
    body,
    footer: html`Already have an account? <a href="/login">Sign in</a>`,
  });
}

export function loginPage(ctx: PageContext, form: AuthForm): string {
  const body = html`${formAlerts(form)}
    <form class="form" method="post" action="/login">
      ${csrfInput(form.csrfToken)}
      ${field({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: form.email ?? '', max: EMAIL_MAX_LENGTH }, null, !form.email)}
      ${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', max: PASSWORD_MAX_LENGTH }, null, Boolean(form.email))}
      <button class="btn btn-primary btn-block" type="submit">Sign in</button>
    </form>`;
  return authCard(ctx, {
    title: 'Sign in',
    heading: 'Welcome back',
    lead: 'Sign in to manage your API keys and see your usage.',
    body,
    footer: html`New to dealsignal? <a href="/signup">Create an account</a>`,
  });
}

/** GET /logout for a signed-in visitor: signing out is a POST (with CSRF), so this page asks. */
export function logoutPage(ctx: PageContext & { viewer: NonNullable<PageContext['viewer']> }, problem?: string): string {
  const body = html`${problem ? alert('error', problem) : ''}
    <form class="form" method="post" action="/logout">
      ${csrfInput(ctx.viewer.csrfToken)}
      <button class="btn btn-primary btn-block" type="submit">Sign out</button>
    </form>`;
  return authCard(ctx, {
    title: 'Sign out',
    heading: 'Sign out?',
    lead: `You are signed in as ${ctx.viewer.email}. Your API keys keep working after you sign out.`,
    body,
    footer: html`<a href="/account">Back to your account</a>`,
  });
}
