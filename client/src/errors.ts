import type { components } from './generated/openapi.js';

/** v1's error body: `{code, message}`. */
export type V1ErrorBody = components['schemas']['V1Error'];
/** v2's error body: `{success: false, error, code, param?}`. */
export type V2ErrorBody = components['schemas']['ErrorResponse'];
/** The webhooks API's error body: `{success: false, error, code}` with the published codes. */
export type WebhookErrorBody = components['schemas']['WebhookError'];
export type ErrorBody = V1ErrorBody | V2ErrorBody | WebhookErrorBody;

/**
 * Every failure the client reports: an HTTP error answer (status and the family's error body as sent),
 * or no answer at all (status 0, the network error as `cause`). `requestId` is the server's
 * X-Request-Id, the one its logs carry, so a support request can name the exact call.
 */
export class DealSignalError extends Error {
  override readonly name = 'DealSignalError';
  /** The HTTP status; 0 when no answer came (network failure, aborted). */
  readonly status: number;
  /** The error body the API sent, when it sent JSON. */
  readonly body: ErrorBody | undefined;
  /** X-Request-Id of the failed call (sent by the client and echoed by the server). */
  readonly requestId: string | undefined;
  /** Retry-After in seconds, when the answer carried one (429, 503). */
  readonly retryAfterSeconds: number | undefined;
  readonly method: string;
  readonly url: string;

  constructor(init: {
    status: number;
    message: string;
    body?: ErrorBody;
    requestId?: string;
    retryAfterSeconds?: number;
    method: string;
    url: string;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.body = init.body;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.method = init.method;
    this.url = init.url;
  }

  /** The machine-readable code: v2's and the webhooks API's string code, v1's numeric status code. */
  get code(): string | number | undefined {
    return this.body?.code;
  }
}

/** The message of an error body of any family, or undefined when the body is not one. */
export function errorBodyOf(value: unknown): { body: ErrorBody; message: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.error === 'string') return { body: value as ErrorBody, message: record.error };
  if (typeof record.message === 'string' && typeof record.code === 'number')
    return { body: value as ErrorBody, message: record.message };
  return undefined;
}
