export { deferAdmission, mayBeNotModified, EntityTags, conditionalList, LIST_CACHE_CONTROL, notModified } from './conditional.js';
export { registerDocs } from './docs.js';
export { keyedRoute, type ApiFamily, type FamilyErrors, type KeyedOperation } from './keyed-route.js';
export { closeListenerAndDrain, listeningDescriptor } from './drain.js';
export {
  clientErrorHandler,
  errorShapeFor,
  useErrorShapeUnder,
  type JsonErrorShape,
  frameworkErrors,
  notFoundHandler,
  errorHandling,
  v1ErrorShape,
  v2ErrorShape,
  jsonErrorShape,
  codedErrorBody,
  codedErrorShape,
  type ErrorShape,
} from './error-handling.js';
export { operations, requestId } from './operations.js';
export { validatorCompiler, checkRawQuery } from './validation-hook.js';
