export { countryName, countryCode, countryKey } from './countries.js';
export type {
  Dataset,
  DatasetEvents,
  DocumentView,
  PrepareContext,
  RecordExtras,
  StoredRow,
  V1Api,
  ValidQuery,
  SignalApi,
  ExtraField,
  RowOrder,
} from './dataset.js';
export { V1_PAGE_SIZE } from './datasets/v1-company-fields.js';
export {
  ApiError,
  invalidParameter,
  ERROR_V2_CODE,
  errorCodeOf,
  ERROR_STATUS,
  jsonSyntaxProblem,
  printable,
  type ErrorCode,
} from './errors.js';
export { labelKey, normaliseEmail, slugify, splitList, urlKey } from './normalize.js';
export { allowedValues, countryKeys } from './query-filters.js';
export { excludedCountryKeys } from './published-parameters.js';
export { companyIdentifiers } from './company-identifiers.js';
export { MAX_PAGE } from './schemas/common.js';
export {
  DATASET_NAMES,
  datasetNamed,
  isDatasetName,
  DATASETS,
  byDatasetName,
  eachSignalEndpoint,
  eachV1Endpoint,
  VIEWS,
  acquisitions,
  companies,
  funding,
  fundingSignals,
  hiring,
  investors,
  jobChanges,
  mA,
  type AnyDataset,
  type DatasetName,
} from './registry.js';
export { ListString, Nullable, StringEnum, isListParam, LIST_PARAM } from './schemas/common.js';
export {
  LOOKUP_MAX_RECORD_BYTES,
  LOOKUP_MAX_RESPONSE_BYTES,
  LOOKUP_RECORDS_PER_INPUT,
  LookupBody,
  LookupResponse,
  MAX_LOOKUP_INPUTS,
  LOOKUP_FIELDS,
  type LookupParams,
} from './schemas/lookup-schemas.js';
export {
  V1_SHARED_SCHEMAS,
  V1Error,
  FundingRecord,
  MaRecord,
  FundingQuery,
  FundingResponse,
  MaQuery,
  MaResponse,
  DEAL_STATUSES,
  type DealStatus,
} from './schemas/v1-schemas.js';
export { Meta, SIGNAL_ENDPOINTS, V2_SHARED_SCHEMAS } from './schemas/signal-meta.js';
export {
  V2Error,
  MetaRef,
  AcquisitionSignalRecord,
  CompanyRecord,
  CompaniesQuery,
  CompanyIdParams,
  CompanyLookupQuery,
  CompanyProfileResponse,
  CompanySignals,
  CompaniesResponse,
  COMPANY_SUBCATEGORIES,
  InvestorRecord,
  JobChangeRecord,
  AcquisitionsQuery,
  AcquisitionsResponse,
  FundingSignalsQuery,
  FundingSignalsResponse,
  InvestorsQuery,
  InvestorsResponse,
  JobChangesQuery,
  JobChangesResponse,
  type SignalEndpoint,
  type SignalMeta,
  Pagination,
} from './schemas/v2-schemas.js';
export { HiringPostingRecord, HiringQuery, HiringResponse, TEAM_SIZES, APPLICANT_RANGES } from './schemas/hiring-schemas.js';
export { collationKey, keyHash, searchWords } from './search-words.js';
export { classifyRole, DEPARTMENTS, POSITIONS, SENIORITIES } from './role-classifier.js';
export {
  compileRecordChecker,
  describeRecordProblems,
  checkQueryValues,
  compileRequestValidator,
  fieldPath,
} from './validation.js';
export { ENRICHMENT_ERROR_CODES, enrichmentErrorCode, WEBHOOK_ERROR_CODES, webhookErrorCode } from './errors.js';
export { MONITOR_ERROR_CODES, monitorErrorCode } from './errors.js';
export type { ColumnSpec } from './table-columns.js';
export type { ColumnKind } from './table-columns.js';
export type { Condition } from './conditions.js';
export { uuidV5 } from './uuid.js';
export {
  appendFields,
  mentionKeys,
  nameKey,
  MATCH_CONFIDENCES,
  type CompanyKeys,
  type CompanyLinkSpec,
  type CompanyMention,
  type MatchConfidence,
} from './company-links.js';
export type { CompanyRow } from './datasets/companies.js';
export { publishedRoundType } from './datasets/funding-signals.js';
