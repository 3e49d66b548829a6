import type { Queryable } from '../db/port.js';
import { listMa, type MaRow } from '../db/queries/ma.js';
import type { DealStatus, MaParams, MaQuery, MaRecord } from '../schemas/v1.js';

export type { DealStatus };
import type { PageResultCache } from '../db/page-results.js';
import type { V1Page } from './funding.js';
import { slugify, splitList } from './normalize.js';
import { companyFilter, companyKeys, pageOffset, V1_PAGE_SIZE } from './v1-filters.js';

export async function listMergers(db: Queryable, pageResults: PageResultCache, query: MaQuery): Promise<V1Page<MaParams>> {
  const filter = {
    ...companyFilter(query),
    minAmount: query.amount,
    status: query.status,
    acquirerContains: query.acquiring_company?.trim().toLowerCase(),
  };
  const { page, offset } = pageOffset(query.page);
  const result = await listMa(db, pageResults, filter, V1_PAGE_SIZE, offset);
  return {
    params: {
      category: splitList(query.category),
      amount: query.amount ?? null,
      country: query.country ?? null,
      status: query.status ?? null,
      acquiring_company: query.acquiring_company ?? null,
      date_from: query.date_from ?? null,
      date_to: query.date_to ?? null,
    },
    dataJson: result.dataJson,
    total: result.total,
    page,
    perPage: V1_PAGE_SIZE,
  };
}

export function prepareMaRow(record: MaRecord, status: DealStatus): MaRow {
  const doc: MaRecord = { ...record, name_path: record.name_path || slugify(record.company_name) };
  return {
    investment_id: record.investment_id,
    status,
    acquisition_amount: record.acquisition_amount,
    acquirer_key: record.acquired_by.toLowerCase(),
    ...companyKeys(record),
    sort_at: record.date_seen,
    doc: JSON.stringify(doc),
  };
}
