export {
  BOUNDS_SQL,
  boundsOf,
  comparePositions,
  changeLogHead,
  type BoundsRow,
  type ChangePosition,
  type Change,
  type ChangedRecord,
  type RecordValues,
} from './change-log-queries.js';
export { readChangeRange, type ChangeRange, type ChangeRangeOptions, type RecordRequest } from './change-reader.js';
export { ChangeFollower, ChangeLogExpiredError, loadSnapshot } from './follower.js';
export { startChangeLogPruning } from './retention.js';
export { changesRoutes } from './routes.js';
export { CHANGE_FEED_DATASETS, ChangesQuery, ChangesResponse } from './schemas.js';
