// Deterministic synthetic data for the v2 "signals" family: investors, job changes and
// acquisition signals. Every value comes from a seeded Mersenne Twister shared with a Faker
// instance, so the same seed, count and reference date always give the same records.
// Record streams are prefix-stable: the first N records do not depend on `count`.
// Per-record work draws from pools precomputed once per call, keeping the hot loops cheap.

import {
  da,
  de,
  en,
  en_GH,
  en_IN,
  en_NG,
  es,
  es_MX,
  fi,
  fr,
  id_ID,
  it,
  nb_NO,
  nl,
  pl,
  pt_BR,
  pt_PT,
  ro,
  sv,
  tr,
  yo_NG,
  type LocaleDefinition,
} from '@faker-js/faker';
import type { AcquisitionSignalRecord, InvestorRecord, JobChangeRecord } from '../schemas/v2.js';
import { countryName } from '../services/countries.js';
import { slugify } from '../services/normalize.js';
import { mersenneRandomizer, pickDistinct, Rng, Weighted } from './random.js';

type InvestorType = InvestorRecord['investorType'];

// ---------------------------------------------------------------------------------------------
// Randomness
// ---------------------------------------------------------------------------------------------

/** Independent streams per purpose, so pools and records never shift each other. */
const STREAM = {
  investors: 0x1f0e,
  investorPools: 0x1f0f,
  jobChanges: 0x2a11,
  jobChangePools: 0x2a12,
  acquisitions: 0x3b21,
} as const;

// ---------------------------------------------------------------------------------------------
// Formatting helpers
// ---------------------------------------------------------------------------------------------

const HOUR = 3_600_000;
const DAY = 86_400_000;

const PAD2 = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const dayStrings = new Map<number, string>();

/** YYYY-MM-DD of a UTC day number, memoised (the data spans a few thousand days at most). */
function dayString(day: number): string {
  let text = dayStrings.get(day);
  if (text === undefined) {
    text = new Date(day * DAY).toISOString().slice(0, 10);
    if (dayStrings.size > 50_000) dayStrings.clear();
    dayStrings.set(day, text);
  }
  return text;
}

/** ISO date-time with second precision and a Z suffix, e.g. 2024-11-15T10:30:00Z. */
function isoSeconds(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const day = Math.floor(seconds / 86_400);
  let rest = seconds - day * 86_400;
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  return `${dayString(day)}T${PAD2[h] as string}:${PAD2[m] as string}:${PAD2[rest - m * 60] as string}Z`;
}

function isoDay(ms: number): string {
  return dayString(Math.floor(ms / DAY));
}

/** A moment within `spanDays` before `nowMs`, denser towards `nowMs` as `power` grows above 1. */
function recentMs(rng: Rng, nowMs: number, spanDays: number, power: number): number {
  return Math.floor((nowMs - spanDays * DAY * Math.pow(rng.next(), power)) / 1000) * 1000;
}

/** Handles in URLs and domains ("Nimbus Labs" -> "nimbus-labs"): letters are folded to ASCII, "&" is dropped. */
function urlSlug(text: string, separator = '-'): string {
  return slugify(text, { separator, ampersand: '', foldLetters: true });
}

const LEGAL_SUFFIX_RE =
  /[,\s]+(inc\.?|llc|ltd\.?|limited|plc|corp\.?|gmbh|ag|sas|sa|s\.a\.|b\.v\.|ab|pvt ltd|private limited|pty ltd|k\.k\.|co\., ltd\.|s\.l\.|s\.r\.l\.|s\.p\.a\.|ltda\.)$/i;

function withoutLegalSuffix(name: string): string {
  return name.replace(LEGAL_SUFFIX_RE, '');
}

/** Rounds to a "nice" amount: 1, 1.5, 2, 2.5, 3, 4, 5, 7.5 times a power of ten. */
function niceAmount(value: number): number {
  const magnitude = Math.pow(10, Math.floor(Math.log10(value)));
  const steps = [1, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10];
  const scaled = value / magnitude;
  let best = 1;
  for (const step of steps) if (Math.abs(step - scaled) < Math.abs(best - scaled)) best = step;
  return Math.round(best * magnitude);
}

function usd(value: number): string {
  const trim = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1).replace(/\.0$/, ''));
  if (value >= 1e9) return `$${trim(value / 1e9)}B`;
  if (value >= 1e6) return `$${trim(value / 1e6)}M`;
  if (value >= 1e3) return `$${trim(value / 1e3)}K`;
  return `$${value}`;
}

