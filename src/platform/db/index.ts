export { ping } from './health-queries.js';
export { migrate } from './migrate.js';
export { openDatabase, openReplica, storeOwner } from './open.js';
export {
  DatabaseUnavailableError,
  QueryTimeoutError,
  type Queryable,
  type QueryOptions,
  type Database,
  type Transaction,
} from './port.js';
export { indexValueSql, type ValueColumnType } from './index-values.js';
