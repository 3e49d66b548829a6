// Monitors: an account's watch lists of companies, sent every new signal about them (the published
// Monitoring API), by webhook or email digest, with backfill and replay.
export { monitorRoutes } from './routes.js';
export { MONITOR_SHARED_SCHEMAS } from './schemas.js';
export { MonitorService } from './service.js';
export { MonitorPass } from './pass.js';
export { DigestTimer, MonitorDigests } from './digests.js';
export { unsubscribeRoutes } from './unsubscribe-routes.js';
export { monitorsCard } from './pages.js';
export { monitorPortalRoutes } from './portal-routes.js';