function listPhrase(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** "the United States", "the Netherlands", "Germany": a country name as used mid-sentence. */
function inCountry(country: CountryInfo): string {
  return /^(United |Netherlands|Philippines|Czech Republic)/.test(country.name) ? `the ${country.name}` : country.name;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Keeps trying fresh names, then qualifies a repeated one, so names stay unique within a call. */
function uniqueName(taken: Set<string>, draw: () => string, qualifiers: readonly string[], rng: Rng): string {
  for (let attempt = 0; attempt < 4; attempt++) {
    const name = draw();
    if (!taken.has(name.toLowerCase())) {
      taken.add(name.toLowerCase());
      return name;
    }
  }
  const stem = draw();
  const start = rng.int(0, qualifiers.length - 1);
  for (let i = 0; i < qualifiers.length; i++) {
    const name = `${stem} ${qualifiers[(start + i) % qualifiers.length]}`;
    if (!taken.has(name.toLowerCase())) {
      taken.add(name.toLowerCase());
      return name;
    }
  }
  for (let n = 2; ; n++) {
    const name = `${stem} ${ROMAN[n] ?? n}`;
    if (!taken.has(name.toLowerCase())) {
      taken.add(name.toLowerCase());
      return name;
    }
  }
}

/** A slug not yet in `taken`; LinkedIn-style numeric suffixes break ties. */
function uniqueSlug(taken: Set<string>, slug: string, separator = '-'): string {
  let candidate = slug;
  for (let n = 2; taken.has(candidate); n++) candidate = `${slug}${separator}${n}`;
  taken.add(candidate);
  return candidate;
}

const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];

// ---------------------------------------------------------------------------------------------
// Geography
// ---------------------------------------------------------------------------------------------

interface Place {
  city: string;
  region: string;
}

interface CountryInfo {
  code: string;
  name: string;
  /** Short form for compounds ("U.S.-based", "UK Innovation Fund"). */
  short: string;
  demonym: string;
  /** Local top-level domain, used by about half the companies there. */
  tld: string;
  /** Whether the region is a state/province that is always shown. */
  states: boolean;
  legal: readonly string[];
  places: Weighted<Place>;
  placeList: readonly Place[];
}

// code, weight, demonym, tld, states shown, legal suffixes, "City|Region|weight;..."
const COUNTRY_DATA: ReadonlyArray<readonly [string, number, string, string, boolean, string, string]> = [
  [
    'US',
    45,
    'American',
    'com',
    true,
    'Inc|Inc.|LLC|Corp.',
    'San Francisco|California|16;New York|New York|16;Palo Alto|California|5;Menlo Park|California|4;Mountain View|California|2;' +
      'Redwood City|California|2;San Mateo|California|1.5;San Jose|California|1.5;Los Angeles|California|6;Santa Monica|California|2;' +
      'San Diego|California|2;Boston|Massachusetts|7;Cambridge|Massachusetts|2.5;Austin|Texas|4;Dallas|Texas|2;Houston|Texas|1.5;' +
      'Seattle|Washington|4;Chicago|Illinois|4;Miami|Florida|2.5;Denver|Colorado|2;Boulder|Colorado|1.2;Atlanta|Georgia|1.8;' +
      'Washington|District of Columbia|1.5;Philadelphia|Pennsylvania|1.3;Pittsburgh|Pennsylvania|1;Salt Lake City|Utah|1.2;' +
      'Nashville|Tennessee|1;Minneapolis|Minnesota|1;Raleigh|North Carolina|1;Durham|North Carolina|0.6;Portland|Oregon|0.8;' +
      'Greenwich|Connecticut|1;Stamford|Connecticut|0.6;Phoenix|Arizona|0.8;Detroit|Michigan|0.6;Columbus|Ohio|0.6;Baltimore|Maryland|0.5',
  ],
  [
    'GB',
    7,
    'British',
    'co.uk',
    false,
    'Ltd|Limited|PLC',
    'London|England|20;Cambridge|England|2;Oxford|England|1.5;Manchester|England|1.5;Edinburgh|Scotland|1.2;Bristol|England|1;' +
      'Leeds|England|0.6;Birmingham|England|0.6;Glasgow|Scotland|0.5;Cardiff|Wales|0.4;Belfast|Northern Ireland|0.3',
  ],
  [
    'DE',
    3.5,
    'German',
    'de',
    false,
    'GmbH|AG',
    'Berlin|Berlin|8;Munich|Bavaria|5;Hamburg|Hamburg|2.5;Frankfurt|Hesse|2;Cologne|North Rhine-Westphalia|1.2;' +
      'Düsseldorf|North Rhine-Westphalia|0.8;Stuttgart|Baden-Württemberg|0.8;Karlsruhe|Baden-Württemberg|0.4;Leipzig|Saxony|0.4',
  ],
  [
    'FR',
    3,
    'French',
    'fr',
    false,
    'SAS|SA',
    'Paris|Île-de-France|12;Lyon|Auvergne-Rhône-Alpes|1.2;Toulouse|Occitanie|0.6;Nantes|Pays de la Loire|0.5;Bordeaux|Nouvelle-Aquitaine|0.5;Lille|Hauts-de-France|0.4;Marseille|Provence-Alpes-Côte d’Azur|0.4',
  ],
  [
    'IN',
    4,
    'Indian',
    'in',
    true,
    'Pvt Ltd|Private Limited',
    'Bengaluru|Karnataka|8;Mumbai|Maharashtra|6;New Delhi|Delhi|4;Gurugram|Haryana|3;Hyderabad|Telangana|2;Pune|Maharashtra|1.5;' +
      'Chennai|Tamil Nadu|1.5;Noida|Uttar Pradesh|1;Ahmedabad|Gujarat|0.6;Kolkata|West Bengal|0.5',
  ],
  [
    'CA',
    3.5,
    'Canadian',
    'ca',
    true,
    'Inc.|Ltd.',
    'Toronto|Ontario|9;Vancouver|British Columbia|4;Montreal|Quebec|4;Waterloo|Ontario|1.5;Calgary|Alberta|1.2;Ottawa|Ontario|1;Edmonton|Alberta|0.5;Halifax|Nova Scotia|0.3',
  ],
  [
    'IL',
    2,
    'Israeli',
    'co.il',
    false,
    'Ltd',
    'Tel Aviv|Tel Aviv District|10;Herzliya|Tel Aviv District|2;Jerusalem|Jerusalem District|1.2;Haifa|Haifa District|0.8;Ramat Gan|Tel Aviv District|0.8',
  ],
  ['SG', 2, 'Singaporean', 'sg', false, 'Pte. Ltd.', 'Singapore|Singapore|1'],
  [
    'NL',
    1.5,
    'Dutch',
    'nl',
    false,
    'B.V.',
    'Amsterdam|North Holland|8;Rotterdam|South Holland|1.2;Utrecht|Utrecht|1;Eindhoven|North Brabant|1;The Hague|South Holland|0.6',
  ],
  [
    'SE',
    1.3,
    'Swedish',
    'se',
    false,
    'AB',
    'Stockholm|Stockholm County|8;Gothenburg|Västra Götaland|1.2;Malmö|Skåne|1;Uppsala|Uppsala County|0.3',
  ],
  [
    'CH',
    1.3,
    'Swiss',
    'ch',
    false,
    'AG|SA',
    'Zurich|Zurich|6;Geneva|Geneva|2.5;Zug|Zug|1.5;Lausanne|Vaud|1.2;Basel|Basel-Stadt|1',
  ],
  [
    'CN',
    3,
    'Chinese',
    'cn',
    false,
    'Co., Ltd.',
    'Beijing|Beijing|6;Shanghai|Shanghai|6;Shenzhen|Guangdong|4;Hangzhou|Zhejiang|2;Guangzhou|Guangdong|1.5;Suzhou|Jiangsu|0.8;Chengdu|Sichuan|0.6',
  ],
  [
    'JP',
    1.5,
    'Japanese',
    'co.jp',
    false,
    'K.K.|Co., Ltd.',
    'Tokyo|Tokyo|10;Osaka|Osaka|1.2;Kyoto|Kyoto|0.5;Fukuoka|Fukuoka|0.5;Yokohama|Kanagawa|0.5',
  ],
  ['KR', 1, 'Korean', 'co.kr', false, 'Co., Ltd.', 'Seoul|Seoul|10;Seongnam|Gyeonggi|1.5;Busan|Busan|0.6'],
  [
    'AU',
    2,
    'Australian',
    'com.au',
    true,
    'Pty Ltd',
    'Sydney|New South Wales|8;Melbourne|Victoria|6;Brisbane|Queensland|2;Perth|Western Australia|1.2;Adelaide|South Australia|0.8;Canberra|Australian Capital Territory|0.4',
  ],
  [
    'ES',
    1,
    'Spanish',
    'es',
    false,
    'S.L.',
    'Madrid|Community of Madrid|5;Barcelona|Catalonia|5;Valencia|Valencian Community|0.8;Málaga|Andalusia|0.5;Bilbao|Basque Country|0.4',
  ],
  [
    'IT',
    0.8,
    'Italian',
    'it',
    false,
    'S.r.l.|S.p.A.',
    'Milan|Lombardy|6;Rome|Lazio|2.5;Turin|Piedmont|1.2;Bologna|Emilia-Romagna|0.6;Florence|Tuscany|0.5',
  ],
  [
    'BR',
    1.3,
    'Brazilian',
    'com.br',
    false,
    'Ltda.',
    'São Paulo|São Paulo|8;Rio de Janeiro|Rio de Janeiro|2;Belo Horizonte|Minas Gerais|1;Florianópolis|Santa Catarina|0.8;Curitiba|Paraná|0.6',
  ],
  ['AE', 1, 'Emirati', 'ae', false, 'LLC|FZ-LLC', 'Dubai|Dubai|6;Abu Dhabi|Abu Dhabi|3'],
  ['HK', 0.8, 'Hong Kong', 'com.hk', false, 'Limited', 'Hong Kong|Hong Kong Island|4;Kowloon|Kowloon|1'],
  ['IE', 0.7, 'Irish', 'ie', false, 'Ltd|DAC', 'Dublin|Leinster|8;Cork|Munster|1;Galway|Connacht|0.5'],
  ['DK', 0.5, 'Danish', 'dk', false, 'ApS|A/S', 'Copenhagen|Capital Region|6;Aarhus|Central Denmark|1.2'],
  [
    'FI',
    0.5,
    'Finnish',
    'fi',
    false,
    'Oy',
    'Helsinki|Uusimaa|6;Espoo|Uusimaa|1.2;Tampere|Pirkanmaa|0.8;Oulu|North Ostrobothnia|0.4',
  ],
  ['NO', 0.5, 'Norwegian', 'no', false, 'AS', 'Oslo|Oslo|6;Bergen|Vestland|1;Trondheim|Trøndelag|0.8'],
  [
    'BE',
    0.5,
    'Belgian',
    'be',
    false,
    'NV|BV',
    'Brussels|Brussels-Capital|4;Antwerp|Flanders|1.5;Ghent|Flanders|1.2;Leuven|Flanders|0.8',
  ],
  ['AT', 0.4, 'Austrian', 'at', false, 'GmbH', 'Vienna|Vienna|6;Graz|Styria|0.8;Linz|Upper Austria|0.6'],
  [
    'PL',
    0.5,
    'Polish',
    'pl',
    false,
    'Sp. z o.o.',
    'Warsaw|Masovia|6;Kraków|Lesser Poland|2;Wrocław|Lower Silesia|1;Gdańsk|Pomerania|0.6',
  ],
  ['EE', 0.3, 'Estonian', 'ee', false, 'OÜ', 'Tallinn|Harju County|6;Tartu|Tartu County|1'],
  ['PT', 0.4, 'Portuguese', 'pt', false, 'Lda.', 'Lisbon|Lisbon|6;Porto|Porto|2'],
  ['LU', 0.3, 'Luxembourgish', 'lu', false, 'S.à r.l.', 'Luxembourg|Luxembourg|1'],
  ['CZ', 0.2, 'Czech', 'cz', false, 's.r.o.', 'Prague|Prague|6;Brno|South Moravian|1.2'],
  [
    'MX',
    0.6,
    'Mexican',
    'com.mx',
    false,
    'S.A. de C.V.',
    'Mexico City|Mexico City|6;Monterrey|Nuevo León|1.5;Guadalajara|Jalisco|1.2',
  ],
  ['AR', 0.3, 'Argentine', 'com.ar', false, 'S.A.', 'Buenos Aires|Buenos Aires|6;Córdoba|Córdoba|0.8'],
  ['CL', 0.3, 'Chilean', 'cl', false, 'SpA', 'Santiago|Santiago Metropolitan|1'],
  ['CO', 0.3, 'Colombian', 'com.co', false, 'S.A.S.', 'Bogotá|Bogotá|4;Medellín|Antioquia|2'],
  ['NG', 0.5, 'Nigerian', 'com.ng', false, 'Ltd', 'Lagos|Lagos|8;Abuja|Federal Capital Territory|1.5'],
  ['KE', 0.4, 'Kenyan', 'co.ke', false, 'Ltd', 'Nairobi|Nairobi County|1'],
  [
    'ZA',
    0.5,
    'South African',
    'co.za',
    false,
    '(Pty) Ltd',
    'Cape Town|Western Cape|4;Johannesburg|Gauteng|4;Durban|KwaZulu-Natal|0.8;Pretoria|Gauteng|0.8',
  ],
  ['EG', 0.3, 'Egyptian', 'com.eg', false, 'S.A.E.', 'Cairo|Cairo|5;Alexandria|Alexandria|1'],
  ['ID', 0.5, 'Indonesian', 'co.id', false, 'PT', 'Jakarta|Jakarta|6;Bandung|West Java|0.8;Surabaya|East Java|0.6'],
  ['VN', 0.3, 'Vietnamese', 'vn', false, 'JSC', 'Ho Chi Minh City|Ho Chi Minh City|4;Hanoi|Hanoi|3'],
  ['MY', 0.3, 'Malaysian', 'com.my', false, 'Sdn Bhd', 'Kuala Lumpur|Federal Territory of Kuala Lumpur|5;Penang|Penang|0.8'],
  ['TH', 0.3, 'Thai', 'co.th', false, 'Co., Ltd.', 'Bangkok|Bangkok|1'],
  ['PH', 0.3, 'Philippine', 'com.ph', false, 'Inc.', 'Manila|Metro Manila|3;Makati|Metro Manila|2;Cebu City|Central Visayas|0.6'],
  ['NZ', 0.3, 'New Zealand', 'co.nz', false, 'Ltd', 'Auckland|Auckland|4;Wellington|Wellington|1.5;Christchurch|Canterbury|0.8'],
  ['TW', 0.3, 'Taiwanese', 'com.tw', false, 'Co., Ltd.', 'Taipei|Taipei|5;Hsinchu|Hsinchu|1'],
  ['SA', 0.4, 'Saudi', 'com.sa', false, 'LLC', 'Riyadh|Riyadh Province|5;Jeddah|Makkah Province|1.5'],
  ['TR', 0.3, 'Turkish', 'com.tr', false, 'A.Ş.', 'Istanbul|Istanbul|6;Ankara|Ankara|1;Izmir|Izmir|0.6'],
];

const SHORT_COUNTRY_NAMES: Record<string, string> = { US: 'U.S.', GB: 'UK', HK: 'Hong Kong', AE: 'UAE' };

const COUNTRIES: readonly CountryInfo[] = COUNTRY_DATA.map(([code, , demonym, tld, states, legal, places]) => {
  const entries = places.split(';').map((spec) => {
    const [city = '', region = '', weight = '1'] = spec.split('|');
    return [{ city, region }, Number(weight)] as const;
  });
  return {
    code,
    name: countryName(code),
    short: SHORT_COUNTRY_NAMES[code] ?? countryName(code),
    demonym,
    tld,
    states,
    legal: legal.split('|'),
    places: new Weighted(entries),
    placeList: entries.map(([place]) => place),
  };
});

const COUNTRY_TABLE = new Weighted(COUNTRIES.map((c, i) => [c, (COUNTRY_DATA[i] as (typeof COUNTRY_DATA)[number])[1]] as const));

// ---------------------------------------------------------------------------------------------
// Name material
// ---------------------------------------------------------------------------------------------

/** Evocative single words used in firm and brand names. */
const WORDS = (
  'Acorn Alder Alpine Anchor Apex Arbor Aspen Atlas Aurora Axiom Basalt Beacon Birch Bluestone Boulder Bridgewater Canyon ' +
  'Cardinal Cascade Catalyst Cedar Clarity Clearwater Cobalt Compass Concord Copper Coral Crescent Crest Crown Cypress Delta ' +
  'Dune Eagle Elevate Ember Emerald Endeavor Equinox Evergreen Falcon Fathom Fern Firelight Flint Forge Foundry Frontier ' +
  'Garnet Genesis Glacier Granite Greenfield Grove Harbor Harvest Haven Hawthorn Heron Highland Horizon Hudson Ignite Impetus ' +
  'Indigo Ironwood Ivy Juniper Kestrel Keystone Kinetic Lantern Laurel Ledger Lighthouse Linden Lodestar Lumen Magnolia Maple ' +
  'Marble Meadow Meridian Mesa Momentum Monarch Mosaic Nexus Northstar Novus Oakridge Obsidian Onyx Orchard Origin Osprey ' +
  'Pacific Palisade Paragon Parallel Pinnacle Pioneer Polaris Praxis Prairie Quarry Radiant Raven Redwood Resolute Ridgeline ' +
  'Riverbend Sable Sapphire Sierra Signal Silverline Slate Solstice Sparrow Spruce Stellar Stonebridge Summit Sycamore ' +
  'Tamarack Tenacity Terra Threshold Tidewater Timber Torch Trident Tundra Valor Vantage Vector Velocity Veritas Vertex ' +
  'Vireo Vista Walnut Willow Windward Zenith Alta Amplify Arcadia Artemis Bastion Bedrock Bellwether Blackthorn Brightline ' +
  'Cairn Calder Caliber Carver Citadel Corvid Cumulus Drumlin Elmstone Everest Fairway Fieldstone Firebrand Foothill ' +
  'Glasswing Goldcrest Halcyon Headland Helios Heritage Hollis Ironbridge Jetstream Kelp Kingfisher Larkspur Latitude ' +
  'Longitude Luminary Mariner Midway Millstone Mistral Nautilus Oakhurst Outpost Overland Palomar Pathfinder Peregrine ' +
  'Quantum Rampart Rockpoint Saltwater Sentinel Sextant Shoreline Skyline Sojourn Steadfast Stirling Sundial Talon ' +
  'Tributary Trillium Upland Waypoint Westbrook Whitewater Wildflower Woodland Yarrow'
).split(' ');

const COMPOUND_LEFT = (
  'Blue Red Black White Silver Golden Green Grey High North South East West Bright Clear Deep First Great Iron Stone Old New ' +
  'Long Broad Cold Still True Wild Far Open Sun Star Storm Oak Pine Cedar Maple Elm Ash'
).split(' ');

const COMPOUND_RIGHT = (
  'Ridge Peak Harbor Bridge Oak Pine Rock Lake River Point Field Gate Hill Brook Stone Water Wood Haven Crest Star Wave Sky ' +
  'Line Path Bay Cove Creek Falls Forest Glen Grove Island Meadow Mountain Spring Trail Valley Vale Well Wind Hollow Shore Light'
).split(' ');

/** Syllables for coined brand names ("Brightpath", "DataBridge"). */
const BRAND_HEAD = (
  'Blue Bright Clear Cloud Core Data Deep Echo Ever First Flex Flow Fusion Green Hyper Info Insight Iron Key Lead Light Link ' +
  'Logic Lumi Meta Mind Net Next Nova Omni Open Opti Pay Peak Pixel Prime Pro Pulse Quant Quick Rapid Smart Sol Spark Stack ' +
  'Star Sun Swift Sync Tech Terra True Uni Up Vita Wave Wise Zen Zip Med Care Bio Gen Agri Aero Auto Fin Edu Geo Hydro Eco ' +
  'Volt Grid Cyber Secure Shield Trust Astra Beam Bolt Brick Cargo Civic Crypto Dyna Ember Fleet Forge Hive Helio Kin Lab Loop ' +
  'Maxi Neo North Orbit Path Plan Quest Ray Root Route Sage Scale Scout Signal Snap Sonic Sprout Summit Task Tide True Vast ' +
  'Vector Verde Vivid Whole Work Yield'
).split(' ');

const BRAND_TAIL = (
  'path bridge stack wise ly hub works point field gate line loop mind scale shift sight sphere stream ware wave way base ' +
  'bit box cast core craft desk dock flow forge frame grid lane leaf lens lift logic mark matic metrics nest nova pilot port ' +
  'pulse quest rise scope sense spark spring star tide trail tree verse view vine vox yard zone ify io ora ex iq ly sy tix ' +
  'dash deck fuel gen jet kit lab labs loom mint motion node pad pay peak pod run sail seed ship signal sol spot sync tap ' +
  'track vault'
).split(' ');

/** Generic company descriptors; industry-specific ones live with the industries. */
const GENERIC_DESCRIPTORS = (
  'Technologies|Systems|Solutions|Labs|Group|Software|Analytics|Networks|Digital|Dynamics|Industries|Global|Interactive|' +
  'Works|Innovations|Consulting|Services|Holdings|Company|AI|Cloud|Data|Health|Bio|Therapeutics|Robotics|Energy|Logistics|' +
  'Foods|Media|Studios|Security|Financial|Pay|Commerce|Learning|Mobility|Materials|Manufacturing|Partners|Ventures Studio|HQ'
).split('|');

const ACRONYM_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Names with their URL slugs, computed once. */
interface NameList {
  names: readonly string[];
  slugs: readonly string[];
}

function nameList(names: readonly string[]): NameList {
  const kept = [...new Set(names)].filter((name) => urlSlug(name) !== '');
  return { names: kept, slugs: kept.map((name) => urlSlug(name)) };
}

interface NameGroup {
  female: NameList;
  male: NameList;
  lastFemale: NameList;
  lastMale: NameList;
  /** Share of people with a double surname (Spanish-speaking naming). */
  doubleSurname: number;
}

function groupFromLocale(locale: LocaleDefinition, doubleSurname = 0): NameGroup {
  const first: { generic?: readonly string[]; female?: readonly string[]; male?: readonly string[] } =
    locale.person?.first_name ?? {};
  const last: { generic?: readonly string[]; female?: readonly string[]; male?: readonly string[] } =
    locale.person?.last_name ?? {};
  const generic = first.generic ?? [];
  const lastGeneric = last.generic ?? [];
  return {
    female: nameList(first.female ?? generic),
    male: nameList(first.male ?? generic),
    lastFemale: nameList(last.female ?? lastGeneric),
    lastMale: nameList(last.male ?? lastGeneric),
    doubleSurname,
  };
}

function handGroup(female: string, male: string, surnames: string): NameGroup {
  const last = nameList(surnames.split(' '));
  return {
    female: nameList(female.split(' ')),
    male: nameList(male.split(' ')),
    lastFemale: last,
    lastMale: last,
    doubleSurname: 0,
  };
}

let nameGroupsCache: Weighted<NameGroup> | undefined;

/** Name groups by locale, weighted roughly like the professional population of the data set. */
function nameGroups(): Weighted<NameGroup> {
  if (nameGroupsCache) return nameGroupsCache;
  const chinese = handGroup(
    'Wei Jing Li Xiaoling Mei Yan Hui Ying Xin Yu Fang Lina Jia Qian Ting Xue Ning Lan Hong Min',
    'Wei Jun Hao Lei Ming Jian Tao Yang Peng Bo Chen Kai Rui Zhen Qiang Feng Yi Long Hua Xiang',
    'Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Gao Luo Zheng Liang Xie Tang Song Feng Deng Han Cao',
  );
  const korean = handGroup(
    'Ji-woo Seo-yeon Min-ji Soo-jin Hye-jin Eun-ji Ji-eun Yuna Da-eun Ha-eun',
    'Min-jun Seo-jun Ji-ho Hyun-woo Jae-won Sung-min Dong-hyun Joon-ho Tae-yang Woo-jin',
    'Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Oh Seo Shin Kwon',
  );
  const japanese = handGroup(
    'Yuki Haruka Aoi Sakura Yui Mei Emi Naoko Akiko Rina Mika Ayaka',
    'Haruto Ren Takumi Hiroshi Kenji Daiki Sota Yuto Kazuki Satoshi Takeshi Ryo',
    'Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura Kobayashi Kato Yoshida Yamada Sasaki Matsumoto Inoue Kimura',
  );
  const vietnamese = handGroup(
    'Linh Trang Thao Huong Mai Lan Ngoc Anh Hoa Vy',
    'Minh Duc Huy Tuan Quang Long Khanh Nam Phong Bao',
    'Nguyen Tran Le Pham Hoang Phan Vu Dang Bui Do Ho Ngo Duong Ly',
  );
  const arabic = handGroup(
    'Fatima Aisha Layla Noor Mariam Yasmin Sara Rania Huda Leila Dina Salma',
    'Mohammed Ahmed Omar Ali Youssef Khalid Hassan Karim Tariq Faisal Samir Rami',
    'Al-Sayed Haddad Khoury Mansour Nasser Hamdan Saleh Farouk Rahman Aziz Qureshi Khan Hussein Ibrahim Mahmoud',
  );
  const hebrew = handGroup(
    'Noa Tamar Yael Maya Shira Michal Adi Talia Roni Liat',
    'Yonatan Noam Itai Omer Eitan Amit Guy Ori Tal Nadav',
    'Cohen Levi Mizrahi Peretz Biton Friedman Avraham Katz Shapiro Dahan Golan Ben-David',
  );
  nameGroupsCache = new Weighted<NameGroup>([
    [groupFromLocale(en), 42],
    [groupFromLocale(en_IN), 10],
    [groupFromLocale(de), 6],
    [groupFromLocale(fr), 4.5],
    [groupFromLocale(es, 0.35), 4],
    [groupFromLocale(es_MX, 0.3), 2],
    [groupFromLocale(it), 2.5],
    [groupFromLocale(nl), 2],
    [groupFromLocale(pt_BR), 2],
    [groupFromLocale(pt_PT), 0.8],
    [groupFromLocale(sv), 1],
    [groupFromLocale(nb_NO), 0.6],
    [groupFromLocale(da), 0.6],
    [groupFromLocale(fi), 0.5],
    [groupFromLocale(pl), 1.5],
    [groupFromLocale(ro), 0.7],
    [groupFromLocale(tr), 1.2],
    [groupFromLocale(en_NG), 1.2],
    [groupFromLocale(yo_NG), 0.6],
    [groupFromLocale(en_GH), 0.4],
    [groupFromLocale(id_ID), 0.6],
    [chinese, 5.5],
    [korean, 1.3],
    [japanese, 1.4],
    [vietnamese, 0.9],
    [arabic, 2],
    [hebrew, 1],
  ]);
  return nameGroupsCache;
}

interface PersonName {
  first: string;
  last: string;
  full: string;
  /** "first-last", ASCII. */
  slug: string;
}

function drawPersonName(rng: Rng, groups: Weighted<NameGroup>): PersonName {
  const group = groups.pick(rng);
  const female = rng.next() < 0.45;
  const firsts = female ? group.female : group.male;
  const f = Math.floor(rng.next() * firsts.names.length);
  const surnames = female ? group.lastFemale : group.lastMale;
  const l = Math.floor(rng.next() * surnames.names.length);
  const first = firsts.names[f] as string;
  let last = surnames.names[l] as string;
  let slug = `${firsts.slugs[f] as string}-${surnames.slugs[l] as string}`;
  if (group.doubleSurname > 0 && rng.next() < group.doubleSurname) {
    const l2 = Math.floor(rng.next() * surnames.names.length);
    last = `${last} ${surnames.names[l2] as string}`;
    slug = `${slug}-${surnames.slugs[l2] as string}`;
  }
  const middle = rng.next() < 0.03 ? ` ${ACRONYM_LETTERS.charAt(rng.int(0, 25))}.` : '';
  return { first, last, full: `${first}${middle} ${last}`, slug };
}

let firmSurnamesCache: readonly string[] | undefined;

/**
 * ASCII-only surnames for firm names ("Haag Ventures", "Lindqvist Family Office"), capped per locale so
 * no single language dominates; English names are listed twice, so they come up about twice as often.
 */
function firmSurnames(): readonly string[] {
  if (firmSurnamesCache) return firmSurnamesCache;
  const out: string[] = [];
  const locales: ReadonlyArray<readonly [LocaleDefinition, number, number]> = [
    [en, 600, 2],
    [de, 300, 1],
    [it, 200, 1],
    [fr, 150, 1],
    [nl, 120, 1],
    [sv, 90, 1],
    [da, 80, 1],
    [nb_NO, 80, 1],
    [pl, 120, 1],
  ];
  for (const [locale, cap, copies] of locales) {
    const names = [...new Set(locale.person?.last_name?.generic ?? [])]
      .filter((name) => /^[A-Z][a-z]+$/.test(name) && name.length >= 4 && name.length <= 11)
      .sort();
    const step = Math.max(1, names.length / cap);
    const kept: string[] = [];
    for (let i = 0; i < names.length && kept.length < cap; i += step) kept.push(names[Math.floor(i)] as string);
    for (let c = 0; c < copies; c++) out.push(...kept);
  }
  firmSurnamesCache = out;
  return firmSurnamesCache;
}

/** A coined brand: "Brightpath", "DataBridge", "Nimbus". */
function brandWord(rng: Rng): string {
  const roll = rng.next();
  if (roll < 0.22) return rng.pick(WORDS);
  const head = rng.pick(BRAND_HEAD);
  let tail = rng.pick(BRAND_TAIL);
  if (head.toLowerCase().endsWith(tail.charAt(0)) && tail.length > 2) tail = tail.slice(1);
  if (roll < 0.4) return head + capitalize(tail);
  return head + tail;
}

function firmWord(rng: Rng): string {
  const roll = rng.next();
  if (roll < 0.55) return rng.pick(WORDS);
  const left = rng.pick(COMPOUND_LEFT);
  let right = rng.pick(COMPOUND_RIGHT);
  if (right === left) right = 'Ridge';
  return roll < 0.85 ? `${left} ${right}` : left + right.toLowerCase();
}

function acronym(rng: Rng): string {
  let out = '';
  const length = rng.next() < 0.7 ? 3 : 2;
  for (let i = 0; i < length; i++) out += ACRONYM_LETTERS.charAt(rng.int(0, 25));
  return out;
}

/** A company name in the styles seen on company pages. */
function companyName(rng: Rng, surnames: readonly string[], descriptors: readonly string[] = GENERIC_DESCRIPTORS): string {
  const roll = rng.next();
  if (roll < 0.26) return brandWord(rng);
  if (roll < 0.52) return `${brandWord(rng)} ${rng.pick(descriptors)}`;
  if (roll < 0.68) return `${rng.pick(WORDS)} ${rng.pick(descriptors)}`;
  if (roll < 0.76) return `${rng.pick(COMPOUND_LEFT)} ${rng.pick(COMPOUND_RIGHT)} ${rng.pick(descriptors)}`;
  if (roll < 0.84) return `${rng.pick(surnames)} ${rng.pick(descriptors)}`;
  if (roll < 0.88) return `${rng.pick(surnames)} & ${rng.pick(surnames)}`;
  if (roll < 0.91) return `${brandWord(rng)} ${rng.pick(descriptors)}`;
  if (roll < 0.95) return `${acronym(rng)} ${rng.pick(descriptors)}`;
  const tld = rng.pick(['.ai', '.io', '.co', '.ai', '.app']);
  return `${brandWord(rng)}${tld}`;
}

/** https://www.<domain> with the country's TLD about half the time outside the US. */
function websiteFor(rng: Rng, domainSlug: string, country: CountryInfo, techy: boolean): string {
  let tld = 'com';
  const roll = rng.next();
  if (techy && roll < 0.14) tld = rng.pick(['io', 'ai', 'co', 'tech']);
  else if (country.code !== 'US' && roll < 0.6) tld = country.tld;
  return `https://www.${domainSlug}.${tld}`;
}

// ---------------------------------------------------------------------------------------------
// Investors
// ---------------------------------------------------------------------------------------------

const INVESTOR_TYPE_TABLE = new Weighted<InvestorType>([
  ['vc', 40],
  ['angel', 20],
  ['corporate', 10],
  ['pe', 8],
  ['accelerator', 7],
  ['family_office', 6],
  ['fund', 6],
  ['government', 3],
]);

/** Typical round sizes (USD) by stage: the span a check for that stage falls in. */
const STAGE_CHECK: Record<string, readonly [number, number]> = {
  'Pre-Seed': [50_000, 750_000],
  Seed: [250_000, 3_000_000],
  'Series A': [2_000_000, 15_000_000],
  'Series B': [8_000_000, 40_000_000],
  'Series C': [20_000_000, 80_000_000],
  'Series D+': [40_000_000, 150_000_000],
  Growth: [25_000_000, 250_000_000],
  'Late Stage': [50_000_000, 300_000_000],
  Buyout: [50_000_000, 1_000_000_000],
};

const STAGE_SETS: Record<InvestorType, ReadonlyArray<readonly [readonly string[], number]>> = {
  vc: [
    [['Pre-Seed', 'Seed'], 15],
    [['Seed'], 10],
    [['Seed', 'Series A'], 20],
    [['Pre-Seed', 'Seed', 'Series A'], 8],
    [['Series A'], 6],
    [['Series A', 'Series B'], 14],
    [['Series B', 'Series C'], 5],
    [['Series A', 'Series B', 'Series C'], 6],
    [['Seed', 'Series A', 'Series B', 'Series C', 'Growth'], 6],
    [['Series C', 'Series D+', 'Growth'], 4],
    [['Series B', 'Series C', 'Growth'], 4],
    [['Growth'], 2],
  ],
  angel: [
    [['Pre-Seed', 'Seed'], 50],
    [['Seed'], 25],
    [['Pre-Seed'], 15],
    [['Seed', 'Series A'], 10],
  ],
  pe: [
    [['Growth', 'Buyout'], 25],
    [['Buyout'], 25],
    [['Growth', 'Late Stage'], 15],
    [['Growth'], 15],
    [['Series C', 'Series D+', 'Growth'], 10],
    [['Late Stage', 'Buyout'], 10],
  ],
  corporate: [
    [['Seed', 'Series A'], 15],
    [['Series A', 'Series B'], 35],
    [['Series A', 'Series B', 'Series C'], 20],
    [['Series B', 'Series C'], 15],
    [['Series B', 'Series C', 'Growth'], 15],
  ],
  accelerator: [
    [['Pre-Seed'], 40],
    [['Pre-Seed', 'Seed'], 50],
    [['Seed'], 10],
  ],
  family_office: [
    [['Seed', 'Series A'], 10],
    [['Series A', 'Series B'], 20],
    [['Series B', 'Series C', 'Growth'], 25],
    [['Growth', 'Late Stage'], 25],
    [['Growth', 'Buyout'], 10],
    [['Seed', 'Series A', 'Series B', 'Series C', 'Growth'], 10],
  ],
  fund: [
    [['Series B', 'Series C', 'Growth'], 30],
    [['Growth'], 25],
    [['Growth', 'Late Stage'], 20],
    [['Series A', 'Series B'], 15],
    [['Seed', 'Series A'], 10],
  ],
  government: [
    [['Pre-Seed', 'Seed'], 30],
    [['Seed', 'Series A'], 35],
    [['Pre-Seed', 'Seed', 'Series A'], 15],
    [['Series A', 'Series B'], 15],
    [['Growth'], 5],
  ],
};

// Focus areas with a base weight and per-type multipliers where a type leans one way.
const FOCUS_AREAS: ReadonlyArray<readonly [string, number, Partial<Record<InvestorType, number>>?]> = [
  ['Technology', 10, { pe: 1.5, family_office: 1.5, government: 1.5 }],
  ['SaaS', 9, { pe: 0.6, government: 0.2 }],
  ['Enterprise Software', 8, { government: 0.3 }],
  ['Fintech', 8, { government: 0.5 }],
  ['Financial Services', 4, { pe: 3, family_office: 2 }],
  ['Healthcare', 7, { pe: 2, family_office: 2 }],
  ['Digital Health', 5],
  ['Biotech', 4, { angel: 0.3, government: 2 }],
  ['Life Sciences', 3, { government: 2.5, family_office: 1.5 }],
  ['Medical Devices', 2, { pe: 1.5 }],
  ['Consumer', 6, { pe: 2, family_office: 2.5 }],
  ['E-commerce', 4],
  ['Marketplaces', 4, { pe: 0.3 }],
  ['AI/ML', 9, { government: 1.5 }],
  ['Cybersecurity', 5, { government: 1.5 }],
  ['Developer Tools', 4, { pe: 0.2, family_office: 0.2 }],
  ['Infrastructure', 3, { pe: 2 }],
  ['Data & Analytics', 4],
  ['Deep Tech', 3, { government: 4, angel: 0.5 }],
  ['Robotics', 2, { government: 2 }],
  ['Hardware', 2, { angel: 0.5 }],
  ['Semiconductors', 1, { government: 3 }],
  ['Climate Tech', 5, { government: 4 }],
  ['Energy', 2, { pe: 3, government: 2.5 }],
  ['Sustainability', 2, { family_office: 3, government: 2 }],
  ['Mobility', 2],
  ['Logistics', 2, { pe: 3 }],
  ['Supply Chain', 1.5, { pe: 2 }],
  ['Real Estate', 1, { family_office: 8, pe: 4 }],
  ['PropTech', 2],
  ['EdTech', 3, { government: 1.5 }],
  ['Media', 1.5, { pe: 2 }],
  ['Gaming', 2],
  ['Web3', 2, { pe: 0.1, government: 0.1, family_office: 0.5 }],
  ['Agtech', 1.5, { government: 3, family_office: 2 }],
  ['Food & Beverage', 1, { family_office: 4, pe: 3 }],
  ['Industrial', 1, { pe: 6, family_office: 2, government: 2 }],
  ['Advanced Manufacturing', 1, { pe: 3, government: 4 }],
  ['Business Services', 1, { pe: 6, family_office: 2 }],
  ['Insurtech', 2],
  ['HR Tech', 2],
  ['Future of Work', 2],
  ['Space', 1, { government: 3 }],
  ['Defense', 0.8, { government: 4 }],
  ['Telecommunications', 0.8, { pe: 3 }],
  ['Impact', 1.5, { family_office: 3, government: 2 }],
  ['Retail', 1, { pe: 4, family_office: 2 }],
];

const FOCUS_BY_TYPE: Record<InvestorType, ReadonlyArray<readonly [string, number]>> = Object.fromEntries(
  (['vc', 'angel', 'pe', 'corporate', 'accelerator', 'family_office', 'fund', 'government'] as const).map((type) => [
    type,
    FOCUS_AREAS.map(([focus, weight, bias]) => [focus, weight * (bias?.[type] ?? 1)] as const),
  ]),
) as unknown as Record<InvestorType, ReadonlyArray<readonly [string, number]>>;

/** Parent-company sectors for corporate venture arms, with the focus areas they favour. */
const CORPORATE_SECTORS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['', ['Technology', 'Enterprise Software', 'AI/ML', 'SaaS']],
  ['Systems', ['Enterprise Software', 'Infrastructure', 'Cybersecurity', 'AI/ML']],
  ['Technologies', ['Technology', 'AI/ML', 'Hardware', 'Data & Analytics']],
  ['Pharma', ['Biotech', 'Life Sciences', 'Digital Health', 'Healthcare']],
  ['Health', ['Healthcare', 'Digital Health', 'Medical Devices']],
  ['Energy', ['Energy', 'Climate Tech', 'Sustainability', 'Industrial']],
  ['Telecom', ['Telecommunications', 'Infrastructure', 'Media', 'AI/ML']],
  ['Motors', ['Mobility', 'Robotics', 'Advanced Manufacturing', 'Energy']],
  ['Financial', ['Fintech', 'Financial Services', 'Insurtech', 'Cybersecurity']],
  ['Bank', ['Fintech', 'Financial Services', 'Data & Analytics']],
  ['Insurance', ['Insurtech', 'Digital Health', 'Fintech']],
  ['Foods', ['Food & Beverage', 'Agtech', 'Consumer', 'Supply Chain']],
  ['Media', ['Media', 'Gaming', 'Consumer', 'AI/ML']],
  ['Retail', ['Retail', 'E-commerce', 'Consumer', 'Supply Chain']],
  ['Chemicals', ['Advanced Manufacturing', 'Climate Tech', 'Sustainability', 'Industrial']],
  ['Electronics', ['Hardware', 'Semiconductors', 'Robotics', 'AI/ML']],
  ['Logistics', ['Logistics', 'Supply Chain', 'Mobility', 'Robotics']],
  ['Industries', ['Industrial', 'Advanced Manufacturing', 'Robotics', 'Energy']],
  ['Group', ['Technology', 'Consumer', 'Fintech', 'Real Estate']],
];

