// query → filter helpers for the parameters of the published 2.2 document the signal endpoints
// share (src/catalog/schemas/published-params.ts): the denylist of countries, date presets and the order.
import type { DatePreset, SortDirection } from './schemas/published-params.js';
import { countryCodesOf } from './country-groups.js';
import { unknownCountryMessage } from './countries.js';
import { presetRange } from './date-presets.js';
import { invalidParameter } from './errors.js';
import { splitList } from './normalize.js';
import type { FilterContext, RowOrder } from './dataset.js';
import { dateBounds } from './query-filters.js';

/**
 * `exclude_countries`: countries by the one country rule (alpha-2, alpha-3, English names and the
 * usual aliases) and categories, any case, as
 * the lower-case keys stored rows carry. A record is left out when its country is one of them; one
 * with no country is kept.
 */
export function excludedCountryKeys(raw: string | undefined): string[] {
  const keys = new Set<string>();
  for (const value of splitList(raw)) {
    const codes = countryCodesOf(value);
    if (codes === undefined) throw invalidParameter(unknownCountryMessage('exclude_countries', value), 'exclude_countries');
    for (const code of codes) keys.add(code.toLowerCase());
  }
  return [...keys];
}

/**
 * The range of dates a query asks for, as [from, before) timestamps: `date_preset`, counted from
 * the request's time, when given (dateFrom and dateTo are then ignored, their order unchecked);
 * else dateFrom/dateTo, inclusive UTC dates (dateFrom after dateTo is a 400).
 */
export function dateRange(
  query: { dateFrom?: string; dateTo?: string; date_preset?: DatePreset },
  context: FilterContext | undefined,
): { from?: string; before?: string } {
  if (query.date_preset !== undefined) return presetRange(query.date_preset, context?.now ?? new Date());
  return dateBounds(query.dateFrom, query.dateTo, ['dateFrom', 'dateTo']);
}

/** An inclusive range of two parameters; its minimum above its maximum is a 400 naming the minimum. */
export function inclusiveRange(min: number | undefined, max: number | undefined, [minName, maxName]: [string, string]) {
  if (min !== undefined && max !== undefined && min > max) {
    throw invalidParameter(`${minName} (${min}) must not be more than ${maxName} (${max})`, minName);
  }
  return { min, max };
}

/** `amount_min` / `amount_max` (inclusive); amount_min above amount_max is a 400 naming amount_min. */
export function amountRange(query: { amount_min?: number; amount_max?: number }): { minAmount?: number; maxAmount?: number } {
  const { min, max } = inclusiveRange(query.amount_min, query.amount_max, ['amount_min', 'amount_max']);
  return { ...(min !== undefined && { minAmount: min }), ...(max !== undefined && { maxAmount: max }) };
}

/**
 * The order `sort_by` and `sort_order` ask for, by the column each published field maps to;
 * undefined when neither is sent (the index's own order, which is `fallback` descending).
 * `sort_order` alone applies to the fallback field, as published (its default).
 */
export function sortOrder<Field extends string, Row>(
  query: { sort_by?: Field; sort_order?: SortDirection },
  columns: Readonly<Record<Field, keyof Row & string>>,
  fallback: NoInfer<Field>,
): RowOrder<Row> | undefined {
  if (query.sort_by === undefined && query.sort_order === undefined) return undefined;
  return { column: columns[query.sort_by ?? fallback], direction: query.sort_order ?? 'desc' };
}
