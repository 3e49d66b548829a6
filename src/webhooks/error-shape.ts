import { webhookErrorCode } from '../catalog/index.js';
import { jsonErrorShape, v2ErrorShape } from '../platform/http/index.js';
import { WEBHOOK_BODY_LIMIT } from './schemas.js';

/** The v2 shape plus the published webhooks API's `code` and, as in the rest of v2, the `param` at fault. */
export const webhookErrorShape = jsonErrorShape(
  (status, message, detail) => ({
    success: false,
    error: message,
    code: webhookErrorCode(status),
    ...(detail?.param !== undefined && { param: detail.param }),
  }),
  {
    internalMessage: v2ErrorShape.internalMessage,
    unavailableMessage: v2ErrorShape.unavailableMessage,
    notFoundMessage: v2ErrorShape.notFoundMessage,
    clientMessage: (error) =>
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? `The body is larger than ${WEBHOOK_BODY_LIMIT / 1024} KiB (a webhook's fields at their bounds take a few KiB)`
        : undefined,
  },
);
