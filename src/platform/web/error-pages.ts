import { html } from './html.js';
import { layout, type PageContext } from './layout.js';

const PAGES: Record<number, { title: string; message: string }> = {
  400: { title: 'Bad request', message: 'The form could not be read. Please go back and try again.' },
  404: { title: 'Page not found', message: 'There is nothing here, or you do not have access to it.' },
  413: { title: 'Too much data', message: 'That form was larger than we accept.' },
  500: { title: 'Something went wrong', message: 'An unexpected error stopped this page. Please try again in a moment.' },
  503: { title: 'Temporarily unavailable', message: 'We cannot reach our database right now. Please try again shortly.' },
};

/** An error page: the status's own wording only, never the underlying error. */
export function errorPage(ctx: PageContext, status: number): string {
  return errorPageWith(ctx, status, PAGES[status] ?? (status < 500 ? PAGES[400]! : PAGES[500]!));
}

/** The page a visitor gets while the server sheds load: their request was fine, the server is busy. */
export function overloadedPage(ctx: PageContext): string {
  return errorPageWith(ctx, 503, {
    title: 'Temporarily unavailable',
    message: 'We are very busy right now. Please try again in a few seconds.',
  });
}

function errorPageWith(ctx: PageContext, status: number, page: { title: string; message: string }): string {
  const main = html`<div class="container error-page">
    <p class="error-code">${status}</p>
    <h1>${page.title}</h1>
    <p class="lead">${page.message}</p>
    <div class="actions actions--center">
      <a class="btn btn-primary" href="${ctx.viewer ? '/account' : '/'}"
        >${ctx.viewer ? 'Back to your account' : 'Go to the home page'}</a
      >
    </div>
  </div>`;
  return layout(ctx, { title: page.title, main, narrow: true });
}
