// Deterministic synthetic company profiles (the v2 `companies` dataset): names, web presence and
// countries drawn as the v2 generator draws them, LinkedIn industry labels with their main category,
// a subcategory that fits the industry, keywords, specialties, headcount and its growth. The same
// seed, count and reference date always give the same records, and the stream is prefix-stable:
// the first N records do not depend on `count`. Ids are version-5 UUIDs of the slug, so a company
// keeps its id whenever the same seed is loaded again.

import type { CompanyRecord } from '../catalog/index.js';
import { COMPANY_SUBCATEGORIES, uuidV5 } from '../catalog/index.js';
import { mersenneRandomizer, pickDistinct, Rng, Weighted } from './random.js';
import {
  COUNTRY_TABLE,
  INDUSTRIES,
  brandWord,
  capitalize,
  companyName,
  firmSurnames,
  inCountry,
  isoSeconds,
  recentMs,
  uniqueName,
  urlSlug,
  websiteFor,
  type CountryInfo,
} from './v2-generator.js';
import { WORDS } from './v2-vocabulary.js';

type Subcategory = (typeof COMPANY_SUBCATEGORIES)[number];
type GrowthInfo = NonNullable<CompanyRecord['growthInfo']>;

/** The stream the records draw from (apart from the v2 generator's streams). */
const STREAM = 0x4c31;

/** The namespace of the demo companies' ids (a fixed, randomly chosen UUID): an id is the version 5 UUID of the slug. */
export const COMPANY_ID_NAMESPACE = '6f1c2d7e-4b8a-4e39-9d52-a3c8e1f04b6d';

/**
 * Unique handles (slugs, domains, Twitter handles): a repeated one gets the next free numeric
 * suffix, found from the last one given for that stem rather than by counting up from 2 again.
 */
class HandleSet {
  private readonly taken = new Set<string>();
  private readonly next = new Map<string, number>();

  constructor(private readonly separator: string) {}

  take(stem: string): string {
    const size = this.taken.size;
    if (this.taken.add(stem).size > size) return stem; // (one lookup where has() then add() would make two)
    let n = this.next.get(stem) ?? 2;
    let candidate = `${stem}${this.separator}${n}`;
    while (this.taken.has(candidate)) candidate = `${stem}${this.separator}${++n}`;
    this.next.set(stem, n + 1);
    this.taken.add(candidate);
    return candidate;
  }
}

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

/** LinkedIn's main industry categories (the published enums page lists 20), the ones used here. */
const MAIN = {
  tech: 'Technology, Information and Media',
  pro: 'Professional Services',
  fin: 'Financial Services',
  health: 'Hospitals and Health Care',
  mfg: 'Manufacturing',
  retail: 'Retail',
  wholesale: 'Wholesale',
  admin: 'Administrative and Support Services',
  edu: 'Education',
  realEstate: 'Real Estate and Equipment Rental Services',
  construction: 'Construction',
  utilities: 'Utilities',
  mining: 'Oil, Gas, and Mining',
  transport: 'Transportation, Logistics, Supply Chain and Storage',
  accommodation: 'Accommodation Services',
  consumer: 'Consumer Services',
  entertainment: 'Entertainment Providers',
  farming: 'Farming, Ranching, Forestry',
  government: 'Government Administration',
  holding: 'Holding Companies',
} as const;

/**
 * Description material ("products|audiences|descriptors") for industries the v2 vocabulary
 * (INDUSTRY_DATA) has no fitting entry for.
 */
const EXTRA_VOCABULARY: Record<string, readonly [string, string, string]> = {
  blockchain: [
    'blockchain infrastructure|digital asset custody|crypto payment rails|smart contract audits',
    'fintech companies|exchanges|institutional investors',
    'Labs|Chain|Protocol|Network|Digital',
  ],
  accounting: [
    'bookkeeping and tax services|outsourced accounting|audit and assurance|payroll services',
    'small businesses|startups|family businesses',
    'Accounting|Advisors|Tax|Partners',
  ],
  events: [
    'corporate events|trade show production|conference management|live experiences',
    'brands|associations|corporate teams',
    'Events|Productions|Experiences|Live',
  ],
  nonprofit: [
    'community programs|education initiatives|health access programs|climate advocacy',
    'underserved communities|young people|families',
    'Foundation|Trust|Alliance|Initiative|Network',
  ],
  government: [
    'public services|digital government services|economic development programs|public safety services',
    'residents|local businesses|public agencies',
    'Agency|Authority|Council|Office',
  ],
  entertainment: [
    'live entertainment|family attractions|music festivals|immersive experiences',
    'audiences|families|fans',
    'Entertainment|Studios|Live|Productions',
  ],
  sports: [
    'professional sports teams|sports leagues|athletic events|fan experiences',
    'fans|athletes|sponsors',
    'Sports|Athletics|Club',
  ],
  mining: [
    'critical minerals|lithium exploration|copper mining|mineral processing',
    'battery makers|industrial buyers|smelters',
    'Mining|Resources|Minerals|Metals',
  ],
  architecture: [
    'architectural design|urban planning|interior architecture|sustainable building design',
    'developers|public clients|homeowners',
    'Architects|Design|Studio|Architecture',
  ],
  wellness: [
    'fitness studios|wellness programs|personal training|recovery therapies',
    'members|employers|athletes',
    'Fitness|Wellness|Health|Studio',
  ],
  engineering: [
    'structural engineering|product engineering services|mechanical design|systems integration',
    'manufacturers|developers|utilities',
    'Engineering|Engineers|Technical|Consulting',
  ],
};

