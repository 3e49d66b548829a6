// Enrichment: a list of companies matched to ours, with each one's signals (the published CSV
// enrichment API), worked on as durable jobs by any instance.
export { enrichmentRoutes } from './routes.js';
export { ENRICHMENT_SHARED_SCHEMAS } from './schemas.js';
export { completedEvent, EnrichmentService } from './service.js';
export { EnrichmentWorker } from './worker.js';
export { expireJobs } from './queries.js';
export { enrichmentCard } from './pages.js';
export { enrichmentPortalRoutes } from './portal-routes.js';
