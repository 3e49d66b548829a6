export { completeAcquisitionKeys } from './acquisition-key-backfill.js';
export {
  INGEST_KINDS,
  ingest,
  isIngestKind,
  position,
  summarize,
  discardAbandonedStages,
  type IngestReport,
} from './importer.js';
export { openInputFile, startInbox, type InboxLog, type Inbox, type InboxOptions } from './inbox.js';
export { adminRoutes } from './routes.js';
export { analyzeTables, countDatasetRows, type DatasetRowCounts } from './table-queries.js';
export { upserterOf } from './upserters.js';
