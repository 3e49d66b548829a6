export { accountRoutes } from './portal.js';
export { v1Routes } from './v1-api.js';
export { v2Routes } from './v2-api.js';
