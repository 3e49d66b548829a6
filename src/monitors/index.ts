// Monitors: an account's watch lists of companies, sent every new signal about them (the published
// Monitoring API), by webhook or email digest, with backfill and replay.
export { monitorRoutes } from './routes.js';
export { MONITOR_SHARED_SCHEMAS } from './schemas.js';
export { MonitorService } from './service.js';
export { MonitorPass } from './pass.js';
