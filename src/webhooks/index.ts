export { WebhookDelivery, type ChangePass } from './delivery.js';
export {
  formProblemSummary,
  webhooksCard,
  WEBHOOKS_ON_PROFILE,
  type RedeliveryOutcome,
  type TestOutcome,
  type WebhooksSectionView,
  type FieldProblem,
  type WebhookFormValues,
} from './pages.js';
export { webhookPortalRoutes } from './portal-routes.js';
export { pruneFinishedDeliveries } from './delivery-log-retention.js';
export { webhookRoutes } from './routes.js';
export { WEBHOOK_SHARED_SCHEMAS, WEBHOOK_BODY_LIMIT } from './schemas.js';
export { WebhookSecrets } from './secrets.js';
export { MONITOR_EVENT_TYPE, WebhookService, type PreparedEndpoint } from './service.js';
export type { NewDelivery, NewEvent } from './delivery-queue-queries.js';
export { eventBody } from './signing.js';
export { HttpWebhookTransport, systemResolver, type HostResolver } from './transport.js';
