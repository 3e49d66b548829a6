export { keyedAccess, recordUsage, windowWords, rateLimitHeaders } from './access.js';
export { findAccountByReference, listAccounts, setAccountTier, setV1RateLimit } from './account-queries.js';
export { DEFAULT_WEB_LIMITS, nextRefill, type WebLimits } from './accounts.js';
export { v1Key, authorizationWithoutBearer, bearerKey, keyOnlyInV1Header } from './api-key-auth.js';
export { listApiKeys, revokeApiKey, anyApiKeyExists } from './api-key-queries.js';
export { createApiKey, DEFAULT_ROLL_GRACE_MS } from './api-keys.js';
export { debitCredits, lockSpendable } from './credit-queries.js';
export { CreditMeter, creditsExhausted } from './credits.js';
export { KeyVerifier } from './key-verifier.js';
export { loadPasswordEstimator } from './passwords.js';
export { requestSession, sessionCsrfValid, type RequestSession, type SignedInSession } from './portal/cookies.js';
export { FlashCookie, clipText } from './portal/flash.js';
export {
  pageContext,
  sendPage,
  CSRF_PROBLEM,
  CSRF_STATUS,
  PROBLEM_STATUS,
  signInFirst,
  type AccountServices,
  type WebDeps,
} from './portal/page-context.js';
export { profileRoutes } from './portal/profile-routes.js';
export { authRoutes } from './portal/sign-in-routes.js';
export { errors, settleCredits } from './pricing-routes.js';
export { AuthFailureLimiter, RateLimiter } from './rate-limits.js';
export { UsageRecorder } from './usage.js';
export { DEFAULT_SESSION_TTL_MS } from './web-sessions.js';