/**
 * LinkedIn industry labels (as the published enums page spells them): main category, weight,
 * description material (an INDUSTRY_DATA name or an EXTRA_VOCABULARY key), and the subcategories
 * that fit, weighted ("id:weight|…").
 */
const INDUSTRY_LABELS: ReadonlyArray<readonly [string, keyof typeof MAIN, number, string, string]> = [
  [
    'Software Development',
    'tech',
    14,
    'Software Development',
    'saas:4|software:3|ai:2|devtools:1.2|analytics:0.6|cloud:0.6|fintech:0.3|cybersecurity:0.3|iot:0.3|web3:0.3|hr tech:0.3|sales:0.3|marketing:0.3|education:0.2|healthcare:0.2',
  ],
  [
    'Technology, Information and Internet',
    'tech',
    4,
    'Artificial Intelligence',
    'ai:3|software:2|saas:1.5|ecommerce:0.6|web3:0.5|media:0.5|analytics:0.5',
  ],
  [
    'Data Infrastructure and Analytics',
    'tech',
    2.5,
    'Data Infrastructure and Analytics',
    'analytics:3|ai:1.5|cloud:1|saas:0.8|devtools:0.5',
  ],
  [
    'Internet Marketplace Platforms',
    'tech',
    1.5,
    'Internet Marketplace Platforms',
    'ecommerce:3|travel:0.5|real estate:0.4|logistics:0.4|food & beverage:0.3',
  ],
  ['Blockchain Services', 'tech', 0.7, 'blockchain', 'web3:4|fintech:1|payments:0.6'],
  ['Computer Games', 'tech', 1.2, 'Computer Games', 'gaming:5|media:0.4'],
  ['Telecommunications', 'tech', 1.5, 'Telecommunications', 'telecommunications:4|iot:0.8|cloud:0.4'],
  ['Online Audio and Video Media', 'tech', 0.8, 'Online Audio and Video Media', 'media:4|arts:0.5|education:0.3'],
  ['Media Production', 'tech', 1, 'Media Production', 'media:4|arts:1|marketing:0.5'],
  ['Book and Periodical Publishing', 'tech', 0.4, 'Media Production', 'media:4|education:0.8'],
  [
    'IT Services and IT Consulting',
    'pro',
    7,
    'IT Services and IT Consulting',
    'software:3|cloud:2|cybersecurity:1|ai:0.8|analytics:0.6|saas:0.4',
  ],
  ['Computer and Network Security', 'pro', 3.5, 'Computer and Network Security', 'cybersecurity:6|regtech:0.4|cloud:0.3'],
  [
    'Business Consulting and Services',
    'pro',
    3,
    'Business Consulting and Services',
    'sales:1|marketing:1|hr tech:0.6|software:0.5|analytics:0.4|logistics:0.3|energy:0.2',
  ],
  ['Marketing Services', 'pro', 1.5, 'Advertising Services', 'marketing:4|advertising:1.5|sales:0.5'],
  ['Advertising Services', 'pro', 1.5, 'Advertising Services', 'advertising:4|marketing:2|media:0.5'],
  ['Legal Services', 'pro', 0.6, 'Legal Services', 'legal:4|regtech:1'],
  ['Law Practice', 'pro', 0.6, 'Legal Services', 'legal:5'],
  ['Accounting', 'pro', 0.8, 'accounting', 'accounting:5|fintech:0.5'],
  ['Architecture and Planning', 'pro', 0.6, 'architecture', 'architecture:5|construction:1'],
  ['Engineering Services', 'pro', 0.8, 'engineering', 'manufacturing:2|construction:1|energy:0.8|science:0.5|robotics:0.4'],
  ['Human Resources Services', 'pro', 0.8, 'Staffing and Recruiting', 'hr tech:5'],
  ['Biotechnology Research', 'pro', 2, 'Biotechnology Research', 'biotechnology:5|healthcare:1|science:1|ai:0.3'],
  ['Robotics Engineering', 'pro', 0.5, 'Automation Machinery Manufacturing', 'robotics:5|ai:1|manufacturing:0.5'],
  ['Environmental Services', 'pro', 1, 'Environmental Services', 'environmental services:5|energy:1|agriculture:0.3'],
  ['Space Research and Technology', 'pro', 0.3, 'Defense and Space Manufacturing', 'aerospace & defense:4|science:1'],
  [
    'Financial Services',
    'fin',
    6,
    'Financial Services',
    'fintech:4|payments:1.5|vc & investment:0.8|regtech:0.5|accounting:0.4|insurance:0.3|web3:0.3',
  ],
  ['Banking', 'fin', 1, 'Banking', 'fintech:3|payments:1'],
  ['Insurance', 'fin', 1.5, 'Insurance', 'insurance:5|fintech:0.5'],
  ['Investment Management', 'fin', 1, 'Investment Management', 'vc & investment:4|fintech:1'],
  ['Venture Capital and Private Equity Principals', 'fin', 1, 'Investment Management', 'vc & investment:6'],
  ['Hospitals and Health Care', 'health', 4, 'Healthcare Technology', 'healthcare:6|ai:0.4|biotechnology:0.3'],
  ['Medical Practices', 'health', 0.8, 'Hospitals and Health Care', 'healthcare:5'],
  ['Mental Health Care', 'health', 0.5, 'Hospitals and Health Care', 'healthcare:5'],
  ['Wellness and Fitness Services', 'health', 0.8, 'wellness', 'sports:2|healthcare:2|cosmetics:0.3'],
  ['Medical Equipment Manufacturing', 'mfg', 1.5, 'Medical Equipment Manufacturing', 'healthcare:3|biotechnology:1|robotics:0.3'],
  ['Pharmaceutical Manufacturing', 'mfg', 1.2, 'Pharmaceutical Manufacturing', 'biotechnology:3|healthcare:2'],
  [
    'Industrial Machinery Manufacturing',
    'mfg',
    1.5,
    'Industrial Machinery Manufacturing',
    'manufacturing:5|robotics:0.6|iot:0.4',
  ],
  ['Automation Machinery Manufacturing', 'mfg', 1, 'Automation Machinery Manufacturing', 'robotics:3|manufacturing:2|iot:0.5'],
  [
    'Semiconductor Manufacturing',
    'mfg',
    0.8,
    'Semiconductor Manufacturing',
    'manufacturing:2|iot:1|ai:0.5|battery technology:0.3',
  ],
  ['Computers and Electronics Manufacturing', 'mfg', 1, 'Computer Hardware', 'manufacturing:2|iot:2|telecommunications:0.4'],
  [
    'Appliances, Electrical, and Electronics Manufacturing',
    'mfg',
    0.6,
    'Computer Hardware',
    'manufacturing:3|iot:1|battery technology:0.6|energy:0.5',
  ],
  ['Motor Vehicle Manufacturing', 'mfg', 0.8, 'Motor Vehicle Manufacturing', 'automotive:5|battery technology:0.5'],
  [
    'Aviation and Aerospace Component Manufacturing',
    'mfg',
    0.8,
    'Aviation and Aerospace Component Manufacturing',
    'aerospace & defense:5',
  ],
  ['Defense and Space Manufacturing', 'mfg', 0.6, 'Defense and Space Manufacturing', 'aerospace & defense:5|robotics:0.3'],
  ['Chemical Manufacturing', 'mfg', 0.8, 'Chemical Manufacturing', 'manufacturing:3|science:1|environmental services:0.4'],
  ['Food and Beverage Manufacturing', 'mfg', 1.5, 'Food and Beverage Manufacturing', 'food & beverage:6|agriculture:0.3'],
  ['Personal Care Product Manufacturing', 'mfg', 0.6, 'Consumer Goods', 'cosmetics:5'],
  ['Renewable Energy Equipment Manufacturing', 'mfg', 0.5, 'Renewable Energy', 'energy:3|battery technology:1.5'],
  [
    'Climate Technology Product Manufacturing',
    'mfg',
    0.3,
    'Environmental Services',
    'environmental services:2|energy:2|battery technology:0.5',
  ],
  ['Retail', 'retail', 2, 'Retail', 'retail:4|ecommerce:1.5'],
  ['Online and Mail Order Retail', 'retail', 2, 'Online and Mail Order Retail', 'ecommerce:5|retail:1'],
  ['Retail Apparel and Fashion', 'retail', 1.2, 'Apparel and Fashion', 'retail:3|ecommerce:2'],
  ['Wholesale', 'wholesale', 0.7, 'Consumer Goods', 'retail:2|logistics:2|food & beverage:0.5'],
  [
    'Wholesale Import and Export',
    'wholesale',
    0.5,
    'Transportation, Logistics, Supply Chain and Storage',
    'logistics:3|retail:1',
  ],
  ['Staffing and Recruiting', 'admin', 1.2, 'Staffing and Recruiting', 'hr tech:5'],
  ['Events Services', 'admin', 0.5, 'events', 'travel:2|marketing:1|media:1|sports:0.3'],
  ['Travel Arrangements', 'admin', 0.5, 'Hospitality', 'travel:5'],
  ['Facilities Services', 'admin', 0.4, 'Real Estate', 'real estate:2|construction:2|environmental services:0.5'],
  ['E-Learning Providers', 'edu', 1.5, 'E-Learning Providers', 'education:5|ai:0.3|saas:0.3'],
  ['Higher Education', 'edu', 0.8, 'E-Learning Providers', 'education:5|science:1'],
  ['Professional Training and Coaching', 'edu', 0.8, 'E-Learning Providers', 'education:4|hr tech:1|sales:0.5'],
  ['Real Estate', 'realEstate', 1.5, 'Real Estate', 'real estate:5|construction:0.4'],
  ['Real Estate Agents and Brokers', 'realEstate', 0.4, 'Real Estate', 'real estate:5'],
  ['Construction', 'construction', 1.5, 'Construction', 'construction:5|architecture:0.5|real estate:0.5'],
  ['Civil Engineering', 'construction', 0.5, 'Construction', 'construction:4|architecture:1'],
  ['Utilities', 'utilities', 0.5, 'Utilities', 'energy:5|environmental services:0.5'],
  ['Solar Electric Power Generation', 'utilities', 0.5, 'Renewable Energy', 'energy:5|battery technology:0.5'],
  ['Services for Renewable Energy', 'utilities', 0.4, 'Renewable Energy', 'energy:4|environmental services:1'],
  ['Oil and Gas', 'mining', 0.8, 'Oil and Gas', 'energy:5'],
  ['Mining', 'mining', 0.4, 'mining', 'energy:2|manufacturing:1|battery technology:0.5|environmental services:0.3'],
  [
    'Transportation, Logistics, Supply Chain and Storage',
    'transport',
    2.2,
    'Transportation, Logistics, Supply Chain and Storage',
    'logistics:5|automotive:0.3',
  ],
  ['Truck Transportation', 'transport', 0.5, 'Transportation, Logistics, Supply Chain and Storage', 'logistics:5|automotive:0.5'],
  [
    'Warehousing and Storage',
    'transport',
    0.4,
    'Transportation, Logistics, Supply Chain and Storage',
    'logistics:4|robotics:0.5',
  ],
  ['Airlines and Aviation', 'transport', 0.4, 'Airlines and Aviation', 'travel:3|aerospace & defense:1'],
  ['Hospitality', 'accommodation', 1, 'Hospitality', 'travel:4|food & beverage:1'],
  ['Restaurants', 'accommodation', 1, 'Restaurants', 'food & beverage:5'],
  ['Consumer Services', 'consumer', 0.8, 'Consumer Goods', 'retail:2|ecommerce:1|cosmetics:0.5|sports:0.3|travel:0.3'],
  [
    'Non-profit Organizations',
    'consumer',
    0.8,
    'nonprofit',
    'non-profit:6|education:0.5|healthcare:0.3|environmental services:0.3',
  ],
  ['Entertainment Providers', 'entertainment', 0.6, 'entertainment', 'media:2|arts:2|gaming:0.5|sports:0.5'],
  ['Spectator Sports', 'entertainment', 0.4, 'sports', 'sports:5'],
  ['Farming', 'farming', 0.8, 'Farming', 'agriculture:5|food & beverage:0.5'],
  ['Farming, Ranching, Forestry', 'farming', 0.2, 'Farming', 'agriculture:5'],
  ['Government Administration', 'government', 0.6, 'government', 'govtech:5|non-profit:0.3'],
  ['Education Administration Programs', 'government', 0.3, 'Education Administration Programs', 'education:4|govtech:1'],
  ['Holding Companies', 'holding', 0.3, 'Investment Management', 'vc & investment:4|real estate:0.5'],
];

