// What the operations of the webhooks API share: their documented errors, path parameters and
// route options, who a request acts as, and the envelope's meta.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { keyedRoute, type ApiFamily, type FamilyErrors, type KeyedOperation } from '../platform/http/index.js';
import { WebhookError, WEBHOOK_BODY_LIMIT } from './schemas.js';
import type { WebhookActor } from './service.js';

export const errorRef = Type.Ref(WebhookError);

/** The errors of every operation, in place of the v2 family's: they carry the published API's codes. */
export const WEBHOOK_ERRORS: FamilyErrors = {
  400: { ...errorRef, description: 'A field or parameter breaks its rule; the message names it (code bad_request)' },
  401: { ...errorRef, description: 'Invalid or missing API key (invalid_api_key)' },
  404: { ...errorRef, description: 'No such webhook or delivery on this account (not_found)' },
  429: { ...errorRef, description: 'Rate limit exceeded (rate_limited)' },
  500: { ...errorRef, description: 'An unknown error occurred (internal_error)' },
  503: { ...errorRef, description: 'Temporarily unavailable (unavailable)' },
};

/** Test and retry sign with the stored secret: one the server cannot read sends nothing (src/webhooks/secrets.ts). */
export const SECRET_UNREADABLE = {
  ...errorRef,
  description:
    "Temporarily unavailable; or the webhook's stored signing secret cannot be read with the server's keys (a key not " +
    'configured, or the stored value was changed): nothing was sent or charged (unavailable). Rotating the secret ' +
    'seals a new one.',
};

/** The answer to a body over the limit, on the operations that take one. */
export const TOO_LARGE = {
  413: {
    ...errorRef,
    description: `The body is larger than ${WEBHOOK_BODY_LIMIT / 1024} KiB (payload_too_large; ours: the published API has no 413)`,
  },
};

export const IdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'Webhook id (UUID)' }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ maxLength: 100, description: 'Webhook id (UUID)' }),
  deliveryId: Type.String({ maxLength: 100, description: 'Delivery id (UUID)' }),
});

export const FREE = 'Free (0 credits); counts against the rate limit like any v2 request.';

export const meta = (endpoint: string, creditsUsed = 0) => ({ endpoint, creditsUsed });

/** Changes are recorded as made by the request's key, through the API. */
export const actor = (request: FastifyRequest): WebhookActor => ({
  accountId: request.principal!.accountId,
  actor: request.principal!.keyId,
  via: 'api',
});

/** A webhooks API operation's route options: the family's key check and docs, and the body limit. */
export function webhookOperation<const Operation extends Omit<KeyedOperation, 'tags'>>(family: ApiFamily, operation: Operation) {
  return {
    ...keyedRoute(family, { tags: ['v2 webhooks'], ...operation }),
    // Every field has a bound (src/webhooks/schemas.ts): a body at all of them is a few KiB.
    bodyLimit: WEBHOOK_BODY_LIMIT,
  };
}
