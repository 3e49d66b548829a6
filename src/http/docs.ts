import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { loadAssets, loadDocsAssets } from '../web/assets.js';
import { withCodeSamples } from './code-samples.js';

/** The part of an OpenAPI operation the date examples touch. */
interface DocumentedOperation {
  parameters?: { name: string; schema?: { format?: string }; example?: unknown }[];
}

const DAY_MS = 86_400_000;

/**
 * Date parameters get examples relative to today: the demo data ends on the day it is loaded,
 * and "Try it out" sends every example at once, so a fixed date would one day match nothing.
 * A range's start is a year back, anything else today.
 */
export function withDateExamples<T extends { paths?: object }>(document: T, today: Date): T {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  for (const operations of Object.values(document.paths ?? {}) as Record<string, DocumentedOperation>[]) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema?.format !== 'date') continue;
        parameter.example = /from$/i.test(parameter.name) ? day(today.getTime() - 365 * DAY_MS) : day(today.getTime());
      }
    }
  }
  return document;
}

/**
 * The docs page's content policy. Stricter than the plugin's default: no inline style (Swagger's
 * own top bar, which needs one, is not shown), and requests upgraded to HTTPS only when the
 * service is served over HTTPS (on plain HTTP the upgrade would break every asset). "Try it out"
 * calls PUBLIC_URL, which may be another origin than the one the page was opened on.
 */
export function docsContentPolicy(publicUrl: string): string {
  // A PUBLIC_URL derived from an IPv6 HOST (http://::1:3000) is not a URL: then the page's own origin only.
  const api = URL.canParse(publicUrl) ? new URL(publicUrl) : undefined;
  return [
    "default-src 'self'",
    "base-uri 'self'",
    api ? `connect-src 'self' ${api.origin}` : "connect-src 'self'",
    "font-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "img-src 'self' data:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self'",
    ...(api?.protocol === 'https:' ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** The OpenAPI document (/openapi.json) and the interactive docs page (/docs) that renders it. */
export async function registerDocs(app: FastifyInstance, config: Config): Promise<void> {
  const base = config.publicUrl;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'dealsignal API',
        version: '1.0.0',
        description:
          `New here? [Create a free account](${base}/signup) to get an API key (or [sign in](${base}/login)), ` +
          'then use **Authorize** to try the endpoints below on live data.\n\n' +
          'Funding rounds and M&A deals (v1, `x-lot-api-key` header) and signals (v2, Bearer key). ' +
          'v1 pages hold 20 records, newest `date_seen` first; paging is in the X-Total-Count, X-Page, X-Per-Page and Link headers. ' +
          'Unused list filters are echoed in `params` as empty arrays, unused scalar filters as null.',
      },
      servers: [{ url: base }],
      components: {
        securitySchemes: {
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-lot-api-key', description: 'v1 API key' },
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'v2: Authorization: Bearer <API key>' },
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // Runs once, when the document is first asked for; the plugin caches the result. The code samples
    // come after the date examples (they leave dates out, but read the examples as the page shows them).
    transformObject: (documents) =>
      'openapiObject' in documents ? withCodeSamples(withDateExamples(documents.openapiObject, new Date()), base) : {},
  });
  const docsAssets = loadDocsAssets();
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // BaseLayout: the document's own title and description, without Swagger's top bar and logo;
    // the theme's script puts the site's header above it and the code samples in tabs.
    uiConfig: { layout: 'BaseLayout' },
    theme: {
      title: 'dealsignal API docs',
      favicon: [{ filename: 'icon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: loadAssets().icon.body }],
      css: [{ filename: 'dealsignal.css', content: docsAssets.css.toString('utf8') }],
      js: [{ filename: 'dealsignal.js', content: docsAssets.js.toString('utf8') }],
    },
    staticCSP: docsContentPolicy(base),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
