// One company and a summary of its signals: GET /api/v2/companies/{id} and /lookup. Answered from the
// read model's indexes (src/read): each kind of signal is a page of the records linked to the company
// (company resolution), read together at one snapshot, so a profile costs index lookups and at most
// one statement by primary key for the documents not kept in memory.
import {
  acquisitions,
  companies,
  DEPARTMENTS,
  funding,
  hiring,
  invalidParameter,
  jobChanges,
  mA,
  publishedRoundType,
  urlKey,
  type CompanyRecord,
  type Condition,
  type FundingRecord,
} from '../catalog/index.js';
import type { Static } from '@sinclair/typebox';
import type { CompanySignals } from '../catalog/index.js';
import type { PageAsk, PageRecords, ReadModel } from '../read/index.js';

export type CompanyProfile = CompanyRecord & { signals: Static<typeof CompanySignals> };

/** How a profile names its company: by id, website domain or LinkedIn page. */
export type CompanyRef = { id: string } | { websiteKey: string } | { linkedinKey: string };

/** The rounds whose documents a profile reads at first; a company with more is read again with all of them. */
const ROUNDS_READ = 100;

/** Investors named in a profile, at most (the first in code-point order). */
const INVESTORS_LISTED = 50;

/** Companies read for a lookup by domain or LinkedIn page: more than one is rare (two imported with the same site). */
const LOOKUP_CANDIDATES = 20;

const DAY_MS = 86_400_000;

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
export async function companyProfile(readModel: ReadModel, by: CompanyRef, now: Date): Promise<CompanyProfile | undefined> {
  if ('id' in by) {
    // The company and its signals in one read.
    const [company, ...signals] = await readSignals(readModel, by.id, now, [companyAsk('record_id', by.id, 1)]);
    const doc = company!.records[0]?.doc;
    return doc === undefined ? undefined : profileOf(JSON.parse(doc) as CompanyRecord, signals);
  }
  const [column, key] = 'websiteKey' in by ? ['website_key', by.websiteKey] : ['linkedin_key', by.linkedinKey];
  const [candidates, imported] = await readModel.read([
    companyAsk(column, key, LOOKUP_CANDIDATES),
    companyAsk(column, key, LOOKUP_CANDIDATES, [IMPORTED]),
  ]);
  // Imported first, then the oldest (the lowest row id), as resolution picks among equal candidates.
  const pick = [imported!, candidates!]
    .find((found) => found.records.length > 0)
    ?.records.reduce((a, b) => (b.id < a.id ? b : a));
  if (pick === undefined) return undefined;
  const company = JSON.parse(pick.doc) as CompanyRecord;
  return profileOf(company, await readSignals(readModel, company.id, now, []));
}

const IMPORTED: Condition<Record<string, unknown>> = { column: 'origin', op: 'equals', value: 'import' };

function companyAsk(column: string, value: string, limit: number, also: Condition<Record<string, unknown>>[] = []): PageAsk {
  return { dataset: companies, conditions: [{ column, op: 'in', values: [value] }, ...also], limit };
}

