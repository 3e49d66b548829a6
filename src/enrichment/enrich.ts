// Enriching one chunk of a job's inputs: each matched to a company (matching.ts) and given the
// company's signals (signals.ts); the summary's counts kept as the chunks go.
import { urlKey } from '../catalog/index.js';
import type { Queryable } from '../platform/db/index.js';
import type { ReadModel } from '../read/index.js';
import { identifiersOf } from './inputs.js';
import { matchCompanies } from './matching.js';
import { signalsOf } from './signals.js';
import { type EnrichmentResult, type SignalType, type Summary } from './schemas.js';

export const emptySummary = (totalInputs: number): Summary => ({
  totalInputs,
  matched: 0,
  unmatched: 0,
  withFundingSignals: 0,
  withAcquisitionSignals: 0,
  withHiringSignals: 0,
  withJobChangeSignals: 0,
  ambiguous: 0,
});

const NO_SIGNALS = (): EnrichmentResult['signals'] => ({
  funding: [],
  acquisition: [],
  hiring: [],
  job_change: [],
  investors: [],
});
const NO_COUNTS = (): Record<SignalType, number> => ({ funding: 0, acquisition: 0, hiring: 0, job_change: 0, investors: 0 });

/** The results of these inputs, in order. */
export async function enrichChunk(
  db: Queryable,
  readModel: ReadModel,
  inputs: readonly Record<string, string>[],
  signalsPerType: number,
): Promise<EnrichmentResult[]> {
  const matches = await matchCompanies(db, inputs.map(identifiersOf));
  const signals = await signalsOf(
    readModel,
    matches.flatMap((match) => (match.company ? [match.company.id] : [])),
    signalsPerType,
  );
  return inputs.map((input, i): EnrichmentResult => {
    const { company, confidence, field, candidates } = matches[i]!;
    const found = company ? signals.get(company.id) : undefined;
    return {
      input,
      matched: company !== null,
      companyId: company?.id ?? null,
      company:
        company === null
          ? null
          : {
              name: company.name,
              domain: urlKey(company.website),
              industry: company.industry,
              country: company.headquartersCountry,
              employeeCount: company.employeeCount,
            },
      signals: found ? { ...NO_SIGNALS(), ...found.lists } : NO_SIGNALS(),
      match_confidence: confidence,
      matchedField: field,
      ...(candidates !== undefined && { candidates }),
      signalCounts: found ? found.counts : NO_COUNTS(),
    };
  });
}

/** The summary with these results counted in. */
export function addToSummary(summary: Summary, results: readonly EnrichmentResult[]): Summary {
  const next = { ...summary };
  for (const result of results) {
    if (result.matched) next.matched++;
    else next.unmatched++;
    if (result.candidates !== undefined) next.ambiguous++;
    const counts = result.signalCounts;
    if (counts.funding > 0) next.withFundingSignals++;
    if (counts.acquisition > 0) next.withAcquisitionSignals++;
    if (counts.hiring > 0) next.withHiringSignals++;
    if (counts.job_change > 0) next.withJobChangeSignals++;
  }
  return next;
}
