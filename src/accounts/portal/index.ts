// The account portal: sign-in, the profile page and what other capabilities' pages share with it.
export { requestSession, sessionCsrfValid, type RequestSession, type SignedInSession } from './cookies.js';
export { FlashCookie, clipText } from './flash.js';
export {
  pageContext,
  sendPage,
  CSRF_PROBLEM,
  CSRF_STATUS,
  PROBLEM_STATUS,
  signInFirst,
  type AccountServices,
  type WebDeps,
} from './page-context.js';
export { profileRoutes } from './profile-routes.js';
export { authRoutes } from './sign-in-routes.js';