/** Keywords by subcategory: short phrases, lower case (acronyms are cased when written). */
const SUBCATEGORY_KEYWORDS: Record<Subcategory, string> = {
  ai: 'artificial intelligence|machine learning|generative ai|llm|computer vision|nlp|ai agents|deep learning',
  saas: 'saas|b2b software|workflow automation|cloud software|productivity|collaboration|integrations|automation',
  software:
    'software development|enterprise software|custom software|web applications|mobile apps|api|digital transformation|erp',
  cybersecurity:
    'cybersecurity|threat detection|identity management|zero trust|endpoint security|cloud security|compliance|pen testing',
  web3: 'blockchain|web3|crypto|defi|smart contracts|digital assets|nft|tokenization',
  devtools: 'developer tools|devops|ci/cd|observability|open source|api platform|testing|infrastructure as code',
  analytics: 'data analytics|business intelligence|data platform|dashboards|data engineering|big data|reporting|data science',
  cloud: 'cloud computing|cloud infrastructure|kubernetes|managed services|hosting|serverless|data centers|multi-cloud',
  iot: 'iot|connected devices|sensors|edge computing|smart home|industrial iot|telematics|embedded systems',
  fintech: 'fintech|digital banking|lending|wealth management|neobank|financial services|credit|embedded finance',
  payments: 'payments|payment processing|digital wallets|cross-border payments|invoicing|checkout|card issuing|billing',
  accounting: 'accounting|bookkeeping|tax|audit|payroll|financial reporting|cfo services|expense management',
  ecommerce: 'ecommerce|online marketplace|d2c|online shopping|marketplace|retail tech|subscriptions|fulfillment',
  insurance: 'insurance|insurtech|underwriting|claims|risk management|life insurance|reinsurance|brokerage',
  'vc & investment':
    'venture capital|private equity|asset management|investing|startups|growth equity|fund management|family office',
  regtech: 'regtech|compliance|kyc|aml|risk management|regulatory reporting|fraud prevention|governance',
  marketing:
    'digital marketing|content marketing|seo|social media|marketing automation|branding|growth marketing|email marketing',
  advertising:
    'advertising|adtech|programmatic|media buying|creative agency|performance marketing|influencer marketing|out-of-home',
  sales: 'sales enablement|crm|lead generation|b2b sales|revenue operations|outbound|sales training|customer success',
  'hr tech': 'hr tech|recruiting|talent acquisition|payroll|employee engagement|workforce management|hiring|people analytics',
  legal: 'legal services|legal tech|contracts|litigation|intellectual property|corporate law|compliance|e-discovery',
  healthcare: 'healthcare|digital health|telehealth|patient care|medical devices|clinics|mental health|health tech',
  biotechnology: 'biotech|drug discovery|genomics|life sciences|clinical trials|therapeutics|diagnostics|biologics',
  education: 'education|edtech|e-learning|online courses|training|k-12|higher education|upskilling',
  'real estate': 'real estate|proptech|property management|commercial real estate|rentals|mortgages|coworking|residential',
  energy: 'renewable energy|solar|wind energy|energy storage|oil and gas|energy efficiency|ev charging|power generation',
  logistics: 'logistics|supply chain|freight|last-mile delivery|warehousing|fleet management|shipping|fulfillment',
  manufacturing:
    'manufacturing|industrial automation|machinery|3d printing|quality control|precision engineering|supply chain|electronics',
  retail: 'retail|consumer goods|omnichannel|fashion|grocery|point of sale|brick and mortar|merchandising',
  agriculture: 'agriculture|agtech|precision farming|crop science|vertical farming|livestock|farm management|food production',
  'food & beverage': 'food and beverage|food tech|plant-based|beverages|restaurants|catering|meal kits|specialty coffee',
  automotive: 'automotive|electric vehicles|mobility|autonomous driving|car sharing|auto parts|fleet|connected cars',
  'aerospace & defense': 'aerospace|defense|drones|satellites|space tech|avionics|uav|national security',
  robotics: 'robotics|automation|industrial robots|autonomous systems|warehouse robotics|cobots|machine vision|drones',
  telecommunications: 'telecommunications|5g|connectivity|broadband|networking|wireless|voip|fiber',
  travel: 'travel|hospitality|hotels|tourism|booking|travel tech|vacation rentals|events',
  sports: 'sports|fitness|sports tech|wellness|esports|athletics|gyms|outdoor',
  gaming: 'gaming|video games|mobile games|game development|esports|indie games|game studio|interactive entertainment',
  media: 'media|publishing|streaming|podcasts|video production|journalism|content creation|broadcasting',
  govtech: 'govtech|public sector|smart cities|civic tech|e-government|public safety|digital identity|procurement',
  construction:
    'construction|contech|building|infrastructure|project management|civil engineering|renovation|modular construction',
  'environmental services':
    'sustainability|climate tech|recycling|waste management|carbon accounting|water treatment|circular economy|esg',
  'battery technology':
    'battery technology|energy storage|lithium-ion|solid-state batteries|battery recycling|ev batteries|cell manufacturing',
  arts: 'arts|design|creative studio|photography|music|film|illustration|galleries',
  architecture: 'architecture|interior design|urban planning|landscape architecture|sustainable design|bim|residential design',
  cosmetics: 'cosmetics|beauty|skincare|personal care|clean beauty|fragrance|haircare|wellness',
  science: 'research|science|laboratory|r&d|materials science|scientific instruments|data science|physics',
  'non-profit': 'non-profit|charity|social impact|community|philanthropy|volunteering|advocacy|ngo',
};

