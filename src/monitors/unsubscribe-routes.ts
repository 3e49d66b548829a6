// /monitors/unsubscribe: the link at the foot of a monitor's digest. Opening it asks to confirm
// (a link scanner that follows it changes nothing); the confirmation, or a mail client's one-click
// POST (RFC 8058, List-Unsubscribe-Post), stops that monitor's emails. The link is signed with the
// server's secret, so it needs no sign-in.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Database } from '../platform/db/index.js';
import { html, type SafeHtml } from '../platform/web/index.js';
import { unsubscribe } from './digest-queries.js';
import { validUnsubscribeToken } from './digests.js';

const Query = Type.Object({
  monitor: Type.String({ maxLength: 100 }),
  token: Type.String({ maxLength: 200 }),
});
type Query = Static<typeof Query>;

const page = (title: string, body: SafeHtml) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · dealsignal</title>
      </head>
      <body>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`.toString();

export async function unsubscribeRoutes(app: FastifyInstance, deps: { db: Database; secret: string }): Promise<void> {
  // The confirmation form, and a mail client's one-click POST, send a form body: read and ignored.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_r, body, done) =>
    done(null, body),
  );
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const valid = (query: Query) =>
    /^[0-9a-f-]{36}$/i.test(query.monitor) && validUnsubscribeToken(deps.secret, query.monitor.toLowerCase(), query.token);
  const invalid = (reply: { code(n: number): { type(t: string): { send(b: string): unknown } } }) =>
    reply
      .code(400)
      .type('text/html; charset=utf-8')
      .send(page('Link not valid', html`<p>This unsubscribe link is not valid. Manage your monitors from your account.</p>`));

  api.get('/monitors/unsubscribe', { schema: { querystring: Query, hide: true } }, async (request, reply) => {
    if (!valid(request.query)) return invalid(reply);
    const action = `/monitors/unsubscribe?monitor=${encodeURIComponent(request.query.monitor)}&token=${encodeURIComponent(request.query.token)}`;
    return reply.type('text/html; charset=utf-8').send(
      page(
        'Stop these emails?',
        html`<p>You will no longer get email digests of this monitor's signals. The monitor keeps its targets.</p>
          <form method="post" action="${action}"><button type="submit">Unsubscribe</button></form>`,
      ),
    );
  });

  api.post('/monitors/unsubscribe', { schema: { querystring: Query, hide: true } }, async (request, reply) => {
    if (!valid(request.query)) return invalid(reply);
    await unsubscribe(deps.db, request.query.monitor.toLowerCase());
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Unsubscribed',
          html`<p>This monitor's emails are stopped. Add a webhook to it, or manage it from your account.</p>`,
        ),
      );
  });
}