const FIRM_QUALIFIERS = [
  'Partners',
  'Management',
  'Advisors',
  'Group',
  'Global',
  'International',
  'Holdings',
  'Investments',
  'Europe',
  'Asia',
  'Americas',
  'Nordic',
];

const ANGEL_BACKGROUNDS = [
  'former VP Engineering',
  'former CTO',
  'former Head of Product',
  'former COO',
  'co-founder',
  'founder',
  'early employee',
  'former Chief Revenue Officer',
  'former VP Marketing',
  'former CFO',
  'former Head of Growth',
  'former General Partner',
  'former Director of Product',
];

const STAGE_TABLES = Object.fromEntries(Object.entries(STAGE_SETS).map(([type, sets]) => [type, new Weighted(sets)])) as Record<
  InvestorType,
  Weighted<readonly string[]>
>;

interface InvestorPools {
  surnames: readonly string[];
  surnameSet: ReadonlySet<string>;
  startups: readonly string[];
  groups: Weighted<NameGroup>;
}

function buildInvestorPools(seed: number): InvestorPools {
  const rng = new Rng(mersenneRandomizer(seed, STREAM.investorPools));
  const surnames = firmSurnames();
  const startups = new Set<string>();
  for (let guard = 0; startups.size < 6000 && guard < 60_000; guard++) {
    const roll = rng.next();
    if (roll < 0.55) startups.add(brandWord(rng));
    else if (roll < 0.75)
      startups.add(
        `${brandWord(rng)} ${rng.pick(['Labs', 'AI', 'Health', 'Pay', 'Bio', 'Robotics', 'Cloud', 'Energy', 'Security', 'Systems'])}`,
      );
    else if (roll < 0.88) startups.add(`${brandWord(rng)}${rng.pick(['.ai', '.io', '.co'])}`);
    else startups.add(rng.pick(WORDS));
  }
  return { surnames, surnameSet: new Set(surnames), startups: [...startups], groups: nameGroups() };
}