const GENERIC_KEYWORDS = ['b2b', 'b2c', 'smb', 'enterprise', 'startup', 'sustainability', 'global', 'innovation'];

/** How acronyms and brand-cased words are written in keywords and specialties. */
const CASED: Record<string, string> = {
  ai: 'AI',
  llm: 'LLM',
  nlp: 'NLP',
  saas: 'SaaS',
  b2b: 'B2B',
  b2c: 'B2C',
  smb: 'SMB',
  api: 'API',
  erp: 'ERP',
  crm: 'CRM',
  seo: 'SEO',
  'ci/cd': 'CI/CD',
  iot: 'IoT',
  defi: 'DeFi',
  nft: 'NFT',
  cfo: 'CFO',
  d2c: 'D2C',
  kyc: 'KYC',
  aml: 'AML',
  hr: 'HR',
  'k-12': 'K-12',
  ev: 'EV',
  '3d': '3D',
  uav: 'UAV',
  '5g': '5G',
  voip: 'VoIP',
  esg: 'ESG',
  bim: 'BIM',
  'r&d': 'R&D',
  ngo: 'NGO',
};

const SMALL_WORDS = new Set(['and', 'as', 'of', 'for', 'to', 'in', 'the', 'with']);

/** "generative ai" -> "generative AI" (a keyword as written). */
function keywordText(phrase: string): string {
  return phrase
    .split(' ')
    .map((word) => CASED[word] ?? word)
    .join(' ');
}

