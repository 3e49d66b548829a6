// One company and a summary of its signals: GET /api/v2/companies/{id} and /lookup. The summary
// counts every record linked to the company (company resolution), read in one statement.
import { invalidParameter, publishedRoundType, urlKey, type CompanyRecord } from '../catalog/index.js';
import type { Static } from '@sinclair/typebox';
import type { CompanySignals } from '../catalog/index.js';
import type { Queryable } from '../platform/db/index.js';
import { companyDocument, signalCounts } from './queries.js';

export type CompanyProfile = CompanyRecord & { signals: Static<typeof CompanySignals> };

/** How a lookup names its company: by website domain or by LinkedIn page, exactly one of them. */
export function lookupKey(query: { domain?: string; linkedin_url?: string }): { websiteKey: string } | { linkedinKey: string } {
  if ((query.domain === undefined) === (query.linkedin_url === undefined)) {
    throw invalidParameter('send exactly one of domain and linkedin_url', query.domain === undefined ? 'domain' : 'linkedin_url');
  }
  const key = urlKey(query.domain ?? query.linkedin_url);
  if (key === null) throw invalidParameter(`${query.domain === undefined ? 'linkedin_url' : 'domain'}: must not be blank`);
  return query.domain === undefined ? { linkedinKey: key } : { websiteKey: key };
}

/** The company, with its signals counted up to `now`; undefined when no company is found. */
export async function companyProfile(
  db: Queryable,
  by: { id: string } | { websiteKey: string } | { linkedinKey: string },
  now: Date,
): Promise<CompanyProfile | undefined> {
  const doc = await companyDocument(db, by);
  if (doc === undefined) return undefined;
  const company = JSON.parse(doc) as CompanyRecord;
  const counts = await signalCounts(db, company.id, now);
  const latest = counts.latest_round;
  return {
    ...company,
    signals: {
      fundingRounds: {
        count: counts.rounds,
        totalRaised: counts.raised,
        latest:
          latest === null
            ? null
            : {
                date: latest.date,
                roundType: publishedRoundType(latest.round_type),
                amount: latest.amount,
                currency: latest.currency,
              },
      },
      deals: { asTarget: counts.deals_target, asAcquirer: counts.deals_acquirer, latestDate: counts.latest_deal },
      jobChanges: {
        joined: { last30Days: counts.joined_30, last90Days: counts.joined_90, last365Days: counts.joined_365 },
        left: { last30Days: counts.left_30, last90Days: counts.left_90, last365Days: counts.left_365 },
      },
      acquisitionSignal:
        counts.acquisition === null
          ? null
          : {
              score: counts.acquisition.score,
              indicators: counts.acquisition.indicators ?? [],
              date: counts.acquisition.date,
            },
      investors: counts.investors,
    },
  };
}
