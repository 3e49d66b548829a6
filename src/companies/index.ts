// Companies: resolving the companies records name (when they are written) to one company each.
export { CompanyLinker, COMPANY_NAMESPACE, type CompanyLink, type FetchedCandidates, type LinkedBatch } from './linker.js';
export { adoptionOf, applyLinks, fetchLinks, linkRows, mentionsOf, type RowMentions } from './link-rows.js';
export { resolveAll, type ResolveOptions, type ResolveReport } from './resolve.js';
export { companyRoutes } from './routes.js';
export { companyProfile, type CompanyProfile } from './profiles.js';
export { companiesByKeys, companyDocuments, type CompanyKeyRow } from './queries.js';