function stagePhrase(stages: readonly string[]): string {
  const early = stages.every((s) => s === 'Pre-Seed' || s === 'Seed');
  const growth = stages.every((s) => ['Series C', 'Series D+', 'Growth', 'Late Stage', 'Buyout'].includes(s));
  if (stages.length >= 5) return 'multi-stage';
  if (early) return stages.includes('Pre-Seed') ? 'pre-seed' : 'seed-stage';
  if (growth) return stages.includes('Buyout') ? 'buyout and growth' : 'growth-stage';
  if (stages.includes('Seed') || stages.includes('Series A')) return 'early-stage';
  return 'expansion-stage';
}

function checkSizeFor(rng: Rng, type: InvestorType, stages: readonly string[]): { min: number; max: number } {
  if (type === 'angel') {
    const min = niceAmount(rng.logUniform(5_000, 60_000));
    return { min, max: Math.max(niceAmount(min * rng.float(2, 8)), niceAmount(min * 2)) };
  }
  if (type === 'accelerator') {
    const min = rng.pick([25_000, 25_000, 50_000, 50_000, 75_000, 100_000, 120_000, 125_000, 150_000]);
    const max = rng.pick([100_000, 125_000, 150_000, 200_000, 250_000, 250_000].filter((m) => m > min));
    return { min, max };
  }
  const first = STAGE_CHECK[stages[0] ?? 'Seed'] ?? [250_000, 3_000_000];
  const last = STAGE_CHECK[stages[stages.length - 1] ?? 'Seed'] ?? first;
  const typeFactor = type === 'government' ? 0.5 : type === 'corporate' ? 0.6 : type === 'family_office' ? 0.7 : 1;
  let min = niceAmount(first[0] * rng.float(0.6, 1.6) * typeFactor);
  let max = niceAmount(last[1] * rng.float(0.35, 1.1) * typeFactor);
  if (max <= min) max = niceAmount(min * rng.float(2.5, 6));
  if (max <= min) max = min * 3;
  if (min < 10_000) min = 10_000;
  return { min, max };
}

function aumFor(
  rng: Rng,
  type: InvestorType,
  stages: readonly string[],
  check: { min: number; max: number } | null,
): number | null {
  const ranges: Record<InvestorType, readonly [number, number, number]> = {
    // min, max, chance of being null
    vc: [15e6, 2e9, 0.1],
    angel: [5e5, 2e7, 0.75],
    pe: [3e8, 8e10, 0.05],
    corporate: [5e7, 2e9, 0.45],
    accelerator: [5e6, 4e8, 0.4],
    family_office: [1e8, 1.5e10, 0.25],
    fund: [5e7, 5e9, 0.08],
    government: [1e8, 2e10, 0.2],
  };
  const [lo, hi, nullChance] = ranges[type];
  if (rng.next() < nullChance) return null;
  let min = lo;
  let max = hi;
  if (type === 'vc') {
    const phrase = stagePhrase(stages);
    if (phrase === 'pre-seed' || phrase === 'seed-stage') max = 4e8;
    else if (phrase === 'multi-stage' || phrase === 'growth-stage') {
      min = 5e8;
      max = 3e10;
    }
  }
  // A fund is many times its largest check.
  if (check) min = Math.max(min, Math.min(max / 2, check.max * 8));
  return niceAmount(rng.logUniform(min, max));
}

function investorName(
  rng: Rng,
  type: InvestorType,
  pools: InvestorPools,
  country: CountryInfo,
  place: Place,
  stages: readonly string[],
): string {
  const word = () => firmWord(rng);
  const surname = () => rng.pick(pools.surnames);
  const roll = rng.next();
  switch (type) {
    case 'vc':
      if (roll < 0.17) return `${surname()} Ventures`;
      if (roll < 0.39) return `${word()} Capital`;
      if (roll < 0.61) return `${word()} Ventures`;
      if (roll < 0.71) return `${word()} Partners`;
      if (roll < 0.79) return `${word()} Venture Partners`;
      if (roll < 0.84) return `${surname()} Capital`;
      if (roll < 0.88) return `${word()} VC`;
      if (roll < 0.91) return `${surname()} ${surname()}`;
      if (roll < 0.95) return `${brandWord(rng)} Ventures`;
      return stages.includes('Seed') || stages.includes('Pre-Seed') ? `${word()} Seed Fund` : `${word()} Growth Partners`;
    case 'pe':
      if (roll < 0.35) return `${word()} Equity Partners`;
      if (roll < 0.55) return `${word()} Capital Partners`;
      if (roll < 0.65) return `${surname()} Equity`;
      if (roll < 0.75) return `${word()} Private Equity`;
      if (roll < 0.8) return `${surname()} & ${surname()}`;
      if (roll < 0.9) return `${word()} Partners`;
      return `${word()} Equity`;
    case 'accelerator':
      if (roll < 0.25) return `${word()} Labs`;
      if (roll < 0.4) return `${word()} Launchpad`;
      if (roll < 0.6) return `${word()} Accelerator`;
      if (roll < 0.7) return `${place.city} Startup Accelerator`;
      if (roll < 0.78) return `Launchpad ${place.city}`;
      if (roll < 0.86) return `${word()} Foundry`;
      if (roll < 0.93) return `${word()} Startup Studio`;
      return `${word()} Incubator`;
    case 'family_office':
      if (roll < 0.45) return `${surname()} Family Office`;
      if (roll < 0.6) return `${surname()} Family Holdings`;
      if (roll < 0.7) return `${surname()} Family Investments`;
      if (roll < 0.8) return `${surname()} Family Capital`;
      if (roll < 0.9) return `${word()} Family Office`;
      return `${surname()} Private Investments`;
    case 'fund':
      if (roll < 0.4) return `${word()} Growth Fund`;
      if (roll < 0.52) return `${word()} Opportunity Fund`;
      if (roll < 0.62) return `${word()} Impact Fund`;
      if (roll < 0.72) return `${word()} Innovation Fund`;
      if (roll < 0.8) return `${word()} Technology Fund`;
      if (roll < 0.9) return `${word()} Fund ${ROMAN[rng.int(2, 6)] ?? 'II'}`;
      return `${word()} Evergreen Fund`;
    case 'government': {
      const region = country.states || rng.next() < 0.5 ? place.region : place.city;
      // U.S. public investors are mostly state and city programmes.
      if (country.code === 'US' && roll >= 0.45 && roll < 0.65)
        return `${place.region} ${rng.pick(['Development Bank', 'Growth Fund', 'Venture Capital Fund', 'Technology Development Fund'])}`;
      if (roll < 0.2) return country.code === 'US' ? `${place.region} Innovation Fund` : `${country.short} Innovation Fund`;
      if (roll < 0.35)
        return country.code === 'US' ? `${place.region} Innovation Partnership` : `${country.demonym} Innovation Fund`;
      if (roll < 0.45)
        return `National ${rng.pick(['Innovation', 'Research and Innovation', 'Technology Development', 'Enterprise Development', 'Industrial Development'])} Agency`;
      if (roll < 0.55) return `${country.demonym} Development Bank`;
      if (roll < 0.65)
        return `${country.demonym} ${rng.pick(['Venture Capital Fund', 'Growth Fund', 'Sovereign Technology Fund', 'Seed Fund'])}`;
      if (roll < 0.8)
        return `${region} ${rng.pick(['Innovation Fund', 'Economic Development Agency', 'Technology Fund', 'Venture Fund', 'Enterprise Agency'])}`;
      return `${place.city} ${rng.pick(['Innovation Fund', 'Seed Fund', 'Economic Development Corporation', 'Startup Fund'])}`;
    }
    case 'angel':
    case 'corporate':
      return word();
  }
}