/** `first`, then the pages a summary reads: rounds, deals as target and as acquirer, joined and left per window, the latest acquisition signal. */
async function readSignals(readModel: ReadModel, id: string, now: Date, first: PageAsk[]): Promise<PageRecords[]> {
  const linked = (column: string): Condition<Record<string, unknown>> => ({ column, op: 'in', values: [id] });
  // Job changes up to now (a record dated later is not counted), from each window's start.
  const until: Condition<Record<string, unknown>> = {
    column: 'sort_at',
    op: 'below',
    value: new Date(now.getTime() + 1).toISOString(),
  };
  // A posting is open while its validThrough (expires_at) has not passed.
  const open: Condition<Record<string, unknown>> = { column: 'expires_at', op: 'atLeast', value: now.toISOString() };
  const moves = (column: string) =>
    WINDOWS.map((days): PageAsk => ({
      dataset: jobChanges,
      conditions: [
        linked(column),
        { column: 'sort_at', op: 'atLeast', value: new Date(now.getTime() - days * DAY_MS).toISOString() },
        until,
      ],
      limit: 0,
    }));
  const asks = (roundsRead: number): PageAsk[] => [
    ...first,
    { dataset: funding, conditions: [linked('company_id')], limit: roundsRead },
    { dataset: mA, conditions: [linked('company_id')], limit: 1 },
    { dataset: mA, conditions: [linked('acquirer_company_id')], limit: 1 },
    ...moves('company_id'),
    ...moves('previous_company_id'),
    { dataset: acquisitions, conditions: [linked('company_id')], limit: 1 },
    // Its postings: the latest (open or not), the open ones, the open ones per department.
    { dataset: hiring, conditions: [linked('company_id')], limit: 1 },
    { dataset: hiring, conditions: [linked('company_id'), open], limit: 0 },
    ...DEPARTMENTS.map((department): PageAsk => ({
      dataset: hiring,
      conditions: [linked('company_id'), open, { column: 'departments', op: 'overlaps', values: [department] }],
      limit: 0,
    })),
  ];
  const pages = await readModel.read(asks(ROUNDS_READ));
  const rounds = pages[first.length]!.total;
  // Every round is summed: a company with more than the first read's rounds is read again, all of them at one snapshot.
  return rounds <= ROUNDS_READ ? pages : readModel.read(asks(rounds));
}

const WINDOWS = [30, 90, 365] as const;

const day = (sortAt: number) => new Date(sortAt).toISOString().slice(0, 10);

function profileOf(company: CompanyRecord, pages: readonly PageRecords[]): CompanyProfile {
  const [rounds, asTarget, asAcquirer, joined30, joined90, joined365, left30, left90, left365, acquisition, latestPosting, open] =
    pages;
  const openByDepartment = pages.slice(12);
  const roundDocs = rounds!.records.map(({ doc }) => JSON.parse(doc) as FundingRecord);
  const raised = new Map<string, number>();
  const investors = new Set<string>();
  for (const round of roundDocs) {
    raised.set(round.currency, (raised.get(round.currency) ?? 0) + round.funding_amount);
    for (const investor of round.investors) if (investor.name != null) investors.add(investor.name);
  }
  const latestRound = rounds!.records[0];
  const latest = roundDocs[0];
  const latestDeal = Math.max(asTarget!.records[0]?.sortAt ?? -Infinity, asAcquirer!.records[0]?.sortAt ?? -Infinity);
  const signal = acquisition!.records[0];
  const signalDoc =
    signal && (JSON.parse(signal.doc) as { acquisitionSignalScore: number | null; signalIndicators?: string[] | null });
  return {
    ...company,
    signals: {
      fundingRounds: {
        count: rounds!.total,
        totalRaised: [...raised].sort(([a], [b]) => byCodePoints(a, b)).map(([currency, amount]) => ({ currency, amount })),
        latest:
          latestRound === undefined || latest === undefined
            ? null
            : {
                date: day(latestRound.sortAt),
                roundType: publishedRoundType(latest.round_type),
                amount: latest.funding_amount,
                currency: latest.currency,
              },
      },
      deals: {
        asTarget: asTarget!.total,
        asAcquirer: asAcquirer!.total,
        latestDate: Number.isFinite(latestDeal) ? day(latestDeal) : null,
      },
      jobChanges: {
        joined: { last30Days: joined30!.total, last90Days: joined90!.total, last365Days: joined365!.total },
        left: { last30Days: left30!.total, last90Days: left90!.total, last365Days: left365!.total },
      },
      acquisitionSignal:
        signal === undefined || signalDoc === undefined
          ? null
          : { score: signalDoc.acquisitionSignalScore, indicators: signalDoc.signalIndicators ?? [], date: day(signal.sortAt) },
      investors: [...investors].sort(byCodePoints).slice(0, INVESTORS_LISTED),
      hiring: {
        openPostings: open!.total,
        byDepartment: Object.fromEntries(DEPARTMENTS.map((department, i) => [department, openByDepartment[i]!.total])),
        latestDate: latestPosting!.records[0] === undefined ? null : day(latestPosting!.records[0].sortAt),
      },
    },
  };
}

/** Orders strings by their code points, as PostgreSQL's "C" collation and byte-wise UTF-8 do. */
function byCodePoints(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