/** "generative ai" -> "Generative AI" (a specialty, in title case as LinkedIn pages show them). */
function specialtyText(phrase: string): string {
  return phrase
    .split(' ')
    .map((word, i) => CASED[word] ?? (i > 0 && SMALL_WORDS.has(word) ? word : capitalize(word)))
    .join(' ');
}

// ---------------------------------------------------------------------------------------------
// Tables, built once
// ---------------------------------------------------------------------------------------------

const SUBCATEGORY_SET: ReadonlySet<string> = new Set(COMPANY_SUBCATEGORIES);

function isSubcategory(value: string): value is Subcategory {
  return SUBCATEGORY_SET.has(value);
}

interface SubcategoryWords {
  keywords: readonly string[];
  specialties: readonly string[];
}

const SUBCATEGORY_WORDS = new Map<Subcategory, SubcategoryWords>(
  COMPANY_SUBCATEGORIES.map((sub) => {
    const phrases = SUBCATEGORY_KEYWORDS[sub].split('|');
    return [sub, { keywords: phrases.map(keywordText), specialties: phrases.map(specialtyText) }];
  }),
);

interface CompanyIndustry {
  label: string;
  main: string;
  /** The other labels of its main category, weighted: the secondary categories a company lists. */
  siblings: ReadonlyArray<readonly [string, number]>;
  subcategories: Weighted<Subcategory>;
  products: readonly string[];
  /** Its products as specialties ("Managed IT Services"). */
  productSpecialties: readonly string[];
  audiences: readonly string[];
  descriptors: readonly string[];
  techy: boolean;
}

