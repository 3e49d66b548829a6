// GET /api/v2/people: the published People API's query and record (people.openapi.json), one
// schema each for validation, types, serialisation and the OpenAPI document.
import { Type, type Static } from '@sinclair/typebox';
import { ListString, MAX_PAGE, MetaRef, Nullable, Pagination, StringEnum } from '../catalog/index.js';
import { DEPARTMENTS, SENIORITIES } from '../catalog/index.js';

/** The published company size bands, smallest first, with the employee counts each holds. */
export const SIZE_BANDS = ['1-10', '11-50', '51-100', '101-250', '251-500', '501-1000', '1000-plus'] as const;
export type SizeBand = (typeof SIZE_BANDS)[number];
const BAND_TOPS = [10, 50, 100, 250, 500, 1000, Infinity];

/** The band of an employee count; null when unknown. */
export function sizeBand(employees: number | null | undefined): SizeBand | null {
  if (employees === null || employees === undefined || !Number.isFinite(employees) || employees < 1) return null;
  return SIZE_BANDS[BAND_TOPS.findIndex((top) => employees <= top)]!;
}

export const PERSON_SIGNAL_TYPES = ['funding_round', 'acquisition', 'job_change'] as const;
export type PersonSignalType = (typeof PERSON_SIGNAL_TYPES)[number];

// Each example names one person of the demo data: alone or all together, they find them.
const text = (description: string, example?: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description, ...(example && { examples: [example] }) }));
const list = (description: string, example: string) =>
  Type.Optional(ListString({ minLength: 1, maxLength: 1000, description, examples: [example] }));

export const PeopleQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number' })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        default: 100,
        description: 'People per page, 1 to 100 (default 100, as published)',
      }),
    ),
    title: list(
      'Job title or comma-separated titles. Each matches a title holding its words as consecutive whole words (case ' +
        'and accents ignored: `COO` matches neither `Cook` nor `Coordinator`), or exactly those words, and every title of ' +
        'the same role in the role taxonomy (`CTO` and `Chief Technology Officer`). A title held for another ' +
        '(`Assistant to the CEO`) does not match the role it names.',
      'CTO',
    ),
    function: list(`Comma-separated function ids: ${DEPARTMENTS.join(', ')}. Unknown values return 400.`, 'engineering'),
    seniority: list(`Comma-separated seniority ids: ${SENIORITIES.join(', ')}. Unknown values return 400.`, 'c_level'),
    country: list(
      "Country code or comma-separated codes (ISO 3166-1 alpha-2; alpha-3 and English names are accepted too). Matches the company's country (no source gives a person's own country yet).",
      'US',
    ),
    exclude_countries: list(
      'Comma-separated country codes to exclude: a person whose company is in one of them is left out; an unknown country is kept.',
      'CN',
    ),
    city: text(
      "City, matched as a case-insensitive part of the person's city. No source gives a person's city yet (`city` is null on every record), so this filter matches no one today.",
    ),
    company_size: list(
      `Comma-separated company size bands: ${SIZE_BANDS.join(', ')}, matched against the company's employee count. People whose company's headcount is unknown are excluded when set. Unknown values return 400.`,
      '501-1000',
    ),
    industry: list(
      "Industry or comma-separated industries (case-insensitive exact match on the company's industry).",
      'Telecommunications',
    ),
    linkedin_url: text(
      "A person's LinkedIn profile URL (`/in/` or `/pub/`): that person. Scheme, `www.` and a trailing slash are ignored. Invalid syntax returns 400; no match returns no data. Sets the default `signal_date_range` to all time.",
      'https://www.linkedin.com/in/long-tang-79bf82',
    ),
    company_domain: text(
      "A company's website domain: the people at that company. Scheme, `www.`, port, path and trailing slash are ignored. Invalid syntax returns 400. Sets the default `signal_date_range` to all time.",
      'magnolia.com',
    ),
    company_linkedin_url: text(
      "A company's LinkedIn page: the people at that company. Invalid syntax returns 400. Sets the default `signal_date_range` to all time.",
      'https://www.linkedin.com/company/magnolia',
    ),
    signal_type: list(
      `Comma-separated signal types \`matched_signal\` is chosen from: ${PERSON_SIGNAL_TYPES.join(', ')}. Default: any. Unknown values return 400.`,
      'job_change',
    ),
    signal_date_range: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 10,
        description:
          'Lookback window for the matched signal, `<n><unit>` with unit `d`, `w`, `m` or `y` (`30d`, `6m`, `2y`; 1 to 100 years in all): signals on or after now minus that span. Default `12m`, but all time when `linkedin_url`, `company_domain` or `company_linkedin_url` is set. Malformed or out-of-range values return 400.',
        examples: ['6m'],
      }),
    ),
    include_former: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 10,
        description: 'Only `false` is supported (the default): people are served in their current role. `true` returns 400.',
        examples: ['false'],
      }),
    ),
    count: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Count mode: `true` returns `data: []` with full pagination and costs no credits',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PeopleQuery = Static<typeof PeopleQuery>;

export const MatchedSignal = Type.Object(
  {
    type: StringEnum(PERSON_SIGNAL_TYPES, 'Signal type'),
    date: Type.String({ format: 'date', description: 'Signal date (YYYY-MM-DD, UTC)' }),
    summary: Type.String({ description: 'What happened, in a sentence' }),
    source_url: Nullable(Type.String({ format: 'uri', description: 'Where it was seen, when known' })),
  },
  {
    $id: 'MatchedSignal',
    title: 'MatchedSignal',
    description:
      "The latest of the person's signals that matched the filters: the reason to reach out now (not necessarily their newest overall signal; see `is_latest_signal`).",
  },
);

export const PersonCompany = Type.Object(
  {
    name: Nullable(Type.String()),
    domain: Nullable(Type.String({ description: 'Website domain (scheme and `www.` stripped)' })),
    linkedin_url: Nullable(Type.String({ format: 'uri' })),
    country: Nullable(Type.String({ description: 'Headquarters country (ISO 3166-1 alpha-2)' })),
    city: Nullable(Type.String({ description: 'Always null: companies carry no city yet' })),
    size_band: Nullable(StringEnum(SIZE_BANDS, 'Size band of the employee count; null when unknown')),
    industry: Nullable(Type.String()),
  },
  { $id: 'PersonCompany', title: 'PersonCompany', description: "The person's current company." },
);

export const PersonRecord = Type.Object(
  {
    name: Nullable(Type.String({ description: 'Masked as published: first name and last initial (`Sarah K.`)' })),
    linkedin_url: Nullable(Type.String({ format: 'uri' })),
    title: Nullable(Type.String()),
    status: StringEnum(['active'] as const, 'Always `active`: people are served in their current role'),
    city: Nullable(Type.String({ description: "Always null: no source gives a person's city yet" })),
    company: Type.Ref(PersonCompany),
    is_latest_signal: Type.Boolean({ description: "Whether `matched_signal` is also the person's newest signal of any type" }),
    matched_signal: Type.Ref(MatchedSignal),
  },
  { $id: 'Person', title: 'Person' },
);
export type PersonRecord = Static<typeof PersonRecord>;

export const PeopleResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Type.Ref(PersonRecord)),
  pagination: Type.Ref(Pagination),
  meta: MetaRef,
});

export const PEOPLE_SHARED_SCHEMAS = [MatchedSignal, PersonCompany, PersonRecord];
