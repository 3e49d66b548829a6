// ISO 3166-1 alpha-2 codes, with English names from ICU and the aliases people type.

const ISO_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
  'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
  'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
  'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
  'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

const ALIASES: Record<string, string> = {
  usa: 'US',
  'united states of america': 'US',
  'u.s.': 'US',
  'u.s.a.': 'US',
  america: 'US',
  uk: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'czech republic': 'CZ',
  'republic of korea': 'KR',
  korea: 'KR',
  'the netherlands': 'NL',
  holland: 'NL',
  uae: 'AE',
  'russian federation': 'RU',
  'viet nam': 'VN',
  'ivory coast': 'CI',
  "cote d'ivoire": 'CI',
  'hong kong sar': 'HK',
  'hong kong sar china': 'HK',
  turkiye: 'TR',
  türkiye: 'TR',
};

const displayNames = new Intl.DisplayNames(['en'], { type: 'region' });
const byCode = new Map<string, string>();
const byName = new Map<string, string>();
for (const code of ISO_CODES) {
  const name = displayNames.of(code) ?? code;
  byCode.set(code, name);
  byName.set(name.toLowerCase(), code);
}
for (const [alias, code] of Object.entries(ALIASES)) byName.set(alias, code);

export function isIsoCountryCode(value: string): boolean {
  return byCode.has(value.trim().toUpperCase());
}

/** The upper-case ISO code for a code or an English name (any case), or undefined. */
export function countryCode(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed.length === 2 && byCode.has(trimmed.toUpperCase())) return trimmed.toUpperCase();
  return byName.get(trimmed.toLowerCase().replace(/\s+/g, ' '));
}

/** English display name of an ISO code ("US" -> "United States"). */
export function countryName(code: string): string {
  return byCode.get(code.toUpperCase()) ?? code;
}

/**
 * The key a stored country is indexed under: the lower-case ISO code when the value is
 * recognisable, else the lower-cased text, so unusual values are still matchable exactly.
 */
export function countryKey(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  return countryCode(value)?.toLowerCase() ?? value.trim().toLowerCase();
}
