export { indexedDataset, indexRecord, type IndexedDataset } from './dataset-index-filter.js';
export { listV1Page, listSignalPage } from './listing.js';
export { lookupRoutes } from './lookup-routes.js';
export { ReadModel } from './read-model.js';
export { sendV1Page, v1PageTag, v1PageText } from './v1-reply.js';
export { sendSignalPage, signalPageTag } from './v2-reply.js';
