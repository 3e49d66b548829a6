// The query parameters of the published Signalbase 2.2 document (July 2026) the signal endpoints
// take: sort_by/sort_order, date_preset, exclude_countries and the country categories, with the
// published names and values exactly (../shared/reference/signals-openapi-2026-07/).
import { Type } from '@sinclair/typebox';
import { ListString, MAX_SAFE, StringEnum } from './common.js';

/** Relative date ranges (UTC), as published; src/catalog/date-presets.ts says what each covers. */
export const DATE_PRESETS = [
  'today',
  'yesterday',
  'last_7d',
  'last_14d',
  'last_30d',
  'last_60d',
  'last_90d',
  'last_6m',
  'last_1y',
  'last_2y',
  'this_week',
  'this_month',
  'this_quarter',
  'this_year',
  'last_week',
  'last_month',
  'last_quarter',
  'last_year',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_ORDERS)[number];

/** The published sort fields of each endpoint; the dataset modules map them onto our columns. */
export const INVESTOR_SORT_FIELDS = ['name', 'created_at', 'ticket_size_min', 'ticket_size_max'] as const;
export const JOB_CHANGE_SORT_FIELDS = ['occurred_at', 'discovered_at', 'person_name', 'company_name'] as const;
export const ACQUISITION_SORT_FIELDS = ['occurred_at', 'discovered_at', 'amount', 'employee_count'] as const;
export const COMPANY_SORT_FIELDS = ['name', 'employee_count', 'founded_year', 'created_at'] as const;
export const HIRING_SORT_FIELDS = ['date_posted', 'created_at', 'title', 'company_name', 'location'] as const;
export const FUNDING_SORT_FIELDS = ['occurred_at', 'discovered_at', 'amount', 'employee_count', 'founded_year'] as const;

/** The published country categories `countries` and `exclude_countries` take besides ISO codes. */
export const COUNTRY_CATEGORIES = ['CEE', 'WE', 'NORDICS', 'NA', 'LATAM'] as const;
export type CountryCategory = (typeof COUNTRY_CATEGORIES)[number];

export const CATEGORY_NOTE =
  `Country categories stand for their members: ${COUNTRY_CATEGORIES.join(', ')} (case-insensitive; ` +
  '`NA` is North America, not Namibia).';

/** `date_preset`: a relative range of the endpoint's date, taking precedence over dateFrom/dateTo. */
export const datePreset = (what: string) =>
  Type.Optional({
    ...StringEnum(
      DATE_PRESETS,
      `Relative date range of ${what}, in whole UTC days (weeks start on Monday). Takes precedence over dateFrom/dateTo, ` +
        'which are then ignored. `last_7d` is today and the 6 days before it (`last_6m`, `last_1y`: back to the day ' +
        'after the same date 6 months, 1 year ago); `this_…` is the whole current week, month, quarter or year; ' +
        '`last_week` … `last_year` the whole previous one.',
    ),
    examples: ['last_1y'],
  });

/** `sort_by` over an endpoint's published fields. */
export const sortBy = <T extends readonly string[]>(fields: T, fallback: T[number], mapping: string) =>
  Type.Optional({
    ...StringEnum(fields, `Field to sort by (${mapping}). Records without a value come last; ties go by a stable id.`),
    default: fallback,
  });

export const sortOrder = Type.Optional({
  ...StringEnum(SORT_ORDERS, 'Sort direction, for sort_by (its default included) and for the tie-break'),
  default: 'desc',
});

/** `amount_min` / `amount_max`: an inclusive bound on the amount, in whole units of its own currency. */
export const amountBound = (bound: 'min' | 'max', example: number) =>
  Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_SAFE,
      description:
        `${bound === 'min' ? 'Minimum' : 'Maximum'} amount, inclusive, in whole units of the deal's currency (not cents; ` +
        'amounts in other currencies are not converted). Records without an amount never match.',
      examples: [example],
    }),
  );

/** `exclude_countries`: the denylist next to `countries`. */
export const excludeCountries = Type.Optional(
  ListString({
    description:
      'Comma-separated countries to leave out: ISO 3166 alpha-2 or alpha-3 codes or English country names (any case), or ' +
      'country categories. ' +
      `Records with an unknown country are kept. Combined with countries, both apply. ${CATEGORY_NOTE}`,
    examples: ['CN'],
  }),
);
