import type { components } from './generated/openapi.js';
import { Transport, type ClientOptions } from './http.js';
import {
  ChangesFeed,
  Companies,
  Enrichment,
  Monitors,
  SignalEndpoint,
  V1Dataset,
  Webhooks,
  type BodyOf,
  type QueryOf,
  type ResultOf,
  type SignalEndpointAt,
  type SignalPath,
} from './resources.js';

export { DealSignalError } from './errors.js';
export type { ErrorBody, V1ErrorBody, V2ErrorBody, WebhookErrorBody } from './errors.js';
export type { CallOptions, ClientOptions, RetryOptions } from './http.js';
export type {
  BodyOf,
  Change,
  ChangesPage,
  EnrichmentJob,
  EnrichmentResult,
  Monitor,
  MonitorTarget,
  PageCaps,
  QueryOf,
  QueryOfPath,
  ResultOf,
  ResultOfPath,
  SignalEndpointAt,
  SignalPath,
  V1Page,
  WaitOptions,
  Webhook,
} from './resources.js';
export { verifyWebhook, type VerifyOptions } from './signatures.js';
export type { components, operations, paths } from './generated/openapi.js';

type Schemas = components['schemas'];
/** The records each endpoint serves, by their schema names. */
export type FundingRound = Schemas['FundingRecord'];
export type Deal = Schemas['MaRecord'];
export type Investor = Schemas['Investor'];
export type JobChangeSignal = Schemas['JobChangeSignal'];
export type AcquisitionSignal = Schemas['AcquisitionSignal'];
export type FundingSignal = Schemas['FundingSignal'];
export type Company = Schemas['Company'];
export type Person = Schemas['Person'];

/**
 * The dealsignal API with one key: `v1` (funding rounds, M&A deals) and `v2` (signals, the changes
 * feed, webhooks). Every call is typed by the server's OpenAPI document.
 *
 * ```ts
 * const ds = new DealSignal({ apiKey: process.env.DEALSIGNAL_API_KEY!, baseUrl: 'https://api.example.com' });
 * for await (const investor of ds.v2.investors.all({ countries: 'US' }, { maxCredits: 10 })) console.log(investor.name);
 * ```
 */
export class DealSignal {
  readonly v1: {
    funding: V1Dataset<QueryOf<'listFunding'>, ResultOf<'listFunding'>, BodyOf<'lookupFunding'>, ResultOf<'lookupFunding'>>;
    /** Mergers and acquisitions (`/api/v1/m-a`). */
    deals: V1Dataset<
      QueryOf<'listMergersAndAcquisitions'>,
      ResultOf<'listMergersAndAcquisitions'>,
      BodyOf<'lookupMergersAndAcquisitions'>,
      ResultOf<'lookupMergersAndAcquisitions'>
    >;
  };
  readonly v2: {
    investors: SignalEndpoint<QueryOf<'getInvestors'>, ResultOf<'getInvestors'>>;
    jobChanges: SignalEndpoint<QueryOf<'getJobChangeSignals'>, ResultOf<'getJobChangeSignals'>>;
    hiring: SignalEndpoint<QueryOf<'getHiringSignals'>, ResultOf<'getHiringSignals'>>;
    acquisitions: SignalEndpoint<QueryOf<'getAcquisitionSignals'>, ResultOf<'getAcquisitionSignals'>>;
    funding: SignalEndpoint<QueryOf<'getFundingSignals'>, ResultOf<'getFundingSignals'>>;
    /** Companies (`/api/v2/companies`): `list`, `pages` and `all`, and one company (`get`, `lookup`). */
    companies: Companies;
    /** People at the companies that just moved, each with `matched_signal` (`/api/v2/people`): `list`, `pages`, `all`. */
    people: SignalEndpoint<QueryOf<'searchPeople'>, ResultOf<'searchPeople'>>;
    changes: ChangesFeed;
    webhooks: Webhooks;
    /** CSV enrichment jobs (`/api/v2/csv-enrichment`): `create`, `get`, `wait` and `results`. */
    enrichment: Enrichment;
    /** Monitors (`/api/v2/monitors`): watch lists of companies and their targets; `replay`. */
    monitors: Monitors;
    /**
     * Any v2 signal list by its path, typed by the server's document: the same `list`, `pages` and
     * `all` as the named ones (`ds.v2.endpoint('/api/v2/signals/investors')` is `ds.v2.investors`).
     * A list the server serves before this client names it is reachable at once.
     */
    endpoint<P extends SignalPath>(path: P): SignalEndpointAt<P>;
  };

  constructor(options: ClientOptions) {
    const transport = new Transport(options);
    this.v1 = {
      funding: new V1Dataset(transport, '/api/v1/funding'),
      deals: new V1Dataset(transport, '/api/v1/m-a'),
    };
    this.v2 = {
      investors: new SignalEndpoint(transport, '/api/v2/signals/investors'),
      jobChanges: new SignalEndpoint(transport, '/api/v2/signals/job-changes'),
      hiring: new SignalEndpoint(transport, '/api/v2/signals/hiring'),
      acquisitions: new SignalEndpoint(transport, '/api/v2/signals/acquisitions'),
      funding: new SignalEndpoint(transport, '/api/v2/signals/funding'),
      companies: new Companies(transport),
      people: new SignalEndpoint(transport, '/api/v2/people'),
      changes: new ChangesFeed(transport),
      webhooks: new Webhooks(transport),
      enrichment: new Enrichment(transport),
      monitors: new Monitors(transport),
      endpoint: <P extends SignalPath>(path: P): SignalEndpointAt<P> => new SignalEndpoint(transport, path),
    };
  }
}
