// The published country categories (CEE, WE, NORDICS, NA, LATAM) and what `countries` and
// `exclude_countries` accept.
//
// The published enums page lists the five categories but not their members: the lists below are
// ours (the README shows them). They do not overlap. `NA` is also Namibia's ISO code: it means the
// North America category in both parameters, as the published page lists it among the categories
// usable there; Namibia is `Namibia` or `NAM` (by name or alpha-3 code) in both, as every country
// parameter takes the one country rule (src/catalog/countries.ts).
import type { CountryCategory } from './schemas/published-params.js';
import { COUNTRY_CATEGORIES } from './schemas/published-params.js';
import { countryCode } from './countries.js';

export const COUNTRY_CATEGORY_MEMBERS: Readonly<Record<CountryCategory, readonly string[]>> = {
  /** Central and Eastern Europe: the former Eastern Bloc and Yugoslavia west of the Caucasus, the Baltics included. */
  CEE: ['AL', 'BA', 'BG', 'BY', 'CZ', 'EE', 'HR', 'HU', 'LT', 'LV', 'MD', 'ME', 'MK', 'PL', 'RO', 'RS', 'RU', 'SI', 'SK', 'UA'],
  /** Western Europe: the rest of Europe west of CEE, the Nordic countries aside (the British Isles and the south included). */
  WE: ['AD', 'AT', 'BE', 'CH', 'CY', 'DE', 'ES', 'FR', 'GB', 'GR', 'IE', 'IT', 'LI', 'LU', 'MC', 'MT', 'NL', 'PT', 'SM', 'VA'],
  /** The Nordic countries, with the Faroe Islands, Greenland and Åland. */
  NORDICS: ['AX', 'DK', 'FI', 'FO', 'GL', 'IS', 'NO', 'SE'],
  /** North America: the United States and Canada (Mexico is in LATAM). */
  NA: ['CA', 'US'],
  /** Latin America and the Caribbean: Mexico, Central and South America, the Caribbean states, Puerto Rico. */
  LATAM: [
    'AG',
    'AR',
    'BB',
    'BO',
    'BR',
    'BS',
    'BZ',
    'CL',
    'CO',
    'CR',
    'CU',
    'DM',
    'DO',
    'EC',
    'GD',
    'GT',
    'GY',
    'HN',
    'HT',
    'JM',
    'KN',
    'LC',
    'MX',
    'NI',
    'PA',
    'PE',
    'PR',
    'PY',
    'SR',
    'SV',
    'TT',
    'UY',
    'VC',
    'VE',
  ],
};

const CATEGORY_BY_NAME = new Map<string, CountryCategory>(COUNTRY_CATEGORIES.map((name) => [name.toLowerCase(), name]));

/** The category a value names (any case), if it names one. */
export function countryCategory(value: string): CountryCategory | undefined {
  return CATEGORY_BY_NAME.get(value.trim().toLowerCase());
}

/**
 * The ISO alpha-2 codes (upper case) a value of `countries` or `exclude_countries` stands for: a
 * category's members, else the country by the one country rule (alpha-2, alpha-3, English name or
 * alias: "DE", "deu", "Germany"); undefined when it is none of these. A category comes first, so
 * "NA" (any case) is North America.
 */
export function countryCodesOf(value: string): readonly string[] | undefined {
  const category = countryCategory(value);
  if (category !== undefined) return COUNTRY_CATEGORY_MEMBERS[category];
  const code = countryCode(value);
  return code === undefined ? undefined : [code];
}
