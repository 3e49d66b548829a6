// Each matched company's signals, as the v2 lists serve them: the newest N of each type and how
// many there are, read from the read model's indexes at one snapshot for a whole chunk of companies
// (a `key` lookup per company and type; documents from the cache or one statement by primary key).
import { acquisitions, fundingSignals, hiring, investors, jobChanges, type AnyDataset } from '../catalog/index.js';
import type { PageAsk, ReadModel } from '../read/index.js';
import { SIGNAL_TYPES, type SignalType } from './schemas.js';

/** Where each type's records are, and the link column that names the company. */
const SOURCES: Record<SignalType, { dataset: AnyDataset; column: string }> = {
  funding: { dataset: fundingSignals as unknown as AnyDataset, column: 'company_id' },
  acquisition: { dataset: acquisitions as unknown as AnyDataset, column: 'company_id' },
  hiring: { dataset: hiring as unknown as AnyDataset, column: 'company_id' },
  // The people who joined the company: what its own job-change list (company_domain) shows.
  job_change: { dataset: jobChanges as unknown as AnyDataset, column: 'company_id' },
  // The company as an investor firm.
  investors: { dataset: investors as unknown as AnyDataset, column: 'company_id' },
};

export interface CompanySignals {
  lists: Record<SignalType, object[]>;
  counts: Record<SignalType, number>;
}

/** The signals of each company (by id), `perType` newest of each type. */
export async function signalsOf(
  readModel: ReadModel,
  companyIds: readonly string[],
  perType: number,
): Promise<Map<string, CompanySignals>> {
  const unique = [...new Set(companyIds)];
  const asks: PageAsk[] = unique.flatMap((id) =>
    SIGNAL_TYPES.map((type) => ({
      dataset: SOURCES[type].dataset,
      conditions: [{ column: SOURCES[type].column, op: 'in' as const, values: [id] }],
      limit: perType,
      served: true,
    })),
  );
  const pages = asks.length === 0 ? [] : await readModel.read(asks);
  const signals = new Map<string, CompanySignals>();
  unique.forEach((id, i) => {
    const lists = {} as CompanySignals['lists'];
    const counts = {} as CompanySignals['counts'];
    SIGNAL_TYPES.forEach((type, j) => {
      const page = pages[i * SIGNAL_TYPES.length + j]!;
      lists[type] = page.records.map((record) => JSON.parse(record.doc) as object);
      counts[type] = page.total;
    });
    signals.set(id, { lists, counts });
  });
  return signals;
}