// Built on first use, not when the module loads: the v2 generator (which this module draws from)
// reaches this one through the company population, so INDUSTRIES may not be set yet at load time.
function buildCompanyIndustries(): readonly CompanyIndustry[] {
  const v2Industries = new Map(INDUSTRIES.map((industry) => [industry.name, industry]));
  return INDUSTRY_LABELS.map(([label, main, , vocabulary, subs]) => {
    const known = v2Industries.get(vocabulary);
    const extra = EXTRA_VOCABULARY[vocabulary];
    if (!known && !extra) throw new Error(`company industry ${label}: no vocabulary named ${vocabulary}`);
    const products = known?.products ?? (extra?.[0] ?? '').split('|');
    const audiences = known?.audiences ?? (extra?.[1] ?? '').split('|');
    const descriptors = known?.descriptors ?? (extra?.[2] ?? '').split('|');
    const subcategories = subs.split('|').map((spec) => {
      const [id = '', weight = ''] = spec.split(':');
      if (!isSubcategory(id)) throw new Error(`company industry ${label}: ${id} is not a subcategory`);
      return [id, Number(weight)] as const;
    });
    return {
      label,
      main: MAIN[main],
      siblings: INDUSTRY_LABELS.filter(([other, otherMain]) => otherMain === main && other !== label && other !== MAIN[main]).map(
        ([other, , weight]) => [other, weight] as const,
      ),
      subcategories: new Weighted(subcategories),
      products,
      productSpecialties: products.map(specialtyText),
      audiences,
      descriptors,
      techy: main === 'tech' || (known?.techy ?? false),
    };
  });
}

/** What the other generators need of an industry label: its main category key and its vocabulary (an INDUSTRY_DATA name or an EXTRA_VOCABULARY key). */
export const COMPANY_INDUSTRY_LABELS: ReadonlyMap<string, { main: keyof typeof MAIN; vocabulary: string }> = new Map(
  INDUSTRY_LABELS.map(([label, main, , vocabulary]) => [label, { main, vocabulary }] as const),
);

let industryTableCache: Weighted<CompanyIndustry> | undefined;

/** The company industries, weighted. */
function industryTableOf(): Weighted<CompanyIndustry> {
  industryTableCache ??= new Weighted(
    buildCompanyIndustries().map(
      (industry, i) => [industry, (INDUSTRY_LABELS[i] as (typeof INDUSTRY_LABELS)[number])[2]] as const,
    ),
  );
  return industryTableCache;
}

/** How many categories a company lists (its main category first). */
const CATEGORY_COUNT = new Weighted([
  [1, 30],
  [2, 45],
  [3, 25],
] as const);

/** How far back a profile was first recorded. */
const CREATED_SPAN_DAYS = 3 * 365;
const CREATED_SPAN_MS = CREATED_SPAN_DAYS * 86_400_000;

const NAME_QUALIFIERS = ['Group', 'Holdings', 'International', 'Global', 'Worldwide', 'Co'];
const LOGO_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

// ---------------------------------------------------------------------------------------------
// Per-record pieces
// ---------------------------------------------------------------------------------------------

