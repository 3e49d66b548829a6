export { loadAssets, loadDocsAssets, type Assets } from './assets.js';
export { errorPage, overloadedPage } from './error-pages.js';
export {
  formatNumber,
  perWindow,
  formatDuration,
  formatDate,
  formatDateTime,
  isoTime,
  relativeTime,
  shortWindow,
  formatShortDate,
  plural,
} from './format.js';
export { escapeHtml, html, type SafeHtml } from './html.js';
export { CSRF_FIELD, layout, alert, csrfInput, type Viewer, type PageContext } from './layout.js';