function investorDescription(
  rng: Rng,
  type: InvestorType,
  name: string,
  focus: readonly string[],
  stages: readonly string[],
  check: { min: number; max: number } | null,
  place: Place,
  country: CountryInfo,
  extra: { parent?: string; background?: string; surname?: string; weeks?: number },
): string {
  const focusText = listPhrase(focus.slice(0, 4));
  const stageText = listPhrase(stages);
  const phrase = stagePhrase(stages);
  const checks = check ? `${usd(check.min)} to ${usd(check.max)}` : '';
  const where = `${place.city}, ${country.code === 'HK' ? 'Hong Kong' : country.name}`;
  const opt = (text: string) => (check ? text : '');
  const stageWord = stages.length > 1 ? 'stages' : 'stage';
  const roll = rng.next();
  switch (type) {
    case 'vc':
      if (roll < 0.3)
        return `${name} is ${article(phrase)} ${phrase} venture capital firm investing in ${focusText}. Based in ${where}, the firm typically ${check ? `writes checks of ${checks} in` : 'participates in'} ${stageText} rounds.`;
      if (roll < 0.55)
        return `${capitalize(phrase)} VC firm backing founders building in ${focusText}. Invests in ${stageText} rounds${opt(` with checks from ${checks}`)}.`;
      if (roll < 0.8)
        return `Venture firm partnering with ${phrase} companies in ${focusText}. ${name} leads and co-leads ${stageText} rounds from its base in ${place.city}.`;
      return `${name} backs exceptional founders at the ${stageText} ${stageWord} across ${focusText}${opt(`, typically investing ${checks} per company`)}.`;
    case 'angel':
      if (roll < 0.4)
        return `Angel investor and ${extra.background ?? 'operator'}. Invests in ${stageText} companies in ${focusText}${opt(`, typically writing checks of ${checks}`)}.`;
      if (roll < 0.7)
        return `Operator-turned-angel (${extra.background ?? 'founder'}) backing ${phrase} founders building in ${focusText} from ${place.city}.`;
      return `Serial entrepreneur and angel investor focused on ${focusText} at the ${stageText} ${stageWord}.${opt(` Checks of ${checks}.`)}`;
    case 'pe':
      if (roll < 0.5)
        return `${name} is a private equity firm focused on ${phrase} investments in ${focusText} businesses${opt(`, with equity investments of ${checks}`)}.`;
      return `${rng.pick(['Middle-market', 'Lower middle-market', 'Global', 'Growth-oriented'])} private equity firm headquartered in ${where}, partnering with management teams in ${focusText}.${opt(` Invests ${checks} per transaction.`)}`;
    case 'corporate':
      if (roll < 0.5)
        return `The corporate venture capital arm of ${extra.parent ?? name}, investing in ${stageText} startups in ${focusText} that complement its core business.`;
      return `Strategic investor backing ${focusText} companies from ${stageText}, offering portfolio companies access to ${extra.parent ?? name}'s customers, data and distribution.${opt(` Typical checks of ${checks}.`)}`;
    case 'accelerator':
      if (roll < 0.55)
        return `${extra.weeks ?? 12}-week accelerator program for ${phrase} startups in ${focusText}.${opt(` Invests ${checks} per company alongside mentorship and a demo day.`)}`;
      return `Startup accelerator based in ${where} supporting ${stageText} founders building in ${focusText}${opt(`, with initial investments of ${checks}`)}.`;
    case 'family_office':
      if (roll < 0.5 && extra.surname)
        return `Single-family office of the ${extra.surname} family, investing directly in ${stageText} companies in ${focusText} alongside real estate and public markets.`;
      return `Multi-generational family office based in ${place.city} making long-term minority investments in ${focusText}${opt(`, typically ${checks}`)}.`;
    case 'fund':
      if (roll < 0.5)
        return `${name} invests in ${stageText} companies across ${focusText}, targeting businesses with proven product-market fit${opt(` and checks of ${checks}`)}.`;
      return `${capitalize(phrase)} fund providing capital to ${focusText} companies in ${inCountry(country)} and beyond.`;
    case 'government':
      if (roll < 0.5)
        return `Government-backed fund supporting ${phrase} innovation in ${focusText} across ${inCountry(country)}.`;
      return `Public agency that co-invests alongside private investors in ${country.short}-based ${stageText} startups working on ${focusText}${opt(`, with investments of ${checks}`)}.`;
  }
}

