export {
  BOUNDS_SQL,
  boundsOf,
  comparePositions,
  changeLogHead,
  readChanges,
  type BoundsRow,
  type ChangePosition,
  type Change,
} from './change-log-queries.js';
export { ChangeFollower, ChangeLogExpiredError, loadSnapshot } from './follower.js';
export { startChangeLogPruning } from './retention.js';
export { changesRoutes } from './routes.js';
export { CHANGE_FEED_DATASETS, ChangesQuery, ChangesResponse } from './schemas.js';
