// The `meta` of every v2 page, naming each v2 endpoint the registry declares: made after the
// registry (the datasets' envelopes refer to it by name, MetaRef), so a new dataset's endpoint
// joins the list with its declaration.
import { Type } from '@sinclair/typebox';
import { eachSignalEndpoint } from '../registry.js';
import { V2_RECORD_SCHEMAS, V2Error, type SignalMeta } from './v2-schemas.js';
import { HiringPostingRecord } from './hiring-schemas.js';

const endpoints: string[] = [];
eachSignalEndpoint((_, api) => {
  endpoints.push(api.endpoint);
});
// One company and its signals (GET /api/v2/companies/{id} and /lookup, src/companies).
endpoints.push('companies.get');
// People and their reasons to be called (GET /api/v2/people, src/people).
endpoints.push('people.list');

/** Every v2 signal endpoint's name, in the registry's order. */
export const SIGNAL_ENDPOINTS: readonly string[] = endpoints;

export const Meta = Type.Object(
  {
    endpoint: Type.Unsafe<SignalMeta['endpoint']>({ type: 'string', enum: [...SIGNAL_ENDPOINTS] }),
    creditsUsed: Type.Integer({ minimum: 0, description: '1 per page of data; 0 in count mode' }),
    creditsRemaining: Type.Integer({ minimum: 0, description: "The account's balance after this call" }),
  },
  { $id: 'Meta', title: 'Meta' },
);

/** The v2 schemas the documents and the routes refer to by name. */
export const V2_SHARED_SCHEMAS = [...V2_RECORD_SCHEMAS, HiringPostingRecord, Meta, V2Error];