export function* generateInvestors(seed: number, count: number, now: Date): Generator<InvestorRecord> {
  const rng = new Rng(mersenneRandomizer(seed, STREAM.investors));
  const pools = buildInvestorPools(seed);
  const nowMs = now.getTime();
  const nowYear = now.getUTCFullYear();
  const names = new Set<string>();
  const domains = new Set<string>();
  const linkedinSlugs = new Set<string>();
  const handles = new Set<string>();

  for (let i = 0; i < count; i++) {
    const id = rng.uuid();
    const type = INVESTOR_TYPE_TABLE.pick(rng);
    const country = COUNTRY_TABLE.pick(rng);
    const place = country.places.pick(rng);
    const city = rng.next() < 0.03 ? null : place.city;
    const state = country.states ? place.region : city !== null && rng.next() < 0.35 ? place.region : null;

    const stages = [...STAGE_TABLES[type].pick(rng)];
    const extra: { parent?: string; background?: string; surname?: string; weeks?: number } = {};
    let person: PersonName | undefined;
    let focusBias: readonly string[] = [];
    let name: string;
    if (type === 'angel') {
      let drawn = drawPersonName(rng, pools.groups);
      name = uniqueName(
        names,
        () => {
          drawn = drawPersonName(rng, pools.groups);
          return drawn.full;
        },
        ['Jr.'],
        rng,
      );
      person = drawn;
      extra.background = `${rng.pick(ANGEL_BACKGROUNDS)} at ${rng.pick(pools.startups)}`;
    } else if (type === 'corporate') {
      const [sector, favoured] = rng.pick(CORPORATE_SECTORS);
      focusBias = favoured;
      name = uniqueName(
        names,
        () => {
          const parent = sector ? `${brandWord(rng)} ${sector}` : brandWord(rng);
          extra.parent = parent;
          const roll = rng.next();
          if (roll < 0.5) return `${parent} Ventures`;
          if (roll < 0.68) return `${parent} Corporate Ventures`;
          if (roll < 0.78) return `${parent} Capital`;
          if (roll < 0.86) return `${parent} Digital Ventures`;
          if (roll < 0.93) return `${parent} Venture Capital`;
          return `${parent} Technology Ventures`;
        },
        FIRM_QUALIFIERS,
        rng,
      );
    } else {
      name = uniqueName(names, () => investorName(rng, type, pools, country, place, stages), FIRM_QUALIFIERS, rng);
      const family = /^(\S+) (Family|Private) /.exec(name)?.[1];
      if (type === 'family_office' && family && pools.surnameSet.has(family)) extra.surname = family;
      if (type === 'accelerator') extra.weeks = rng.pick([8, 10, 12, 12, 12, 13, 16, 24]);
    }

    // Thesis
    const focusCount = type === 'angel' ? rng.int(1, 4) : type === 'pe' ? rng.int(2, 5) : rng.int(2, 6);
    const focus =
      focusBias.length > 0
        ? pickDistinct(
            rng,
            focusBias.map((f) => [f, 1] as const),
            Math.min(focusCount, rng.int(1, 3)),
          )
        : [];
    for (const f of pickDistinct(rng, FOCUS_BY_TYPE[type], focusCount))
      if (!focus.includes(f) && focus.length < focusCount) focus.push(f);
    const check = type !== 'angel' && type !== 'accelerator' && rng.next() < 0.06 ? null : checkSizeFor(rng, type, stages);
    const aum = aumFor(rng, type, stages, check);

    // Firm profile
    let foundedYear: number | null;
    const yearsBack = (span: number, power: number) => nowYear - 1 - Math.floor(span * Math.pow(rng.next(), power));
    switch (type) {
      case 'angel':
        foundedYear = rng.next() < 0.7 ? null : yearsBack(18, 1.3);
        break;
      case 'pe':
        foundedYear = yearsBack(50, 1.4);
        break;
      case 'government':
      case 'family_office':
        foundedYear = yearsBack(60, 1.6);
        break;
      case 'corporate':
        foundedYear = yearsBack(30, 1.6);
        break;
      default:
        foundedYear = yearsBack(52, 2.2);
    }
    if (foundedYear !== null && rng.next() < 0.04) foundedYear = null;

    let teamSize: number | null;
    if (type === 'angel') teamSize = 1;
    else if (aum !== null) {
      const base = Math.max(0, Math.log10(aum) - 7);
      const scale = type === 'pe' ? 28 : type === 'family_office' ? 6 : 12;
      teamSize = Math.max(2, Math.round((2 + Math.pow(base, 1.6) * scale) * rng.float(0.6, 1.4)));
    } else teamSize = rng.next() < 0.1 ? null : rng.int(type === 'accelerator' ? 3 : 2, 40);

    const age = foundedYear === null ? rng.int(2, 12) : Math.max(1, nowYear - foundedYear);
    const dealsPerYear: Record<InvestorType, readonly [number, number]> = {
      vc: stages.includes('Pre-Seed') || stages.includes('Seed') ? [3, 20] : [1.5, 9],
      angel: [1, 8],
      pe: [0.5, 4],
      corporate: [1, 8],
      accelerator: [8, 60],
      family_office: [0.5, 5],
      fund: [1, 8],
      government: [3, 30],
    };
    const [dMin, dMax] = dealsPerYear[type];
    const portfolioCompaniesCount = rng.next() < 0.08 ? null : Math.max(1, Math.round(Math.min(age, 25) * rng.float(dMin, dMax)));

    const notableCount = Math.min(portfolioCompaniesCount ?? 3, type === 'angel' ? rng.int(0, 4) : rng.int(0, 6));
    const notableInvestments = pickDistinct(
      rng,
      Array.from({ length: notableCount * 3 }, () => [rng.pick(pools.startups), 1] as const),
      notableCount,
      (item, chosen) => !chosen.includes(item),
    );

    // Activity and freshness
    const activelyInvesting = rng.next() < (type === 'government' || type === 'angel' ? 0.82 : 0.88);
    const lastUpdatedMs = recentMs(rng, nowMs, 730, 2);
    let lastInvestmentMs: number | null;
    if (activelyInvesting)
      lastInvestmentMs = rng.next() < 0.02 ? null : lastUpdatedMs - DAY * (1 + Math.floor(200 * Math.pow(rng.next(), 2.5)));
    else lastInvestmentMs = rng.next() < 0.6 ? null : lastUpdatedMs - DAY * rng.int(400, 1800);
    if (lastInvestmentMs !== null && foundedYear !== null) {
      const investedYear = new Date(lastInvestmentMs).getUTCFullYear();
      if (investedYear < foundedYear) foundedYear = investedYear - rng.int(0, 3);
    }

    // Web presence
    const nameSlug = urlSlug(name, '');
    let website: string;
    if (type === 'angel' && person) {
      website =
        rng.next() < 0.5
          ? `https://wellfound.com/u/${uniqueSlug(domains, person.slug)}`
          : `https://www.${uniqueSlug(domains, person.slug.replace(/-/g, ''))}.com`;
    } else {
      let domain = nameSlug;
      const core = urlSlug(name.replace(/\b(Capital|Ventures|Venture|Partners|VC|Equity)\b.*$/i, ''), '');
      const roll = rng.next();
      if (core && core !== nameSlug && roll < 0.12 && (type === 'vc' || type === 'corporate')) domain = `${core}.vc`;
      else if (core && core !== nameSlug && roll < 0.22 && / Capital/.test(name)) domain = `${core}cap`;
      if (!domain.includes('.')) domain = uniqueSlug(domains, domain);
      else if (domains.has(domain)) domain = uniqueSlug(domains, nameSlug);
      else domains.add(domain);
      website = domain.endsWith('.vc') ? `https://www.${domain}` : websiteFor(rng, domain, country, false);
    }
    const linkedinUrl =
      rng.next() < (type === 'angel' ? 0.1 : 0.05)
        ? null
        : type === 'angel' && person
          ? `https://www.linkedin.com/in/${uniqueSlug(linkedinSlugs, person.slug)}`
          : `https://www.linkedin.com/company/${uniqueSlug(linkedinSlugs, urlSlug(name))}`;
    const twitterNull = type === 'angel' ? 0.4 : type === 'government' || type === 'family_office' ? 0.55 : 0.18;
    let twitterUrl: string | null = null;
    if (rng.next() >= twitterNull) {
      const handleBase = (person ? person.slug.replace(/-/g, '') : nameSlug).slice(0, 13);
      twitterUrl = `https://twitter.com/${uniqueSlug(handles, handleBase, '')}`;
    }

    const description = investorDescription(rng, type, name, focus, stages, check, place, country, extra);

    yield {
      id,
      name,
      investorType: type,
      country: country.name,
      city,
      state,
      description,
      website,
      linkedinUrl,
      twitterUrl,
      foundedYear,
      teamSize,
      aum,
      investmentFocus: focus,
      investmentStage: stages,
      typicalCheckSize: check,
      portfolioCompaniesCount,
      notableInvestments,
      activelyInvesting,
      lastInvestmentDate: lastInvestmentMs === null ? null : isoDay(lastInvestmentMs),
      lastUpdated: isoSeconds(lastUpdatedMs),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Job changes
// ---------------------------------------------------------------------------------------------

// Role families: [relative frequency, variants from most to least common]. Leading variants are the
// usual spellings; later ones are the abbreviations and phrasings people also put on profiles.
const ROLE_FAMILIES: ReadonlyArray<readonly [number, readonly string[]]> = [
  [
    110,
    [
      'Software Engineer',
      'Software Developer',
      'Backend Engineer',
      'Full Stack Engineer',
      'Frontend Engineer',
      'Software Engineer II',
      'Full-Stack Developer',
      'Backend Developer',
      'Front-End Developer',
      'Software Development Engineer',
      'Mobile Engineer',
      'iOS Engineer',
      'Android Engineer',
      'Platform Engineer',
      'DevOps Engineer',
      'Site Reliability Engineer',
      'Software Engineer III',
      'Cloud Engineer',
      'QA Engineer',
      'Machine Learning Engineer',
      'Infrastructure Engineer',
      'Security Engineer',
      'Front End Engineer',
      'Fullstack Engineer',
      'SWE',
      'SDE II',
      'SRE',
      'iOS Developer',
      'Android Developer',
      'Software Engineer, Backend',
      'Software Engineer - Infrastructure',
      'Embedded Software Engineer',
      'Firmware Engineer',
      'Test Automation Engineer',
      'ML Engineer',
      'Member of Technical Staff',
      'Application Security Engineer',
      'Junior Software Engineer',
      'Software Engineer (Contract)',
      'Web Developer',
    ],
  ],
  [
    65,
    [
      'Senior Software Engineer',
      'Sr. Software Engineer',
      'Senior Backend Engineer',
      'Senior Full Stack Engineer',
      'Senior Frontend Engineer',
      'Sr Software Engineer',
      'Senior Software Developer',
      'Senior DevOps Engineer',
      'Senior iOS Engineer',
      'Senior SWE',
      'Senior SRE',
      'Sr. SWE',
      'Senior Machine Learning Engineer',
      'Senior Software Engineer II',
      'Lead Software Engineer',
      'Senior Member of Technical Staff',
    ],
  ],
  [
    24,
    [
      'Staff Engineer',
      'Tech Lead',
      'Staff Software Engineer',
      'Principal Engineer',
      'Technical Lead',
      'Engineering Lead',
      'Lead Engineer',
      'Principal Software Engineer',
      'Senior Staff Engineer',
      'Software Architect',
      'Architect',
      'Distinguished Engineer',
      'TL',
    ],
  ],
  [
    24,
    [
      'Engineering Manager',
      'Software Engineering Manager',
      'Senior Engineering Manager',
      'Eng Manager',
      'Manager, Software Engineering',
      'Sr. Engineering Manager',
      'Engineering Manager, Platform',
      'Development Manager',
      'Manager of Engineering',
      'EM',
    ],
  ],
  [
    8,
    [
      'Director of Engineering',
      'Director, Engineering',
      'Engineering Director',
      'Senior Director of Engineering',
      'Dir. Engineering',
      'Sr. Director, Engineering',
      'Director of Software Engineering',
    ],
  ],
  [6, ['Head of Engineering', 'Head of Eng', 'Head of Platform', 'Head of Software Engineering', 'Head of Infrastructure']],
  [
    5,
    [
      'VP Engineering',
      'VP of Engineering',
      'Vice President, Engineering',
      'Vice President of Engineering',
      'VP, Engineering',
      'VP of Eng',
      'VP Eng',
      'SVP Engineering',
      'Senior Vice President, Engineering',
    ],
  ],
  [
    4.5,
    [
      'Chief Technology Officer',
      'CTO',
      'Co-Founder & CTO',
      'Founder/CTO',
      'Co-founder and CTO',
      'CTO & Co-Founder',
      'Cofounder & CTO',
      'Interim CTO',
      'Fractional CTO',
    ],
  ],
  [
    28,
    [
      'Product Manager',
      'Senior Product Manager',
      'Sr. Product Manager',
      'Technical Product Manager',
      'Associate Product Manager',
      'Senior PM',
      'Product Owner',
      'Group Product Manager',
      'Principal Product Manager',
      'PM',
      'Product Manager II',
      'Sr Product Manager',
      'Sr. PM',
      'Lead Product Manager',
      'Product Lead',
      'Staff Product Manager',
      'APM',
    ],
  ],
  [
    9,
    [
      'Director of Product',
      'Head of Product',
      'VP Product',
      'VP of Product',
      'Director, Product Management',
      'Product Director',
      'Chief Product Officer',
      'Vice President, Product',
      'Head of Product Management',
      'Dir. Product',
      'Vice President of Product Management',
      'CPO',
      'Chief Product & Technology Officer',
    ],
  ],
  [
    18,
    [
      'Product Designer',
      'Senior Product Designer',
      'UX Designer',
      'UI/UX Designer',
      'Sr. Product Designer',
      'UX Researcher',
      'Visual Designer',
      'Brand Designer',
      'Graphic Designer',
      'UX/UI Designer',
      'User Researcher',
      'Content Designer',
      'Staff Product Designer',
      'UX Writer',
      'Lead Designer',
      'Design Lead',
    ],
  ],
  [
    5,
    [
      'Design Manager',
      'Head of Design',
      'Director of Design',
      'VP Design',
      'Chief Design Officer',
      'Creative Director',
      'Head of UX',
    ],
  ],
  [
    32,
    [
      'Data Scientist',
      'Data Analyst',
      'Data Engineer',
      'Senior Data Scientist',
      'Senior Data Analyst',
      'Analytics Engineer',
      'Senior Data Engineer',
      'Business Intelligence Analyst',
      'Sr. Data Scientist',
      'Machine Learning Scientist',
      'Applied Scientist',
      'Research Scientist',
      'BI Analyst',
      'AI Engineer',
      'Data Analyst II',
      'Quantitative Analyst',
    ],
  ],
  [
    6,
    [
      'Head of Data',
      'Data Science Manager',
      'Director of Data Science',
      'Head of Data Science',
      'Director, Analytics',
      'Head of AI',
      'VP Data',
      'Chief Data Officer',
      'Head of Analytics',
      'CDO',
      'Chief AI Officer',
      'VP of Data & AI',
    ],
  ],
  [
    70,
    [
      'Account Executive',
      'Senior Account Executive',
      'Sales Development Representative',
      'Account Manager',
      'Business Development Representative',
      'Enterprise Account Executive',
      'Sr. Account Executive',
      'SDR',
      'BDR',
      'Key Account Manager',
      'Mid-Market Account Executive',
      'Business Development Manager',
      'Sales Representative',
      'Sales Executive',
      'Inside Sales Representative',
      'Strategic Account Executive',
      'Account Executive, EMEA',
      'Account Executive - Mid Market',
      'AE',
      'Partnerships Manager',
      'BD Manager',
      'Enterprise AE',
      'Senior Business Development Manager',
      'Channel Sales Manager',
    ],
  ],
  [
    13,
    [
      'Solutions Engineer',
      'Sales Engineer',
      'Solutions Architect',
      'Solutions Consultant',
      'Pre-Sales Consultant',
      'Senior Solutions Engineer',
      'Presales Engineer',
      'Customer Engineer',
    ],
  ],
  [
    16,
    [
      'Sales Manager',
      'Regional Sales Manager',
      'Area Sales Manager',
      'Sales Team Lead',
      'Senior Sales Manager',
      'National Sales Manager',
      'Sales Manager, DACH',
      'Manager, Sales Development',
      'SDR Manager',
    ],
  ],
  [
    13,
    [
      'Director of Sales',
      'Head of Sales',
      'VP Sales',
      'Sales Director',
      'VP of Sales',
      'Regional Sales Director',
      'Vice President of Sales',
      'Head of Business Development',
      'Head of Partnerships',
      'Chief Revenue Officer',
      'Vice President, Sales',
      'Dir. Sales',
      'Director, Enterprise Sales',
      'CRO',
      'Head of Sales, EMEA',
      'VP, Global Sales',
      'SVP Sales',
      'Chief Commercial Officer',
      'Chief Business Officer',
      'Country Manager',
      'General Manager',
      'GM, North America',
      'Head of Sales - APAC',
    ],
  ],
  [
    40,
    [
      'Marketing Manager',
      'Product Marketing Manager',
      'Digital Marketing Manager',
      'Content Marketing Manager',
      'Senior Marketing Manager',
      'Marketing Specialist',
      'Brand Manager',
      'Performance Marketing Manager',
      'Demand Generation Manager',
      'Social Media Manager',
      'Marketing Coordinator',
      'Senior Product Marketing Manager',
      'Field Marketing Manager',
      'Communications Manager',
      'PR Manager',
      'Content Strategist',
      'SEO Specialist',
      'SEO Manager',
      'Marketing Operations Manager',
      'PMM',
      'Demand Gen Manager',
      'Event Manager',
      'Copywriter',
      'Marketing Associate',
    ],
  ],
  [
    11,
    [
      'Director of Marketing',
      'Head of Marketing',
      'VP Marketing',
      'Marketing Director',
      'VP of Marketing',
      'Chief Marketing Officer',
      'CMO',
      'Director, Product Marketing',
      'Head of Brand',
      'Vice President, Marketing',
      'Head of Content',
      'Dir. Marketing',
      'Head of Product Marketing',
      'Director of Demand Generation',
      'Head of Communications',
      'Vice President of Marketing',
      'SVP Marketing',
    ],
  ],
  [
    9,
    [
      'Growth Manager',
      'Head of Growth',
      'Growth Lead',
      'Growth Marketing Manager',
      'Growth Product Manager',
      'Lifecycle Marketing Manager',
      'Director of Growth',
      'VP Growth',
      'Growth Engineer',
      'Growth Analyst',
      'Growth Marketer',
      'VP of Growth',
      'Chief Growth Officer',
      'Growth Hacker',
      'Head of Growth Marketing',
    ],
  ],
  [
    40,
    [
      'Customer Success Manager',
      'Senior Customer Success Manager',
      'CSM',
      'Customer Support Specialist',
      'Technical Account Manager',
      'Implementation Manager',
      'Customer Success Associate',
      'Support Engineer',
      'Customer Experience Manager',
      'Technical Support Engineer',
      'Onboarding Specialist',
      'Implementation Consultant',
      'Customer Success Lead',
      'Sr. CSM',
      'TAM',
      'Customer Support Team Lead',
      'Enterprise Customer Success Manager',
    ],
  ],
  [
    6,
    [
      'Head of Customer Success',
      'Director of Customer Success',
      'VP Customer Success',
      'Head of Support',
      'VP of Customer Success',
      'Director, Customer Experience',
      'Chief Customer Officer',
      'Head of CX',
      'Vice President, Customer Success',
      'CCO',
    ],
  ],
  [
    36,
    [
      'Operations Manager',
      'Program Manager',
      'Project Manager',
      'Technical Program Manager',
      'Business Operations Manager',
      'Chief of Staff',
      'Revenue Operations Manager',
      'Operations Analyst',
      'Senior Program Manager',
      'Sales Operations Manager',
      'Strategy & Operations Manager',
      'TPM',
      'RevOps Manager',
      'BizOps Manager',
      'Supply Chain Manager',
      'Procurement Manager',
      'Office Manager',
      'Executive Assistant',
      'Strategy and Operations Lead',
      'Operations Associate',
      'Business Analyst',
      'Senior Business Analyst',
    ],
  ],
  [
    8,
    [
      'Head of Operations',
      'Director of Operations',
      'Chief Operating Officer',
      'COO',
      'VP Operations',
      'VP of Operations',
      'Operations Director',
      'Head of Ops',
      'Vice President, Operations',
      'Head of Business Operations',
      'President & COO',
      'Director, Strategy & Operations',
    ],
  ],
  [
    22,
    [
      'Financial Analyst',
      'Senior Financial Analyst',
      'Accountant',
      'Finance Manager',
      'FP&A Manager',
      'Senior Accountant',
      'Controller',
      'FP&A Analyst',
      'Staff Accountant',
      'Financial Controller',
      'Assistant Controller',
      'Corporate Controller',
      'Treasury Manager',
      'Tax Manager',
      'Investor Relations Manager',
      'Payroll Specialist',
    ],
  ],
  [
    7,
    [
      'Chief Financial Officer',
      'CFO',
      'VP Finance',
      'Head of Finance',
      'Director of Finance',
      'Finance Director',
      'VP of Finance',
      'Vice President, Finance',
      'Director, FP&A',
      'Interim CFO',
      'Fractional CFO',
      'Head of Investor Relations',
      'SVP Finance',
    ],
  ],
  [
    26,
    [
      'Recruiter',
      'Technical Recruiter',
      'Talent Acquisition Partner',
      'Senior Technical Recruiter',
      'HR Business Partner',
      'Talent Partner',
      'HR Manager',
      'Talent Acquisition Specialist',
      'People Partner',
      'People Operations Manager',
      'HR Generalist',
      'Recruiting Coordinator',
      'Sourcer',
      'HRBP',
      'People Ops Manager',
      'Recruiting Manager',
      'Learning & Development Manager',
      'Total Rewards Manager',
      'Senior Recruiter',
    ],
  ],
  [
    7,
    [
      'Head of People',
      'Head of Talent',
      'Chief People Officer',
      'VP People',
      'Head of Talent Acquisition',
      'Director of People',
      'Head of HR',
      'HR Director',
      'VP of People',
      'CHRO',
      'Director of Talent Acquisition',
      'Chief Human Resources Officer',
      'Vice President, People',
      'VP Talent',
    ],
  ],
  [
    9,
    [
      'General Counsel',
      'Corporate Counsel',
      'Legal Counsel',
      'Senior Counsel',
      'Associate General Counsel',
      'Compliance Manager',
      'Paralegal',
      'Senior Legal Counsel',
      'Product Counsel',
      'Deputy General Counsel',
      'Compliance Officer',
      'Head of Legal',
      'Chief Legal Officer',
      'GC',
      'Commercial Counsel',
      'Privacy Counsel',
      'Data Protection Officer',
      'Chief Compliance Officer',
      'VP Legal',
      'Director of Legal',
      'CLO',
      'VP, Legal',
    ],
  ],
  [
    11,
    [
      'Co-Founder & CEO',
      'Founder & CEO',
      'Co-Founder',
      'Founder',
      'Co-founder',
      'Founder/CEO',
      'CEO & Founder',
      'Co-founder and CEO',
      'CEO & Co-Founder',
      'Cofounder',
      'Founding Engineer',
      'Founder & President',
      'Entrepreneur in Residence',
      'Founding Product Designer',
      'Founder, Stealth Startup',
      'Founding Account Executive',
      'Stealth Founder',
      'Founder in Residence',
      'EIR',
      'Co-Founder & COO',
      'Co-Founder & CPO',
    ],
  ],
  [
    9,
    [
      'Chief Executive Officer',
      'CEO',
      'President',
      'Managing Director',
      'President & CEO',
      'Advisor',
      'Board Member',
      'President and CEO',
      'Interim CEO',
      'Executive Director',
      'MD',
      'Board Advisor',
      'Operating Partner',
      'Venture Partner',
      'Partner',
      'Principal',
      'Executive Chairman',
      'Non-Executive Director',
    ],
  ],
  [
    14,
    [
      'Consultant',
      'Senior Consultant',
      'Associate',
      'Analyst',
      'Senior Associate',
      'Strategy Consultant',
      'Management Consultant',
      'Research Analyst',
      'Intern',
      'Software Engineering Intern',
      'Product Management Intern',
    ],
  ],
];

const ROLE_TAGLINES = [
  "We're hiring!",
  'Hiring',
  'B2B SaaS',
  'Python | AWS',
  'Building in stealth',
  'Ex-FAANG',
  'MBA',
  'PhD',
  'CPA',
  'PMP',
  'Angel Investor',
  'Advisor',
  'Speaker',
  'Open to advisory roles',
];

let roleTableCache: Weighted<string> | undefined;

function roleTable(): Weighted<string> {
  if (roleTableCache) return roleTableCache;
  const weights = new Map<string, number>();
  for (const [familyWeight, variants] of ROLE_FAMILIES) {
    const decay = variants.map((_, i) => 1 / Math.pow(i + 1, 0.9));
    const sum = decay.reduce((a, b) => a + b, 0);
    variants.forEach((variant, i) =>
      weights.set(variant, (weights.get(variant) ?? 0) + (familyWeight * (decay[i] as number)) / sum),
    );
  }
  roleTableCache = new Weighted([...weights.entries()]);
  return roleTableCache;
}

function oddCasing(rng: Rng, role: string): string {
  const roll = rng.next();
  if (roll < 0.6) return role.toLowerCase();
  if (roll < 0.8) return role.toUpperCase();
  return role.replace(/[A-Za-z]+/g, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
}

interface CompanyPool {
  names: readonly string[];
  linkedin: readonly string[];
  table: Weighted<number>;
}

const JOB_COMPANY_POOL_SIZE = 40_000;

function buildCompanyPool(seed: number): CompanyPool {
  const rng = new Rng(mersenneRandomizer(seed, STREAM.jobChangePools));
  const surnames = firmSurnames();
  const taken = new Set<string>();
  const slugs = new Set<string>();
  const names: string[] = [];
  const linkedin: string[] = [];
  let guard = 0;
  while (names.length < JOB_COMPANY_POOL_SIZE && guard++ < JOB_COMPANY_POOL_SIZE * 20) {
    let name = companyName(rng, surnames);
    if (!name.includes('.') && rng.next() < 0.08) name += rng.pick([' Inc.', ' Inc', ' LLC', ' Ltd', ' GmbH', ' Corp.']);
    const key = withoutLegalSuffix(name).toLowerCase();
    if (taken.has(key)) continue;
    taken.add(key);
    const slug = urlSlug(withoutLegalSuffix(name));
    if (!slug) continue;
    names.push(name);
    linkedin.push(`https://www.linkedin.com/company/${uniqueSlug(slugs, rng.next() < 0.15 ? slug.replace(/-/g, '') : slug)}`);
  }
  // Employer popularity is heavy-tailed: a few large companies hire constantly, most rarely.
  const table = new Weighted(names.map((_, i) => [i, 1 / Math.pow(i + 1, 0.6)] as const));
  return { names, linkedin, table };
}

interface KnownPerson {
  name: string;
  url: string;
  company: number;
  occurredMs: number;
}

export function* generateJobChanges(seed: number, count: number, now: Date): Generator<JobChangeRecord> {
  const rng = new Rng(mersenneRandomizer(seed, STREAM.jobChanges));
  const companies = buildCompanyPool(seed);
  const roles = roleTable();
  const groups = nameGroups();
  const nowMs = now.getTime();
  const spanMs = (3 * 365 - 1) * DAY;
  const windowStart = nowMs - 3 * 365 * DAY;
  // Profile URLs carry a 6-hex suffix that is a bijection of the person number, so they never repeat
  // (for up to 16.7M distinct people per call).
  const hexMask = new Rng(mersenneRandomizer(seed, STREAM.jobChangePools + 1)).int(0, 0xffffff);
  const recent: KnownPerson[] = [];
  const RECENT_SIZE = 4096;
  let people = 0;

  for (let i = 0; i < count; i++) {
    const signalId = rng.uuid();

    // When it happened: denser towards now; often day- or month-precision like profile dates.
    let occurredMs = nowMs - HOUR - spanMs * Math.pow(rng.next(), 1.6);
    const precision = rng.next();
    if (precision < 0.45) occurredMs = Math.floor(occurredMs / DAY) * DAY;
    else if (precision < 0.7) {
      const d = new Date(occurredMs);
      const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
      occurredMs = monthStart >= windowStart ? monthStart : Math.floor(occurredMs / DAY) * DAY;
    } else occurredMs = Math.floor(occurredMs / 1000) * 1000;

    // Who: mostly new people, sometimes someone seen earlier moving on again.
    let person: KnownPerson | undefined;
    let previous: number | null;
    if (recent.length > 64 && rng.next() < 0.07) {
      const slot = rng.int(0, recent.length - 1);
      const known = recent[slot] as KnownPerson;
      const later = known.occurredMs + DAY * rng.int(60, 900);
      if (later <= nowMs - HOUR) {
        occurredMs = Math.floor(later / DAY) * DAY;
        person = known;
      }
    }
    let company = companies.table.pick(rng);
    if (person) {
      previous = person.company;
      while (company === previous) company = companies.table.pick(rng);
      person.company = company;
      person.occurredMs = occurredMs;
    } else {
      const name = drawPersonName(rng, groups);
      const hex = (((people * 0x9e3779 + 0x5bd1e9) % 0x1000000) ^ hexMask).toString(16).padStart(6, '0');
      people++;
      const url = `https://www.linkedin.com/in/${name.slug}-${hex}`;
      if (rng.next() < 0.15) previous = null;
      else {
        previous = companies.table.pick(rng);
        while (previous === company) previous = companies.table.pick(rng);
      }
      person = { name: name.full, url, company, occurredMs };
      if (recent.length < RECENT_SIZE) recent.push(person);
      else recent[rng.int(0, RECENT_SIZE - 1)] = person;
    }

    // When it was noticed: hours to a month later, never in the future.
    const lagRoll = rng.next();
    const lag = lagRoll < 0.55 ? HOUR * rng.float(1, 48) : lagRoll < 0.9 ? DAY * rng.float(2, 10) : DAY * rng.float(10, 30);
    let discoveredMs = occurredMs + lag;
    if (discoveredMs > nowMs) discoveredMs = occurredMs + (nowMs - occurredMs) * rng.float(0.2, 1);

    const companyName = companies.names[company] as string;
    let newRole = roles.pick(rng);
    const quirk = rng.next();
    if (quirk < 0.02) newRole = `${newRole} @ ${companyName}`;
    else if (quirk < 0.027) newRole = `${newRole} at ${companyName}`;
    else if (quirk < 0.035) newRole = `${newRole} | ${rng.pick(ROLE_TAGLINES)}`;
    else if (quirk < 0.05) newRole = oddCasing(rng, newRole);

    yield {
      signalId,
      personName: person.name,
      personLinkedinUrl: person.url,
      signalType: 'job_change',
      occurredAt: isoSeconds(occurredMs),
      discoveredAt: isoSeconds(discoveredMs),
      companyName,
      companyLinkedinUrl: companies.linkedin[company] as string,
      newRole,
      previousCompanyName: previous === null ? null : (companies.names[previous] as string),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Acquisition signals
// ---------------------------------------------------------------------------------------------

interface Industry {
  name: string;
  category: string;
  weight: number;
  /** Revenue per employee, USD (median). */
  revenuePerEmployee: number;
  products: readonly string[];
  audiences: readonly string[];
  descriptors: readonly string[];
  techy: boolean;
}

// name, category, weight, revenue/employee (k USD), products; audiences; descriptors
const INDUSTRY_DATA: ReadonlyArray<readonly [string, string, number, number, string, string, string]> = [
  [
    'Software Development',
    'Technology',
    14,
    190,
    'enterprise software solutions|workflow automation software|developer tooling|B2B SaaS platforms|low-code application tools',
    'modern businesses|mid-market companies|engineering teams|enterprises',
    'Software|Technologies|Labs|Systems|Cloud|Apps',
  ],
  [
    'IT Services and IT Consulting',
    'Technology',
    7,
    120,
    'managed IT services|cloud migration services|digital transformation consulting|IT support and infrastructure management',
    'mid-sized enterprises|public sector organisations|financial institutions',
    'Consulting|IT Solutions|Technologies|Digital|Services|Group',
  ],
  [
    'Computer and Network Security',
    'Technology',
    5,
    210,
    'endpoint security software|threat detection and response|identity and access management|cloud security posture management',
    'security teams|regulated industries|enterprises',
    'Security|Cyber|Defense|Shield|Secure',
  ],
  [
    'Data Infrastructure and Analytics',
    'Technology',
    4,
    220,
    'data integration pipelines|real-time analytics platforms|business intelligence software|data observability tools',
    'data teams|analysts|enterprises',
    'Data|Analytics|Insights|Metrics',
  ],
  [
    'Artificial Intelligence',
    'Technology',
    4,
    200,
    'machine learning infrastructure|conversational AI|computer vision software|AI copilots for knowledge workers',
    'enterprises|product teams|contact centers',
    'AI|Intelligence|Labs|Machines',
  ],
  [
    'Semiconductor Manufacturing',
    'Technology',
    1.2,
    420,
    'power semiconductors|RF chipsets|edge AI accelerators|sensor ICs',
    'device makers|automotive suppliers|industrial OEMs',
    'Semiconductor|Microsystems|Silicon|Devices',
  ],
  [
    'Computer Hardware',
    'Technology',
    1.2,
    300,
    'rugged edge computing hardware|storage appliances|networking equipment|IoT gateways',
    'industrial customers|data centers|telecom operators',
    'Devices|Systems|Hardware|Electronics',
  ],
  [
    'Internet Marketplace Platforms',
    'Technology',
    2.5,
    260,
    'B2B procurement marketplaces|online marketplaces for local services|resale marketplaces',
    'small businesses|consumers|independent sellers',
    'Market|Marketplace|Exchange|Hub',
  ],
  [
    'Healthcare Technology',
    'Healthcare',
    6,
    180,
    'patient engagement software|clinical workflow tools|remote patient monitoring|revenue cycle management software',
    'hospitals|clinics|health systems|payers',
    'Health|HealthTech|Care|Medical|Clinical',
  ],
  [
    'Hospitals and Health Care',
    'Healthcare',
    3,
    110,
    'outpatient care services|specialty clinics|home health services',
    'patients|employers|local communities',
    'Health|Care|Medical Group|Clinics',
  ],
  [
    'Biotechnology Research',
    'Healthcare',
    3,
    260,
    'novel antibody therapeutics|gene therapy programs|diagnostic assays|cell therapy platforms',
    'pharmaceutical partners|clinicians|patients',
    'Bio|Therapeutics|Biosciences|Genomics',
  ],
  [
    'Pharmaceutical Manufacturing',
    'Healthcare',
    1.5,
    380,
    'generic pharmaceuticals|specialty drug formulations|contract manufacturing services',
    'pharmacies|hospitals|drug developers',
    'Pharma|Pharmaceuticals|Labs',
  ],
  [
    'Medical Equipment Manufacturing',
    'Healthcare',
    2,
    260,
    'surgical devices|diagnostic imaging equipment|wearable medical devices',
    'hospitals|surgeons|diagnostic labs',
    'Medical|Devices|Surgical|MedTech',
  ],
  [
    'Financial Services',
    'Finance',
    6,
    300,
    'payment processing solutions|wealth management services|lending products|embedded finance infrastructure',
    'small businesses|consumers|banks|fintech companies',
    'Financial|Capital|Pay|Finance|Payments',
  ],
  [
    'Banking',
    'Finance',
    1.5,
    380,
    'digital banking services|commercial lending|treasury management',
    'small businesses|retail customers|corporates',
    'Bank|Financial|Trust',
  ],
  [
    'Insurance',
    'Finance',
    2.5,
    340,
    'commercial insurance products|embedded insurance|claims automation software',
    'small businesses|brokers|insurers',
    'Insurance|Assurance|Underwriters|Insure',
  ],
  [
    'Investment Management',
    'Finance',
    1.5,
    450,
    'portfolio management software|alternative investment products|wealth advisory services',
    'family offices|asset managers|high-net-worth clients',
    'Asset Management|Wealth|Investments|Advisors',
  ],
  [
    'Retail',
    'Consumer',
    3,
    140,
    'specialty retail stores|omnichannel retail experiences|private-label consumer goods',
    'shoppers|families|outdoor enthusiasts',
    'Retail|Stores|Goods|Supply',
  ],
  [
    'Online and Mail Order Retail',
    'Consumer',
    3,
    210,
    'direct-to-consumer products|subscription boxes|online specialty stores',
    'consumers|pet owners|home cooks',
    'Shop|Direct|Co|Goods',
  ],
  [
    'Food and Beverage Manufacturing',
    'Consumer',
    2.5,
    230,
    'plant-based foods|craft beverages|healthy snacks|specialty coffee',
    'grocery chains|restaurants|consumers',
    'Foods|Beverages|Kitchen|Brewing',
  ],
  [
    'Consumer Goods',
    'Consumer',
    2,
    220,
    'home goods|personal care products|sustainable household essentials',
    'retailers|consumers|families',
    'Brands|Goods|Home|Essentials',
  ],
  [
    'Apparel and Fashion',
    'Consumer',
    1.5,
    200,
    'sustainable apparel|performance sportswear|accessories',
    'fashion retailers|athletes|consumers',
    'Apparel|Wear|Clothing|Studio',
  ],
  [
    'Industrial Machinery Manufacturing',
    'Industrial',
    3,
    250,
    'precision machining equipment|industrial pumps and valves|packaging machinery',
    'manufacturers|food processors|utilities',
    'Industries|Machinery|Manufacturing|Engineering',
  ],
  [
    'Automation Machinery Manufacturing',
    'Industrial',
    2,
    260,
    'industrial robotics|warehouse automation systems|machine vision inspection',
    'manufacturers|logistics operators|automotive plants',
    'Robotics|Automation|Dynamics|Systems',
  ],
  [
    'Construction',
    'Industrial',
    2.5,
    230,
    'commercial construction services|modular building systems|construction management software',
    'developers|municipalities|general contractors',
    'Construction|Builders|Building Group|Contracting',
  ],
  [
    'Chemical Manufacturing',
    'Industrial',
    1.2,
    400,
    'specialty chemicals|bio-based materials|coatings and adhesives',
    'industrial manufacturers|consumer brands|agriculture',
    'Chemicals|Materials|Polymers',
  ],
  [
    'Aviation and Aerospace Component Manufacturing',
    'Aerospace & Defense',
    1.2,
    280,
    'aerospace components|satellite subsystems|drone platforms',
    'aircraft OEMs|space agencies|defense primes',
    'Aerospace|Aviation|Space|Dynamics',
  ],
  [
    'Defense and Space Manufacturing',
    'Aerospace & Defense',
    0.8,
    300,
    'defense electronics|launch services|situational awareness software',
    'defense agencies|allied governments|satellite operators',
    'Defense|Space|Systems|Technologies',
  ],
  [
    'Renewable Energy',
    'Energy',
    3,
    330,
    'solar project development|battery storage systems|EV charging infrastructure|wind energy services',
    'utilities|commercial property owners|municipalities',
    'Energy|Power|Solar|Renewables|Grid',
  ],
  [
    'Oil and Gas',
    'Energy',
    1.2,
    600,
    'oilfield services|pipeline inspection|midstream logistics',
    'energy producers|refiners|utilities',
    'Energy|Resources|Petroleum|Services',
  ],
  [
    'Utilities',
    'Energy',
    1,
    450,
    'energy efficiency services|smart metering|water infrastructure services',
    'households|municipalities|industrial users',
    'Utilities|Power|Water|Energy',
  ],
  [
    'Environmental Services',
    'Energy',
    1.5,
    200,
    'carbon accounting software|waste recycling services|environmental consulting',
    'corporates|municipalities|industrial sites',
    'Environmental|Climate|Carbon|Recycling',
  ],
  [
    'Media Production',
    'Media',
    1.5,
    180,
    'branded video content|podcast production|post-production services',
    'brands|streaming platforms|agencies',
    'Media|Studios|Productions|Pictures',
  ],
  [
    'Computer Games',
    'Media',
    2,
    250,
    'mobile games|multiplayer PC games|game development tools',
    'players|game studios|publishers',
    'Games|Studios|Interactive|Entertainment',
  ],
  [
    'Advertising Services',
    'Media',
    2,
    200,
    'performance marketing services|programmatic advertising|influencer marketing campaigns',
    'consumer brands|e-commerce companies|agencies',
    'Media|Marketing|Agency|Creative',
  ],
  [
    'Online Audio and Video Media',
    'Media',
    1,
    230,
    'streaming platforms|creator monetisation tools|video hosting',
    'creators|publishers|audiences',
    'Media|Stream|TV|Audio',
  ],
  [
    'Real Estate',
    'Real Estate',
    2,
    260,
    'commercial property management|residential real estate services|property development',
    'tenants|investors|homebuyers',
    'Properties|Realty|Real Estate|Estates',
  ],
  [
    'Real Estate Technology',
    'Real Estate',
    1.5,
    200,
    'property management software|real estate transaction platforms|smart building technology',
    'landlords|brokers|property managers',
    'Homes|Property|Spaces|Living',
  ],
  [
    'E-Learning Providers',
    'Education',
    2.5,
    160,
    'online learning platforms|corporate training software|language learning apps',
    'students|employers|schools',
    'Learning|Academy|Education|Edu',
  ],
  [
    'Education Administration Programs',
    'Education',
    1,
    120,
    'student information systems|school management software|tutoring services',
    'schools|universities|parents',
    'Education|Schools|Learning',
  ],
  [
    'Transportation, Logistics, Supply Chain and Storage',
    'Transportation',
    3,
    210,
    'freight brokerage|last-mile delivery|warehouse management software|supply chain visibility tools',
    'shippers|retailers|manufacturers',
    'Logistics|Freight|Transport|Shipping|Supply Chain',
  ],
  [
    'Motor Vehicle Manufacturing',
    'Transportation',
    1,
    330,
    'electric commercial vehicles|vehicle components|micromobility vehicles',
    'fleet operators|automakers|cities',
    'Motors|Mobility|Automotive|Vehicles',
  ],
  [
    'Airlines and Aviation',
    'Transportation',
    0.6,
    300,
    'regional air services|aviation maintenance|charter flights',
    'travellers|cargo shippers|airlines',
    'Aviation|Air|Airways|Jet',
  ],
  [
    'Telecommunications',
    'Telecommunications',
    2,
    360,
    'fiber broadband|private 5G networks|unified communications services',
    'enterprises|households|carriers',
    'Telecom|Networks|Communications|Connect',
  ],
  [
    'Business Consulting and Services',
    'Professional Services',
    3,
    170,
    'management consulting|outsourced business services|procurement advisory',
    'mid-market companies|private equity firms|public sector clients',
    'Consulting|Advisory|Partners|Group',
  ],
  [
    'Staffing and Recruiting',
    'Professional Services',
    1.5,
    130,
    'technical recruiting services|contract staffing|executive search',
    'technology companies|hospitals|manufacturers',
    'Talent|Staffing|Recruiting|People',
  ],
  [
    'Legal Services',
    'Professional Services',
    0.8,
    220,
    'legal technology|contract management services|compliance advisory',
    'law firms|corporate legal teams|compliance officers',
    'Legal|Law|Compliance',
  ],
  [
    'Farming',
    'Agriculture',
    1,
    180,
    'vertical farming|precision agriculture services|crop inputs',
    'growers|grocers|food processors',
    'Farms|Agri|Harvest|Growers',
  ],
  [
    'Hospitality',
    'Hospitality',
    1.5,
    90,
    'boutique hotels|hospitality management software|travel experiences',
    'travellers|hotel operators|event organisers',
    'Hospitality|Hotels|Travel|Stays',
  ],
  [
    'Restaurants',
    'Hospitality',
    1,
    70,
    'fast-casual restaurants|restaurant management software|ghost kitchens',
    'diners|restaurant operators|franchisees',
    'Kitchen|Eats|Restaurant Group|Dining',
  ],
];

const INDUSTRIES: readonly Industry[] = INDUSTRY_DATA.map(([name, category, weight, rpe, products, audiences, descriptors]) => ({
  name,
  category,
  weight,
  revenuePerEmployee: rpe * 1000,
  products: products.split('|'),
  audiences: audiences.split('|'),
  descriptors: descriptors.split('|'),
  techy:
    category === 'Technology' ||
    name.includes('Technology') ||
    name === 'Artificial Intelligence' ||
    name === 'E-Learning Providers',
}));

const INDUSTRY_TABLE = new Weighted(INDUSTRIES.map((industry) => [industry, industry.weight] as const));

// Indicator, contribution to the score, prevalence.
const SIGNAL_INDICATORS: ReadonlyArray<readonly [string, number, number]> = [
  ['Recent funding round', 6, 10],
  ['Leadership changes', 10, 12],
  ['Market consolidation', 11, 10],
  ['Declining growth', 9, 7],
  ['Founder departure', 13, 5],
  ['Strategic partnerships', 7, 10],
  ['Hiring freeze', 8, 6],
  ['Patent portfolio growth', 8, 6],
  ['Competitor acquired', 12, 7],
  ['Revenue plateau', 9, 6],
  ['Rapid growth', 6, 8],
  ['Market expansion', 5, 8],
  ['Layoffs', 9, 5],
  ['Board changes', 10, 5],
  ['Investment bank engaged', 16, 2],
  ['Down round', 11, 3],
  ['Late-stage investors seeking exit', 13, 3],
  ['Debt refinancing', 8, 4],
  ['Product line divestiture', 10, 3],
  ['Key customer concentration', 6, 4],
  ['Executive hires with M&A experience', 12, 3],
  ['Founder succession planning', 11, 3],
  ['Cost-cutting initiatives', 7, 5],
  ['Strategic review announced', 15, 2],
];

const INDICATOR_WEIGHT = new Map(SIGNAL_INDICATORS.map(([name, weight]) => [name, weight]));
const INDICATOR_ENTRIES = SIGNAL_INDICATORS.map(([name, , prevalence]) => [name, prevalence] as const);

/** Indicators that contradict each other on the same company. */
const CONFLICTS: ReadonlyArray<readonly [string, string]> = [
  ['Rapid growth', 'Declining growth'],
  ['Rapid growth', 'Revenue plateau'],
  ['Rapid growth', 'Hiring freeze'],
  ['Rapid growth', 'Layoffs'],
  ['Rapid growth', 'Cost-cutting initiatives'],
  ['Recent funding round', 'Down round'],
  ['Market expansion', 'Cost-cutting initiatives'],
  ['Market expansion', 'Hiring freeze'],
];

function compatible(item: string, chosen: readonly string[]): boolean {
  for (const [a, b] of CONFLICTS) {
    if ((item === a && chosen.includes(b)) || (item === b && chosen.includes(a))) return false;
  }
  return true;
}

const INDICATOR_COUNT = new Weighted<number>([
  [1, 16],
  [2, 24],
  [3, 26],
  [4, 18],
  [5, 10],
  [6, 6],
]);

function revenueBand(revenue: number): string {
  if (revenue < 5e6) return '1M-5M';
  if (revenue < 1e7) return '5M-10M';
  if (revenue < 5e7) return '10M-50M';
  if (revenue < 1e8) return '50M-100M';
  return '100M+';
}

function acquisitionDescription(
  rng: Rng,
  name: string,
  industry: Industry,
  country: CountryInfo,
  foundedYear: number,
  employees: number,
): string {
  const product = rng.pick(industry.products);
  const audience = rng.pick(industry.audiences);
  const short = withoutLegalSuffix(name);
  const roll = rng.next();
  if (roll < 0.22) return `Leading provider of ${product} for ${audience}.`;
  if (roll < 0.42) return `${short} ${rng.pick(['provides', 'delivers', 'offers'])} ${product} for ${audience}.`;
  if (roll < 0.6)
    return `Founded in ${foundedYear}, ${short} offers ${product} to ${audience} across ${country.code === 'US' ? 'North America' : inCountry(country)}.`;
  if (roll < 0.76)
    return `${capitalize(rng.pick(['innovative', 'fast-growing', 'independent', 'established', 'specialist']))} ${industry.category.toLowerCase()} company focused on ${product} for ${audience}.`;
  if (roll < 0.9)
    return `${short} helps ${audience} with ${product}. Headquartered in ${inCountry(country)} with a team of ${employees >= 1000 ? 'over 1,000' : employees >= 100 ? `${Math.floor(employees / 50) * 50}+` : 'fewer than 100'} people.`;
  return `${country.demonym} ${industry.name.toLowerCase()} company providing ${product} to ${audience}.`;
}

export function* generateAcquisitionSignals(seed: number, count: number, now: Date): Generator<AcquisitionSignalRecord> {
  const rng = new Rng(mersenneRandomizer(seed, STREAM.acquisitions));
  const surnames = firmSurnames();
  const nowMs = now.getTime();
  const nowYear = now.getUTCFullYear();
  const names = new Set<string>();
  const domains = new Set<string>();
  const linkedinSlugs = new Set<string>();

  for (let i = 0; i < count; i++) {
    const id = rng.uuid();
    const industry = INDUSTRY_TABLE.pick(rng);
    const country = COUNTRY_TABLE.pick(rng);

    const brand = uniqueName(
      names,
      () => {
        const roll = rng.next();
        if (roll < 0.5) return `${brandWord(rng)} ${rng.pick(industry.descriptors)}`;
        if (roll < 0.75) return companyName(rng, surnames);
        if (roll < 0.9) return `${rng.pick(WORDS)} ${rng.pick(industry.descriptors)}`;
        return brandWord(rng);
      },
      ['Group', 'Holdings', 'International', 'Global', 'Worldwide', 'Co'],
      rng,
    );
    const dotted = /\.(ai|io|co|app)$/.exec(brand);
    const displayName = !dotted && rng.next() < 0.2 ? `${brand} ${rng.pick(country.legal)}` : brand;

    const domainSlug = uniqueSlug(domains, urlSlug(dotted ? brand.slice(0, dotted.index) : brand, '') || 'company');
    const website = dotted ? `https://${domainSlug}.${dotted[1]}` : websiteFor(rng, domainSlug, country, industry.techy);
    const linkedinUrl = `https://www.linkedin.com/company/${uniqueSlug(linkedinSlugs, rng.next() < 0.25 ? domainSlug : urlSlug(brand))}`;

    // Size: 10 to 5,000 employees, log-normal around ~90, most of them small.
    let employeeCount = Math.round(90 * Math.exp(1.35 * rng.normal()));
    if (employeeCount < 10) employeeCount = rng.int(10, 25);
    else if (employeeCount > 5000) employeeCount = rng.int(3000, 5000);
    const revenue = employeeCount * industry.revenuePerEmployee * Math.exp(0.35 * rng.normal());
    const sizeFactor = Math.log(employeeCount / 10) / Math.log(500);
    const age = Math.max(1, Math.round((2 + sizeFactor * 22) * Math.exp(0.45 * rng.normal())));
    const foundedYear = Math.max(1950, nowYear - Math.min(age, 70));

    // Signals, and a score that follows their combined strength.
    const k = INDICATOR_COUNT.pick(rng);
    const signalIndicators = pickDistinct(rng, INDICATOR_ENTRIES, k, (item, chosen) => {
      if (!compatible(item, chosen)) return false;
      if (item === 'Founder succession planning' && nowYear - foundedYear < 15) return false;
      return true;
    });
    let strength = 0;
    for (const indicator of signalIndicators) strength += INDICATOR_WEIGHT.get(indicator) ?? 0;
    const rawScore = 100 * (1 - Math.exp(-(strength + 6) / 30)) + rng.triangular(7);
    const bounded = Math.min(100, Math.max(0, rawScore));
    const acquisitionSignalScore = rng.next() < 0.5 ? Math.round(bounded) : Math.round(bounded * 10) / 10;

    const description = acquisitionDescription(rng, displayName, industry, country, foundedYear, employeeCount);
    const lastUpdatedMs = recentMs(rng, nowMs, 730, 2);

    yield {
      id,
      companyName: displayName,
      industry: industry.name,
      country: country.name,
      category: industry.category,
      website,
      linkedinUrl,
      employeeCount,
      revenue: revenueBand(revenue),
      foundedYear,
      description,
      acquisitionSignalScore,
      signalIndicators,
      lastUpdated: isoSeconds(lastUpdatedMs),
    };
  }
}
