export { indexedDataset, indexRecord, type IndexedDataset } from './dataset-index-filter.js';
export { v1ListRoutes, v2ListRoutes } from './list-routes.js';
export { lookupRoutes } from './lookup-routes.js';
export {
  KEPT_ANSWER_IDS,
  ReadModel,
  type IndexMessage,
  type PageAsk,
  type PageRecords,
  type ReadModelStats,
  type ReplicaOptions,
} from './read-model.js';
export { SharedReadModel, readModelCopy } from './index-threads.js';
export { sendSignalPage, signalPageTag } from './v2-reply.js';
export { FilterIndex, type IndexRecord, type SortOrder, type Term } from './filter-index/index.js';
