import type { Asset, Assets } from './assets.js';
import { html, type HtmlValue, type SafeHtml } from './html.js';

/** The signed-in visitor, as the page chrome needs them (the sign-out form carries the CSRF token). */
export interface Viewer {
  email: string;
  csrfToken: string;
}

export interface PageContext {
  assets: Assets;
  viewer: Viewer | null;
  /** Marks the current nav link. */
  path: string;
}

export const CSRF_FIELD = '_csrf';

export const csrfInput = (token: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}" />`;

export function alert(kind: 'error' | 'success' | 'info', message: HtmlValue): SafeHtml {
  return html`<div class="alert alert--${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${message}</div>`;
}

function navLink(ctx: PageContext, href: string, label: string): SafeHtml {
  return html`<a href="${href}" ${ctx.path === href ? html` aria-current="page"` : ''}>${label}</a>`;
}

function nav(ctx: PageContext): SafeHtml {
  if (!ctx.viewer) {
    return html`${navLink(ctx, '/docs', 'Docs')}${navLink(ctx, '/login', 'Sign in')}
      <a class="btn btn-primary btn-sm" href="/signup">Get an API key</a>`;
  }
  return html`${navLink(ctx, '/docs', 'Docs')}${navLink(ctx, '/account', 'Account')}
    <form class="nav-form" method="post" action="/logout">
      ${csrfInput(ctx.viewer.csrfToken)} <button class="btn btn-secondary btn-sm" type="submit">Sign out</button>
    </form>`;
}

/** The whole document around a page's main content. */
export function layout(ctx: PageContext, page: { title: string; main: SafeHtml; narrow?: boolean; script?: Asset }): string {
  const { assets } = ctx;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${page.title} · dealsignal</title>
        <meta name="description" content="Funding rounds, M&amp;A deals and market signals over a simple HTTP API." />
        <link rel="icon" href="${assets.icon.path}" type="image/svg+xml" />
        <link rel="stylesheet" href="${assets.css.path}" />
        <script src="${assets.js.path}" defer></script>
        ${page.script ? html`<script src="${page.script.path}" defer></script>` : ''}
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <header class="site-header">
          <div class="container header-inner">
            <a class="brand" href="/"><img src="${assets.icon.path}" width="28" height="28" alt="" />dealsignal</a>
            <nav class="site-nav" aria-label="Main">${nav(ctx)}</nav>
          </div>
        </header>
        <main id="main" class="${page.narrow ? 'main main--narrow' : 'main'}">${page.main}</main>
        <footer class="site-footer">
          <div class="container footer-inner">
            <span>© ${new Date().getUTCFullYear()} dealsignal</span>
            <nav aria-label="Footer">
              <a href="/docs">API reference</a
              ><a href="/openapi.json">OpenAPI</a>${ctx.viewer ? '' : html`<a href="/signup">Sign up</a>`}
            </nav>
          </div>
        </footer>
      </body>
    </html> `.value;
}
