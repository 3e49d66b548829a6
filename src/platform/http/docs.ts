import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Config } from '../../config.js';
import { ERROR_V2_CODE, errorCodeOf } from '../../catalog/index.js';
import { enrichmentErrorCode, monitorErrorCode, webhookErrorCode } from '../../catalog/index.js';
import { isListParam, LIST_PARAM } from '../../catalog/index.js';
import { loadAssets, loadDocsAssets } from '../web/index.js';
import { withCodeSamples } from './code-samples.js';

/** The part of an OpenAPI operation the date examples and list parameters touch. */
interface DocumentedOperation {
  parameters?: {
    name: string;
    in?: string;
    description?: string;
    schema?: { format?: string } & Record<string, unknown>;
    example?: unknown;
    style?: string;
    explode?: boolean;
  }[];
}

/** An error message of each status, as the API words it, for the examples of the documented error responses. */
const EXAMPLE_ERRORS: Readonly<Record<number, { error: string; param?: string }>> = {
  400: { error: 'limit must be <= 100', param: 'limit' },
  401: { error: 'Invalid API key' },
  402: { error: 'API credits exhausted for this billing period; they refill at the start of next month' },
  404: { error: 'Not found' },
  409: { error: 'This delivery already succeeded; there is nothing to retry' },
  410: {
    error:
      "since is older than the change log's retention (7 days): changes after it are no longer kept. Resync: read the " +
      'records again from the list endpoints, then follow this feed from its start (without since).',
    param: 'since',
  },
  429: { error: 'Rate limit exceeded. Please try again later.' },
  500: { error: 'An unknown error occurred' },
  503: { error: 'Service temporarily unavailable. Please try again later.' },
};
/** The enrichment API's 400 names the company at fault. */
const ENRICHMENT_400 = {
  error: 'companies[3]: include at least one of company_name, website_url or linkedin_url (or one of their aliases), not blank',
  param: 'companies[3]',
};
/** The Monitoring API's 400, as published. */
const MONITOR_400 = {
  error: 'signal_types must be a non-empty array of: funding_round, acquisition, job_change, hiring',
  param: 'signal_types',
};
/** The webhooks API's 400 names a body field. */
const WEBHOOK_400 = { error: 'endpoint_url must be a valid http or https URL', param: 'endpoint_url' };

interface DocumentedResponses {
  responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string }; example?: unknown }> }>;
}

/**
 * Each documented error response of the v2 family gets an example of its own status and code (the
 * one the error handler answers it with), instead of what a viewer would build from the schema
 * alone (the first code of the enum, for every status).
 */
export function withErrorExamples<T extends { paths?: object }>(document: T): T {
  for (const [path, operations] of Object.entries(document.paths ?? {}) as [string, Record<string, DocumentedResponses>][]) {
    if (!path.startsWith('/api/v2/')) continue;
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const code = Number(status);
        const media = response.content?.['application/json'];
        if (!(code >= 400) || !media) continue;
        const webhooks = media.schema?.$ref?.endsWith('/WebhookError') === true;
        // The enrichment API's errors carry its published codes too (Csv_ErrorResponse).
        const enrichment = media.schema?.$ref?.endsWith('/Csv_ErrorResponse') === true;
        // And the Monitoring API's (Monitor_ErrorResponse).
        const monitors = media.schema?.$ref?.endsWith('/Monitor_ErrorResponse') === true;
        const special = webhooks ? WEBHOOK_400 : enrichment ? ENRICHMENT_400 : monitors ? MONITOR_400 : undefined;
        const known = code === 400 && special ? special : EXAMPLE_ERRORS[code];
        const error = known ?? { error: STATUS_CODES[code] ?? 'Error' };
        media.example = {
          success: false,
          error: error.error,
          code: webhooks
            ? webhookErrorCode(code)
            : enrichment
              ? enrichmentErrorCode(code)
              : monitors
                ? monitorErrorCode(code)
                : ERROR_V2_CODE[errorCodeOf(code)],
          ...(error.param !== undefined && { param: error.param }),
        };
      }
    }
  }
  return document;
}

/**
 * List parameters (LIST_PARAM in their schema) are documented as what they take: `style: form,
 * explode: true` (the key repeated, as HTTP libraries send a list), and the comma form too. The
 * marker itself is the validator's, not the document's.
 */
export function withListParameters<T extends { paths?: object }>(document: T): T {
  for (const operations of Object.values(document.paths ?? {}) as Record<string, DocumentedOperation>[]) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query' || !isListParam(parameter.schema)) continue;
        delete parameter.schema![LIST_PARAM];
        parameter.style = 'form';
        parameter.explode = true;
        const example = `${parameter.name}=a&${parameter.name}=b`;
        const text = (parameter.description ?? '').trim();
        const lead = text === '' ? '' : text.endsWith('.') ? `${text} ` : `${text}. `;
        parameter.description = `${lead}Several values: comma-separated, or the parameter repeated (\`${example}\`).`;
      }
    }
  }
  return document;
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
      'openapiObject' in documents
        ? withCodeSamples(withErrorExamples(withListParameters(withDateExamples(documents.openapiObject, new Date()))), base)
        : {},
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
