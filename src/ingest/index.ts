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
export { analyzeTables, countRows } from './table-queries.js';
export { upserter, type Upserter } from './upsert-queries.js';