/** One or two sentences, at most 25 words: every word of a description is indexed. */
function describe(
  rng: Rng,
  short: string,
  industry: CompanyIndustry,
  country: CountryInfo | null,
  foundedYear: number | null,
): string {
  const product = rng.pick(industry.products);
  const audience = rng.pick(industry.audiences);
  const roll = rng.next();
  if (roll < 0.17) return `Leading provider of ${product} for ${audience}.`;
  if (roll < 0.32 && foundedYear !== null && country !== null)
    return `Founded in ${foundedYear}, ${short} offers ${product} to ${audience} ${country.code === 'US' ? 'across North America' : `in ${inCountry(country)}`}.`;
  if (roll < 0.46)
    return `${rng.pick(['Innovative', 'Fast-growing', 'Independent', 'Established', 'Specialist'])} company focused on ${product} for ${audience}.`;
  if (roll < 0.6 && country !== null)
    return `${short} helps ${audience} with ${product}. Headquartered in ${inCountry(country)}.`;
  if (roll < 0.7 && country !== null) return `${country.demonym} company building ${product} for ${audience}.`;
  return `${short} ${rng.pick(['provides', 'delivers', 'offers', 'builds'])} ${product} for ${audience}.`;
}

/** Log-normal around ~20 people, 1 to 200,000: most companies are small, a few are very large. */
function employeesFor(rng: Rng): number {
  const drawn = Math.round(20 * Math.exp(1.85 * rng.normal()));
  if (drawn < 1) return 1;
  if (drawn > 200_000) return rng.int(120_000, 200_000);
  return drawn;
}

/** A percentage with one decimal (never -0). */
function percent(value: number): number {
  const rounded = Math.round(value * 10) / 10;
  return rounded === 0 ? 0 : rounded;
}

/** Growth over part of the year: its share of the year's, give or take. */
function growthPart(rng: Rng, year: number, spread: number, share: number, noise: number): number {
  return percent(Math.max(-80, year * share + spread * noise * rng.triangular(1)));
}

/** Headcount growth over 1 to 12 months: steadier for larger companies; young ones lack the longer spans. */
function growthFor(rng: Rng, employees: number, young: boolean): GrowthInfo {
  const spread = 28 / (1 + Math.log10(employees));
  let year = 5 + spread * rng.normal();
  if (rng.next() < 0.05) year += rng.float(20, 120) / (1 + Math.log10(employees));
  year = Math.max(-60, year);
  const growth: GrowthInfo = {
    growth_1m: growthPart(rng, year, spread, 1 / 12, 0.08),
    growth_3m: growthPart(rng, year, spread, 0.25, 0.15),
    growth_6m: growthPart(rng, year, spread, 0.5, 0.2),
  };
  if (!young) {
    growth.growth_9m = growthPart(rng, year, spread, 0.75, 0.15);
    growth.growth_12m = percent(year);
  }
  return growth;
}

const NOT_PRINTABLE_ASCII = /[^ -~]/;

