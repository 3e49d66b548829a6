// ISO 3166-1 alpha-2 codes, their alpha-3 codes, English names from ICU and the aliases people type:
// the one country rule of every country parameter, filter and stored value (v1 `country`, v2
// `countries` and `exclude_countries`, webhook filters, ingested records), any case.

const ISO_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
  'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
  'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
  'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
  'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

/** ISO 3166-1 alpha-3 codes, as alpha-2:alpha-3 pairs; the map goes from alpha-3 to alpha-2. */
const ALPHA_3 = new Map(
  (
    'AD:AND AE:ARE AF:AFG AG:ATG AI:AIA AL:ALB AM:ARM AO:AGO AQ:ATA AR:ARG AS:ASM AT:AUT AU:AUS AW:ABW AX:ALA ' +
    'AZ:AZE BA:BIH BB:BRB BD:BGD BE:BEL BF:BFA BG:BGR BH:BHR BI:BDI BJ:BEN BL:BLM BM:BMU BN:BRN BO:BOL BQ:BES ' +
    'BR:BRA BS:BHS BT:BTN BV:BVT BW:BWA BY:BLR BZ:BLZ CA:CAN CC:CCK CD:COD CF:CAF CG:COG CH:CHE CI:CIV CK:COK ' +
    'CL:CHL CM:CMR CN:CHN CO:COL CR:CRI CU:CUB CV:CPV CW:CUW CX:CXR CY:CYP CZ:CZE DE:DEU DJ:DJI DK:DNK DM:DMA ' +
    'DO:DOM DZ:DZA EC:ECU EE:EST EG:EGY EH:ESH ER:ERI ES:ESP ET:ETH FI:FIN FJ:FJI FK:FLK FM:FSM FO:FRO FR:FRA ' +
    'GA:GAB GB:GBR GD:GRD GE:GEO GF:GUF GG:GGY GH:GHA GI:GIB GL:GRL GM:GMB GN:GIN GP:GLP GQ:GNQ GR:GRC GS:SGS ' +
    'GT:GTM GU:GUM GW:GNB GY:GUY HK:HKG HM:HMD HN:HND HR:HRV HT:HTI HU:HUN ID:IDN IE:IRL IL:ISR IM:IMN IN:IND ' +
    'IO:IOT IQ:IRQ IR:IRN IS:ISL IT:ITA JE:JEY JM:JAM JO:JOR JP:JPN KE:KEN KG:KGZ KH:KHM KI:KIR KM:COM KN:KNA ' +
    'KP:PRK KR:KOR KW:KWT KY:CYM KZ:KAZ LA:LAO LB:LBN LC:LCA LI:LIE LK:LKA LR:LBR LS:LSO LT:LTU LU:LUX LV:LVA ' +
    'LY:LBY MA:MAR MC:MCO MD:MDA ME:MNE MF:MAF MG:MDG MH:MHL MK:MKD ML:MLI MM:MMR MN:MNG MO:MAC MP:MNP MQ:MTQ ' +
    'MR:MRT MS:MSR MT:MLT MU:MUS MV:MDV MW:MWI MX:MEX MY:MYS MZ:MOZ NA:NAM NC:NCL NE:NER NF:NFK NG:NGA NI:NIC ' +
    'NL:NLD NO:NOR NP:NPL NR:NRU NU:NIU NZ:NZL OM:OMN PA:PAN PE:PER PF:PYF PG:PNG PH:PHL PK:PAK PL:POL PM:SPM ' +
    'PN:PCN PR:PRI PS:PSE PT:PRT PW:PLW PY:PRY QA:QAT RE:REU RO:ROU RS:SRB RU:RUS RW:RWA SA:SAU SB:SLB SC:SYC ' +
    'SD:SDN SE:SWE SG:SGP SH:SHN SI:SVN SJ:SJM SK:SVK SL:SLE SM:SMR SN:SEN SO:SOM SR:SUR SS:SSD ST:STP SV:SLV ' +
    'SX:SXM SY:SYR SZ:SWZ TC:TCA TD:TCD TF:ATF TG:TGO TH:THA TJ:TJK TK:TKL TL:TLS TM:TKM TN:TUN TO:TON TR:TUR ' +
    'TT:TTO TV:TUV TW:TWN TZ:TZA UA:UKR UG:UGA UM:UMI US:USA UY:URY UZ:UZB VA:VAT VC:VCT VE:VEN VG:VGB VI:VIR ' +
    'VN:VNM VU:VUT WF:WLF WS:WSM YE:YEM YT:MYT ZA:ZAF ZM:ZMB ZW:ZWE '
  )
    .trim()
    .split(' ')
    .map((pair) => [pair.slice(3), pair.slice(0, 2)] as const),
);

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

/** The upper-case ISO alpha-2 code for an alpha-2 or alpha-3 code or an English name (any case), or undefined. */
export function countryCode(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed.length === 2 && byCode.has(trimmed.toUpperCase())) return trimmed.toUpperCase();
  if (trimmed.length === 3 && ALPHA_3.has(trimmed.toUpperCase())) return ALPHA_3.get(trimmed.toUpperCase());
  return byName.get(trimmed.toLowerCase().replace(/\s+/g, ' '));
}

/** The one answer to a country value no rule recognises, whatever parameter or filter it came in. */
export function unknownCountryMessage(name: string, value: string): string {
  return (
    `${name}: "${value}" is not a country: use an ISO 3166 alpha-2 or alpha-3 code or an English country name ` +
    '(e.g. US, USA or United States), any case'
  );
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