/** urlSlug(text), without its Unicode folding for printable ASCII text (every generated brand). */
function slugOf(text: string): string {
  if (NOT_PRINTABLE_ASCII.test(text)) return urlSlug(text);
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A Twitter handle (15 characters at most) from the slug: the whole name run together, or its first word dressed up. */
function twitterHandle(rng: Rng, slug: string): string {
  const whole = slug.replace(/-/g, '');
  if (whole.length <= 15) return whole;
  const dash = slug.indexOf('-');
  const first = dash < 0 ? slug : slug.slice(0, dash);
  return `${rng.pick(['', 'get', 'the'])}${first}${rng.pick(['', 'hq', '_hq', 'app', 'co'])}`.slice(0, 15);
}

function logoToken(rng: Rng): string {
  let token = '';
  for (let i = 0; i < 12; i++) token += LOGO_ALPHABET.charAt(Math.floor(rng.next() * 64));
  return token;
}

// ---------------------------------------------------------------------------------------------
// Companies
// ---------------------------------------------------------------------------------------------

export function* generateCompanies(seed: number, count: number, now: Date): Generator<CompanyRecord> {
  const industryTable = industryTableOf();
  const rng = new Rng(mersenneRandomizer(seed, STREAM));
  const surnames = firmSurnames();
  const nowMs = now.getTime();
  const nowYear = now.getUTCFullYear();
  const names = new Set<string>();
  const slugs = new HandleSet('-');
  const domains = new HandleSet('-');
  const handles = new HandleSet('');
  // One name drawer for the whole run (the industry's descriptors change per record).
  let descriptors: readonly string[] = [];
  const drawName = () => {
    const roll = rng.next();
    if (roll < 0.45) return `${brandWord(rng)} ${rng.pick(descriptors)}`;
    if (roll < 0.75) return companyName(rng, surnames);
    if (roll < 0.88) return `${rng.pick(WORDS)} ${rng.pick(descriptors)}`;
    return brandWord(rng);
  };

  for (let i = 0; i < count; i++) {
    const industry = industryTable.pick(rng);
    const country = COUNTRY_TABLE.pick(rng);
    const headquarters = rng.next() < 0.03 ? null : country;

    // Name, slug and id.
    descriptors = industry.descriptors;
    const brand = uniqueName(names, drawName, NAME_QUALIFIERS, rng);
    const dotted = /\.(ai|io|co|app)$/.exec(brand);
    let name = brand;
    if (!dotted && headquarters !== null && rng.next() < 0.08) {
      const legal = `${brand} ${rng.pick(headquarters.legal)}`;
      if (!names.has(legal.toLowerCase())) {
        names.add(legal.toLowerCase());
        name = legal;
      }
    }
    const stem = slugOf(brand) || 'company';
    const slug = slugs.take(stem);
    const id = uuidV5(COMPANY_ID_NAMESPACE, slug);

    // Web presence.
    // The domain is the slug run together, without the name's own TLD ("Nimbus.ai" -> nimbus.ai).
    const domainSlug = domains.take((dotted ? stem.slice(0, stem.lastIndexOf('-')) : stem).replace(/-/g, '') || 'company');
    const website =
      rng.next() < 0.04
        ? null
        : dotted
          ? `https://${domainSlug}.${dotted[1]}`
          : websiteFor(rng, domainSlug, country, industry.techy);
    const linkedinUrl = rng.next() < 0.85 ? `https://www.linkedin.com/company/${slug}` : null;
    let twitterUrl: string | null = null;
    if (rng.next() < 0.4) {
      const handle = handles.take(twitterHandle(rng, stem));
      twitterUrl = `${rng.next() < 0.3 ? 'https://x.com' : 'https://twitter.com'}/${handle}`;
    }

    // Classification.
    const industryLabel = rng.next() < 0.02 ? null : industry.label;
    const categories = [industry.main];
    const extraCategories = CATEGORY_COUNT.pick(rng) - 1;
    if (extraCategories > 0) categories.push(...pickDistinct(rng, industry.siblings, extraCategories));
    const subcategory = industry.subcategories.pick(rng);
    const words = SUBCATEGORY_WORDS.get(subcategory) as SubcategoryWords;
    const keywords = rng.sample(words.keywords, rng.int(2, 6));
    if (keywords.length < 6 && rng.next() < 0.2) {
      const generic = rng.pick(GENERIC_KEYWORDS);
      if (!keywords.includes(keywordText(generic))) keywords.push(keywordText(generic));
    }
    const specialtyCount = rng.next() < 0.3 ? 0 : rng.int(1, 5);
    const specialties: string[] = [];
    for (let guard = 0; specialties.length < specialtyCount && guard < 12; guard++) {
      const specialty = rng.next() < 0.4 ? rng.pick(industry.productSpecialties) : rng.pick(words.specialties);
      if (!specialties.includes(specialty)) specialties.push(specialty);
    }

    // Size and age: larger companies tend to be older.
    const employees = employeesFor(rng);
    const employeeCount = rng.next() < 0.05 ? null : employees;
    const sizeFactor = Math.min(1, Math.log10(employees) / 5);
    const span = nowYear - 1950;
    let age = Math.floor((6 + 24 * Math.pow(sizeFactor, 1.3)) * Math.exp(0.75 * rng.normal()));
    // (Folded into the range without a draw, as below: the records draw as many numbers whatever the date, so
    // every date's companies are the same ones, which the other datasets' records are about.)
    if (age > span) age = Math.floor(span / 2) + (age % (span - Math.floor(span / 2) + 1));
    const foundedYear = rng.next() < 0.05 ? null : nowYear - age;
    const growthInfo =
      employeeCount !== null && rng.next() < (employeeCount < 10 ? 0.4 : 0.75)
        ? growthFor(rng, employeeCount, foundedYear !== null && foundedYear >= nowYear - 1)
        : null;

    const description = rng.next() < 0.7 ? describe(rng, brand, industry, headquarters, foundedYear) : null;

    // When the profile was first and last recorded: within three years, never before the company was founded.
    let createdMs = recentMs(rng, nowMs, CREATED_SPAN_DAYS, 1.2);
    if (foundedYear !== null) {
      const foundedMs = Date.UTC(foundedYear, 0, 1);
      // Within three years: moved to the same point of the span since the company was founded.
      const within = (createdMs - (nowMs - CREATED_SPAN_MS)) / CREATED_SPAN_MS;
      if (createdMs < foundedMs) createdMs = foundedMs + Math.floor(((nowMs - foundedMs) * within) / 1000) * 1000;
    }
    const updatedMs =
      rng.next() < 0.25 ? createdMs : createdMs + Math.floor(((nowMs - createdMs) * (1 - Math.pow(rng.next(), 2))) / 1000) * 1000;

    const logoUrl =
      linkedinUrl !== null && rng.next() < 0.9
        ? `https://media.licdn.com/dms/image/v2/D4E0BAQ${logoToken(rng)}/company-logo_200_200/0/${Math.floor(createdMs / 1000)}/${slug.replace(/-/g, '_')}_logo`
        : website !== null && rng.next() < 0.45
          ? `${website}/logo.png`
          : null;

    yield {
      id,
      name,
      slug,
      description,
      website,
      linkedinUrl,
      twitterUrl,
      logoUrl,
      industry: industryLabel,
      foundedYear,
      headquartersCountry: headquarters === null ? null : headquarters.code,
      employeeCount,
      categories,
      keywords,
      specialties,
      growthInfo,
      companySubcategory: rng.next() < 0.8 ? subcategory : null,
      createdAt: isoSeconds(createdMs),
      updatedAt: isoSeconds(updatedMs),
    };
  }
}
