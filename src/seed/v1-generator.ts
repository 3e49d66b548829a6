// Deterministic synthetic v1 data: venture funding rounds and M&A deals.
//
// Every generator owns a seeded Faker instance backed by a small, fast PRNG. Faker builds the
// per-run pools (investor firms, acquirers, identifiers); the per-record work draws straight from
// the same PRNG so a million records stay cheap. Same seed + count + `now` gives identical output.

import { Faker, de, en, en_IN, es, fr, it, nl, pl, pt_BR, sv, type LocaleDefinition } from '@faker-js/faker';
import type { FundingRecord, MaRecord, DealStatus } from '../schemas/v1.js';
import { countryName } from '../services/countries.js';
import { slugify } from '../services/normalize.js';
import { Rng, sfc32Randomizer, Weighted } from './random.js';

export type { DealStatus };

type CompanyInfo = NonNullable<FundingRecord['company_info']>;
type HeadcountData = NonNullable<FundingRecord['historical_headcount']>[number];
type GrowthInfo = NonNullable<FundingRecord['growth_info']>;
type ContactInfo = NonNullable<FundingRecord['contact_info']>[number];
type Employee = NonNullable<ContactInfo['employees']>[number];
type Investor = FundingRecord['investors'][number];

// ---------------------------------------------------------------------------------------------
// Reference data
// ---------------------------------------------------------------------------------------------

interface Category {
  key: string;
  display: string;
  weight: number;
  industries: string[];
  products: string[];
  audiences: string[];
  outcomes: string[];
  adjectives: string[];
  keywords: string[];
  suffixes: string[];
  related: string[];
  tlds?: string[];
  titles?: string[];
}

const CATEGORIES: Category[] = [
  {
    key: 'fintech',
    display: 'fintech',
    weight: 10,
    industries: ['Financial Services', 'Banking'],
    products: [
      'payments platform',
      'expense management platform',
      'embedded finance API',
      'digital banking app',
      'lending platform',
      'treasury management platform',
      'accounts payable automation tool',
      'cross-border payments network',
    ],
    audiences: [
      'small businesses',
      'finance teams',
      'online merchants',
      'freelancers',
      'banks and credit unions',
      'mid-market companies',
    ],
    outcomes: [
      'move money faster',
      'automate reconciliation',
      'cut payment processing costs',
      'manage cash flow in real time',
      'access working capital',
      'close the books faster',
    ],
    adjectives: ['modern', 'API-first', 'AI-powered', 'all-in-one', 'cloud-based'],
    keywords: [
      'payments',
      'embedded finance',
      'open banking',
      'fraud detection',
      'lending',
      'expense management',
      'treasury',
      'accounts payable',
      'neobank',
      'credit',
    ],
    suffixes: ['Pay', 'Finance', 'Money', 'Bank', 'Ledger', 'Credit', 'Wallet'],
    related: ['saas', 'ai', 'insurtech', 'blockchain', 'e-commerce', 'data analytics'],
    titles: ['Chief Risk Officer', 'Head of Compliance'],
  },
  {
    key: 'healthtech',
    display: 'healthtech',
    weight: 7,
    industries: ['Hospitals and Health Care', 'Wellness and Fitness Services'],
    products: [
      'virtual care platform',
      'remote patient monitoring platform',
      'care coordination platform',
      'digital therapeutics app',
      'clinical documentation tool',
      'mental health app',
      'revenue cycle management platform',
    ],
    audiences: [
      'hospitals',
      'clinics',
      'health systems',
      'patients with chronic conditions',
      'employers',
      'health plans',
      'care teams',
    ],
    outcomes: [
      'deliver better care at lower cost',
      'reduce hospital readmissions',
      'cut administrative work',
      'improve patient outcomes',
      'reach patients at home',
      'manage chronic conditions',
    ],
    adjectives: ['AI-powered', 'patient-centric', 'cloud-based', 'HIPAA-compliant', 'end-to-end'],
    keywords: [
      'telehealth',
      'remote patient monitoring',
      'digital health',
      'mental health',
      'care coordination',
      'value-based care',
      'clinical workflows',
      'patient engagement',
      'chronic care',
    ],
    suffixes: ['Health', 'Care', 'Med', 'Clinic', 'Wellness'],
    related: ['ai', 'saas', 'medtech', 'biotech', 'data analytics', 'insurtech'],
    titles: ['Chief Medical Officer', 'Head of Clinical Operations'],
  },
  {
    key: 'saas',
    display: 'SaaS',
    weight: 9,
    industries: ['Software Development', 'IT Services and IT Consulting'],
    products: [
      'workflow automation platform',
      'customer success platform',
      'revenue operations platform',
      'collaboration tool',
      'procurement platform',
      'field service management software',
      'knowledge management platform',
      'CRM',
    ],
    audiences: [
      'sales teams',
      'operations teams',
      'mid-market companies',
      'enterprises',
      'small businesses',
      'customer support teams',
    ],
    outcomes: [
      'automate repetitive work',
      'close more deals',
      'keep customers longer',
      'run operations from one place',
      'cut software spend',
      'collaborate across teams',
    ],
    adjectives: ['cloud-based', 'AI-powered', 'all-in-one', 'no-code', 'collaborative'],
    keywords: [
      'b2b software',
      'workflow automation',
      'crm',
      'productivity',
      'collaboration',
      'no-code',
      'revenue operations',
      'customer success',
      'enterprise software',
    ],
    suffixes: ['HQ', 'Cloud', 'Software', 'Flow', 'Works', 'Hub', 'App'],
    related: ['ai', 'developer tools', 'martech', 'hr tech', 'data analytics'],
  },
  {
    key: 'ai',
    display: 'AI',
    weight: 10,
    industries: ['Technology, Information and Internet', 'Software Development'],
    products: [
      'generative AI platform',
      'AI agent platform',
      'computer vision platform',
      'LLM operations platform',
      'AI copilot',
      'conversational AI platform',
      'machine learning platform',
      'AI search engine',
    ],
    audiences: [
      'enterprises',
      'developers',
      'customer support teams',
      'knowledge workers',
      'data science teams',
      'regulated industries',
    ],
    outcomes: [
      'automate complex workflows',
      'deploy models in production',
      'answer customer questions instantly',
      'turn documents into structured data',
      'build AI agents safely',
      'search internal knowledge',
    ],
    adjectives: ['enterprise-grade', 'secure', 'open-source', 'multimodal', 'next-generation'],
    keywords: [
      'artificial intelligence',
      'machine learning',
      'generative ai',
      'large language models',
      'computer vision',
      'ai agents',
      'nlp',
      'mlops',
      'deep learning',
    ],
    suffixes: ['AI', 'Labs', 'Intelligence', 'Mind', 'AI', 'Labs'],
    related: ['saas', 'developer tools', 'data analytics', 'cybersecurity', 'robotics'],
    tlds: ['ai', 'ai', 'com', 'io'],
    titles: ['Head of AI', 'Chief Scientist', 'Head of Research'],
  },
  {
    key: 'cybersecurity',
    display: 'cybersecurity',
    weight: 6,
    industries: ['Computer and Network Security'],
    products: [
      'cloud security platform',
      'identity and access management platform',
      'threat detection platform',
      'email security solution',
      'application security platform',
      'security operations platform',
      'zero-trust network access solution',
      'data loss prevention tool',
    ],
    audiences: [
      'security teams',
      'enterprises',
      'mid-market companies',
      'managed service providers',
      'software teams',
      'government agencies',
    ],
    outcomes: [
      'detect and stop attacks in real time',
      'secure cloud workloads',
      'prevent account takeover',
      'find vulnerabilities before attackers do',
      'stay compliant',
      'protect sensitive data',
    ],
    adjectives: ['AI-driven', 'cloud-native', 'agentless', 'unified', 'autonomous'],
    keywords: [
      'cybersecurity',
      'cloud security',
      'threat detection',
      'identity security',
      'zero trust',
      'application security',
      'siem',
      'vulnerability management',
      'data protection',
      'compliance',
    ],
    suffixes: ['Security', 'Shield', 'Defense', 'Cyber', 'Guard', 'Sec'],
    related: ['ai', 'saas', 'developer tools', 'data analytics'],
    titles: ['Chief Information Security Officer', 'Head of Threat Research'],
  },
  {
    key: 'climate tech',
    display: 'climate tech',
    weight: 5,
    industries: ['Environmental Services', 'Renewable Energy Semiconductor Manufacturing'],
    products: [
      'carbon accounting platform',
      'carbon removal technology',
      'grid-scale battery storage system',
      'EV charging network',
      'building decarbonization platform',
      'sustainable materials technology',
      'climate risk analytics platform',
    ],
    audiences: ['enterprises', 'utilities', 'real estate owners', 'manufacturers', 'cities', 'fleet operators'],
    outcomes: [
      'measure and cut emissions',
      'remove carbon dioxide from the atmosphere',
      'decarbonize operations',
      'meet net-zero targets',
      'report on ESG goals',
      'electrify their fleets',
    ],
    adjectives: ['science-based', 'scalable', 'low-cost', 'data-driven', 'modular'],
    keywords: [
      'climate',
      'carbon accounting',
      'decarbonization',
      'carbon removal',
      'esg',
      'sustainability',
      'net zero',
      'clean energy',
      'circular economy',
    ],
    suffixes: ['Climate', 'Carbon', 'Earth', 'Green', 'Energy'],
    related: ['energy', 'data analytics', 'saas', 'mobility', 'agtech', 'hardware'],
    titles: ['Head of Sustainability', 'VP Engineering'],
  },
  {
    key: 'edtech',
    display: 'edtech',
    weight: 4,
    industries: ['E-Learning Providers', 'Education'],
    products: [
      'online learning platform',
      'tutoring marketplace',
      'learning management system',
      'upskilling platform',
      'language learning app',
      'coding bootcamp',
      'assessment platform',
    ],
    audiences: ['students', 'teachers', 'schools', 'universities', 'employers', 'working professionals'],
    outcomes: [
      'learn new skills faster',
      'personalize learning',
      'track student progress',
      'prepare for exams',
      'upskill their workforce',
      'teach more effectively',
    ],
    adjectives: ['AI-powered', 'adaptive', 'mobile-first', 'interactive', 'personalized'],
    keywords: [
      'education',
      'e-learning',
      'online courses',
      'upskilling',
      'k-12',
      'higher education',
      'tutoring',
      'corporate learning',
      'language learning',
    ],
    suffixes: ['Learn', 'Academy', 'Edu', 'School', 'Labs'],
    related: ['ai', 'saas', 'hr tech', 'media'],
    titles: ['Head of Learning', 'Head of Content'],
  },
  {
    key: 'e-commerce',
    display: 'e-commerce',
    weight: 5,
    industries: ['Retail', 'Online and Mail Order Retail'],
    products: [
      'online marketplace',
      'direct-to-consumer brand',
      'checkout platform',
      'e-commerce enablement platform',
      'social commerce app',
      'quick-commerce delivery service',
      'resale marketplace',
    ],
    audiences: ['online shoppers', 'independent brands', 'retailers', 'Shopify merchants', 'small sellers', 'consumers'],
    outcomes: [
      'buy and sell with confidence',
      'increase conversion rates',
      'launch online stores in minutes',
      'get groceries delivered in minutes',
      'sell across channels',
      'manage inventory and orders',
    ],
    adjectives: ['mobile-first', 'curated', 'AI-powered', 'headless', 'sustainable'],
    keywords: [
      'e-commerce',
      'marketplace',
      'd2c',
      'retail',
      'online shopping',
      'checkout',
      'social commerce',
      'quick commerce',
      'resale',
    ],
    suffixes: ['Shop', 'Store', 'Market', 'Cart', 'Commerce'],
    related: ['fintech', 'logistics', 'martech', 'saas', 'ai'],
    titles: ['Head of Merchandising', 'Head of Supply Chain'],
  },
  {
    key: 'biotech',
    display: 'biotech',
    weight: 5,
    industries: ['Biotechnology Research', 'Pharmaceutical Manufacturing'],
    products: [
      'drug discovery platform',
      'gene therapy program',
      'precision oncology platform',
      'synthetic biology platform',
      'antibody discovery engine',
      'cell therapy platform',
      'RNA therapeutics platform',
      'protein engineering platform',
    ],
    audiences: [
      'patients with rare diseases',
      'pharmaceutical partners',
      'cancer patients',
      'researchers',
      'clinicians',
      'biopharma companies',
    ],
    outcomes: [
      'discover new medicines faster',
      'develop treatments for rare diseases',
      'design better therapeutics',
      'bring precision therapies to the clinic',
      'accelerate preclinical research',
      'design novel proteins',
    ],
    adjectives: ['AI-enabled', 'clinical-stage', 'preclinical', 'computational', 'next-generation'],
    keywords: [
      'biotechnology',
      'drug discovery',
      'gene therapy',
      'oncology',
      'synthetic biology',
      'therapeutics',
      'genomics',
      'cell therapy',
      'precision medicine',
      'rare diseases',
    ],
    suffixes: ['Bio', 'Therapeutics', 'Biosciences', 'Genomics', 'Pharma', 'Therapeutics'],
    related: ['ai', 'healthtech', 'medtech', 'data analytics'],
    titles: ['Chief Scientific Officer', 'Chief Medical Officer', 'VP Clinical Development', 'Head of Regulatory Affairs'],
  },
  {
    key: 'logistics',
    display: 'logistics',
    weight: 4,
    industries: ['Transportation, Logistics, Supply Chain and Storage', 'Truck Transportation'],
    products: [
      'freight marketplace',
      'last-mile delivery network',
      'warehouse automation platform',
      'supply chain visibility platform',
      'fleet management platform',
      'digital freight forwarder',
      'returns management platform',
    ],
    audiences: ['shippers', 'carriers', 'retailers', 'manufacturers', '3PLs', 'e-commerce brands'],
    outcomes: [
      'ship goods faster and cheaper',
      'track shipments in real time',
      'optimize delivery routes',
      'cut empty miles',
      'manage warehouse operations',
      'handle returns efficiently',
    ],
    adjectives: ['AI-powered', 'tech-enabled', 'real-time', 'end-to-end', 'asset-light'],
    keywords: [
      'logistics',
      'supply chain',
      'freight',
      'last mile delivery',
      'warehousing',
      'fleet management',
      'shipping',
      'transportation',
      'route optimization',
    ],
    suffixes: ['Freight', 'Logistics', 'Ship', 'Cargo', 'Fleet', 'Move'],
    related: ['saas', 'ai', 'e-commerce', 'robotics', 'mobility'],
    titles: ['Head of Operations', 'VP Logistics'],
  },
  {
    key: 'proptech',
    display: 'proptech',
    weight: 3,
    industries: ['Real Estate', 'Leasing Non-residential Real Estate'],
    products: [
      'property management platform',
      'home buying platform',
      'commercial real estate marketplace',
      'rental platform',
      'mortgage platform',
      'smart building platform',
      'short-term rental management service',
    ],
    audiences: ['landlords', 'renters', 'home buyers', 'real estate agents', 'property managers', 'commercial landlords'],
    outcomes: [
      'buy and sell homes faster',
      'manage properties from one dashboard',
      'find and rent homes online',
      'reduce building energy use',
      'close mortgages faster',
      'fill vacancies faster',
    ],
    adjectives: ['digital', 'tech-enabled', 'AI-powered', 'all-in-one', 'data-driven'],
    keywords: [
      'real estate',
      'proptech',
      'property management',
      'mortgage',
      'rental',
      'smart buildings',
      'home buying',
      'commercial real estate',
    ],
    suffixes: ['Homes', 'Estate', 'Nest', 'Living', 'Property', 'Keys'],
    related: ['fintech', 'saas', 'construction tech', 'insurtech', 'data analytics'],
  },
  {
    key: 'insurtech',
    display: 'insurtech',
    weight: 3,
    industries: ['Insurance'],
    products: [
      'digital insurance carrier',
      'embedded insurance platform',
      'claims automation platform',
      'insurance distribution platform',
      'cyber insurance provider',
      'usage-based car insurance product',
      'underwriting platform',
    ],
    audiences: ['insurers', 'brokers', 'small businesses', 'drivers', 'homeowners', 'renters'],
    outcomes: [
      'buy coverage in minutes',
      'automate claims handling',
      'price risk more accurately',
      'offer insurance at checkout',
      'reduce fraud',
      'cut underwriting time',
    ],
    adjectives: ['digital-first', 'AI-powered', 'full-stack', 'data-driven', 'embedded'],
    keywords: ['insurance', 'insurtech', 'claims', 'underwriting', 'embedded insurance', 'risk', 'cyber insurance', 'brokerage'],
    suffixes: ['Insurance', 'Cover', 'Assure', 'Shield', 'Protect'],
    related: ['fintech', 'ai', 'data analytics', 'healthtech', 'mobility'],
    titles: ['Chief Underwriting Officer', 'Head of Claims'],
  },
  {
    key: 'hr tech',
    display: 'HR tech',
    weight: 3,
    industries: ['Human Resources Services', 'Staffing and Recruiting'],
    products: [
      'global payroll platform',
      'recruiting platform',
      'employee engagement platform',
      'HR information system',
      'talent intelligence platform',
      'benefits administration platform',
      'employer of record service',
      'performance management tool',
    ],
    audiences: ['HR teams', 'recruiters', 'distributed companies', 'hourly workers', 'growing companies', 'people managers'],
    outcomes: [
      'hire and pay talent anywhere',
      'find qualified candidates faster',
      'keep employees engaged',
      'run payroll in minutes',
      'manage benefits easily',
      'develop their people',
    ],
    adjectives: ['AI-powered', 'all-in-one', 'modern', 'global', 'people-first'],
    keywords: [
      'hr tech',
      'payroll',
      'recruiting',
      'talent acquisition',
      'employee engagement',
      'benefits',
      'remote work',
      'future of work',
      'hris',
    ],
    suffixes: ['HR', 'Talent', 'People', 'Hire', 'Team', 'Work'],
    related: ['saas', 'ai', 'fintech', 'edtech'],
  },
  {
    key: 'martech',
    display: 'martech',
    weight: 3,
    industries: ['Marketing Services', 'Advertising Services'],
    products: [
      'customer data platform',
      'marketing automation platform',
      'influencer marketing platform',
      'ad measurement platform',
      'conversational marketing tool',
      'SEO platform',
      'email marketing platform',
    ],
    audiences: ['marketers', 'brands', 'agencies', 'growth teams', 'e-commerce brands', 'content creators'],
    outcomes: [
      'reach the right customers',
      'measure campaign ROI',
      'personalize every message',
      'grow revenue from existing customers',
      'run campaigns at scale',
      'create content faster',
    ],
    adjectives: ['AI-powered', 'privacy-first', 'omnichannel', 'data-driven', 'all-in-one'],
    keywords: [
      'marketing technology',
      'advertising',
      'customer data',
      'marketing automation',
      'influencer marketing',
      'seo',
      'personalization',
      'analytics',
      'adtech',
    ],
    suffixes: ['Media', 'Reach', 'Growth', 'Ads', 'Signal'],
    related: ['saas', 'ai', 'e-commerce', 'data analytics', 'media'],
  },
  {
    key: 'developer tools',
    display: 'developer tools',
    weight: 4,
    industries: ['Software Development', 'IT System Data Services'],
    products: [
      'developer platform',
      'observability platform',
      'CI/CD platform',
      'API management platform',
      'code review tool',
      'open-source database',
      'internal developer portal',
      'feature flag platform',
    ],
    audiences: ['developers', 'engineering teams', 'platform teams', 'DevOps teams', 'software companies', 'startups'],
    outcomes: [
      'ship code faster',
      'find and fix bugs in production',
      'build reliable APIs',
      'cut cloud costs',
      'automate deployments',
      'monitor complex systems',
    ],
    adjectives: ['open-source', 'cloud-native', 'developer-first', 'AI-assisted', 'serverless'],
    keywords: [
      'developer tools',
      'devops',
      'open source',
      'observability',
      'apis',
      'ci/cd',
      'cloud infrastructure',
      'kubernetes',
      'databases',
    ],
    suffixes: ['Dev', 'Stack', 'Code', 'Cloud', 'Ops', 'Labs'],
    related: ['saas', 'ai', 'cybersecurity', 'data analytics'],
    tlds: ['io', 'dev', 'com', 'sh', 'io'],
    titles: ['Head of Developer Relations', 'Head of Open Source'],
  },
  {
    key: 'gaming',
    display: 'gaming',
    weight: 2.5,
    industries: ['Computer Games', 'Mobile Gaming Apps'],
    products: [
      'mobile game studio',
      'game development platform',
      'esports platform',
      'cloud gaming service',
      'user-generated content platform',
      'game analytics platform',
    ],
    audiences: ['gamers', 'game studios', 'esports teams', 'casual players', 'content creators', 'indie developers'],
    outcomes: [
      'play together across devices',
      'build games faster',
      'grow and monetize their communities',
      'create and share worlds',
      'discover new games',
      'compete online',
    ],
    adjectives: ['cross-platform', 'social', 'mobile-first', 'AI-powered', 'immersive'],
    keywords: [
      'gaming',
      'mobile games',
      'esports',
      'game development',
      'cloud gaming',
      'metaverse',
      'user-generated content',
      'virtual worlds',
    ],
    suffixes: ['Games', 'Studios', 'Play', 'Interactive', 'Arcade'],
    related: ['media', 'ai', 'blockchain'],
    tlds: ['com', 'gg', 'io', 'games'],
    titles: ['Creative Director', 'Head of Live Ops'],
  },
  {
    key: 'foodtech',
    display: 'foodtech',
    weight: 2.5,
    industries: ['Food and Beverage Services', 'Food and Beverage Manufacturing'],
    products: [
      'restaurant management platform',
      'plant-based protein brand',
      'food delivery platform',
      'alternative protein technology',
      'meal kit service',
      'ghost kitchen network',
      'food waste reduction platform',
    ],
    audiences: ['restaurants', 'consumers', 'grocers', 'food manufacturers', 'cafes', 'health-conscious consumers'],
    outcomes: [
      'reduce food waste',
      'order food in minutes',
      'run kitchens more efficiently',
      'eat healthier',
      'produce sustainable protein',
      'manage orders and inventory',
    ],
    adjectives: ['sustainable', 'plant-based', 'tech-enabled', 'data-driven', 'direct-to-consumer'],
    keywords: ['food tech', 'alternative protein', 'restaurant tech', 'food delivery', 'plant-based', 'food waste', 'grocery'],
    suffixes: ['Foods', 'Kitchen', 'Eats', 'Farms', 'Table'],
    related: ['e-commerce', 'logistics', 'agtech', 'climate tech'],
  },
  {
    key: 'agtech',
    display: 'agtech',
    weight: 1.5,
    industries: ['Farming', 'Agriculture, Construction, Mining Machinery Manufacturing'],
    products: [
      'precision agriculture platform',
      'vertical farming system',
      'crop analytics platform',
      'farm management software',
      'biological crop input',
      'agricultural robotics system',
    ],
    audiences: ['farmers', 'growers', 'agribusinesses', 'food companies', 'cooperatives'],
    outcomes: [
      'increase crop yields',
      'cut water and fertilizer use',
      'monitor fields from space',
      'grow food locally',
      'farm more sustainably',
      'predict harvests',
    ],
    adjectives: ['data-driven', 'satellite-based', 'sustainable', 'AI-powered', 'regenerative'],
    keywords: [
      'agtech',
      'precision agriculture',
      'vertical farming',
      'crop science',
      'sustainable agriculture',
      'farm management',
      'soil health',
    ],
    suffixes: ['Agro', 'Farms', 'Harvest', 'Grow', 'Crop', 'Field'],
    related: ['climate tech', 'ai', 'robotics', 'foodtech', 'data analytics'],
    titles: ['Head of Agronomy'],
  },
  {
    key: 'mobility',
    display: 'mobility',
    weight: 2.5,
    industries: ['Motor Vehicle Manufacturing', 'Transportation, Logistics, Supply Chain and Storage'],
    products: [
      'electric scooter network',
      'ride-hailing app',
      'fleet electrification platform',
      'autonomous driving software',
      'car subscription service',
      'EV charging app',
      'micromobility platform',
    ],
    audiences: ['commuters', 'cities', 'fleet operators', 'drivers', 'automakers', 'transit agencies'],
    outcomes: [
      'get around cities sustainably',
      'electrify their fleets',
      'find and pay for charging',
      'reduce congestion',
      'make vehicles autonomous',
      'manage vehicles at scale',
    ],
    adjectives: ['electric', 'shared', 'autonomous', 'connected', 'on-demand'],
    keywords: [
      'mobility',
      'electric vehicles',
      'autonomous vehicles',
      'micromobility',
      'ev charging',
      'ride sharing',
      'transportation',
      'fleet',
    ],
    suffixes: ['Mobility', 'Motors', 'Ride', 'Drive', 'Auto', 'Go'],
    related: ['climate tech', 'logistics', 'ai', 'energy', 'hardware'],
  },
  {
    key: 'robotics',
    display: 'robotics',
    weight: 2.5,
    industries: ['Automation Machinery Manufacturing', 'Robotics Engineering'],
    products: [
      'autonomous mobile robot',
      'warehouse robotics system',
      'robotic arm platform',
      'humanoid robot',
      'inspection drone system',
      'robot software platform',
      'surgical robotics system',
    ],
    audiences: ['manufacturers', 'warehouses', 'logistics providers', 'construction firms', 'hospitals', 'retailers'],
    outcomes: [
      'automate repetitive physical work',
      'pick and pack orders faster',
      'inspect infrastructure safely',
      'address labor shortages',
      'improve workplace safety',
      'scale production',
    ],
    adjectives: ['AI-powered', 'autonomous', 'collaborative', 'general-purpose', 'vision-guided'],
    keywords: [
      'robotics',
      'automation',
      'autonomous systems',
      'industrial automation',
      'drones',
      'computer vision',
      'warehouse automation',
      'humanoid robots',
    ],
    suffixes: ['Robotics', 'Automation', 'Dynamics', 'Robots', 'Machines'],
    related: ['ai', 'hardware', 'logistics', 'construction tech'],
    titles: ['VP Hardware Engineering', 'Head of Manufacturing', 'Head of Autonomy'],
  },
  {
    key: 'space tech',
    display: 'space tech',
    weight: 0.8,
    industries: ['Aviation and Aerospace Component Manufacturing', 'Space Research and Technology'],
    products: [
      'small satellite constellation',
      'Earth observation platform',
      'launch vehicle',
      'in-space propulsion system',
      'satellite connectivity service',
      'space situational awareness platform',
    ],
    audiences: [
      'governments',
      'defense agencies',
      'satellite operators',
      'insurers',
      'agricultural companies',
      'telecom operators',
    ],
    outcomes: [
      'monitor the planet daily',
      'reach orbit affordably',
      'connect remote locations',
      'track objects in orbit',
      'deliver data from space',
      'maneuver satellites efficiently',
    ],
    adjectives: ['low-cost', 'reusable', 'high-resolution', 'next-generation', 'vertically integrated'],
    keywords: ['space tech', 'satellites', 'earth observation', 'launch', 'aerospace', 'geospatial', 'propulsion', 'defense'],
    suffixes: ['Space', 'Orbital', 'Aerospace', 'Orbit', 'Launch'],
    related: ['hardware', 'data analytics', 'climate tech', 'ai'],
    titles: ['Head of Mission Operations', 'VP Hardware Engineering'],
  },
  {
    key: 'legal tech',
    display: 'legal tech',
    weight: 1.2,
    industries: ['Legal Services', 'Software Development'],
    products: [
      'contract lifecycle management platform',
      'AI legal assistant',
      'e-discovery platform',
      'legal practice management software',
      'compliance automation platform',
      'online legal services marketplace',
    ],
    audiences: ['law firms', 'in-house legal teams', 'compliance teams', 'small businesses', 'consumers'],
    outcomes: [
      'review contracts in minutes',
      'automate legal research',
      'stay compliant with new regulations',
      'manage matters and billing',
      'get legal help affordably',
      'reduce legal spend',
    ],
    adjectives: ['AI-powered', 'cloud-based', 'secure', 'end-to-end', 'collaborative'],
    keywords: ['legal tech', 'contract management', 'compliance', 'e-discovery', 'legal research', 'regtech', 'clm'],
    suffixes: ['Legal', 'Law', 'Counsel', 'Comply', 'Clause'],
    related: ['ai', 'saas', 'fintech'],
    titles: ['General Counsel', 'Head of Legal Engineering'],
  },
  {
    key: 'medtech',
    display: 'medtech',
    weight: 2,
    industries: ['Medical Equipment Manufacturing', 'Medical Device'],
    products: [
      'wearable cardiac monitor',
      'AI diagnostic imaging tool',
      'minimally invasive surgical device',
      'point-of-care diagnostic test',
      'continuous glucose monitor',
      'connected medical device platform',
    ],
    audiences: ['hospitals', 'cardiologists', 'radiologists', 'surgeons', 'patients', 'clinics'],
    outcomes: [
      'detect disease earlier',
      'diagnose patients faster',
      'monitor patients continuously',
      'perform safer procedures',
      'reduce diagnostic errors',
      'improve surgical outcomes',
    ],
    adjectives: ['FDA-cleared', 'AI-enabled', 'non-invasive', 'wearable', 'connected'],
    keywords: [
      'medical devices',
      'diagnostics',
      'medical imaging',
      'wearables',
      'cardiology',
      'surgical robotics',
      'point of care',
    ],
    suffixes: ['Medical', 'Diagnostics', 'Med', 'Devices', 'Health'],
    related: ['healthtech', 'ai', 'biotech', 'hardware'],
    titles: ['Chief Medical Officer', 'Head of Regulatory Affairs', 'VP Quality'],
  },
  {
    key: 'data analytics',
    display: 'data analytics',
    weight: 3.5,
    industries: ['Data Infrastructure and Analytics', 'IT Services and IT Consulting'],
    products: [
      'data platform',
      'business intelligence platform',
      'data observability tool',
      'reverse ETL platform',
      'product analytics platform',
      'data labeling platform',
      'data catalog',
    ],
    audiences: ['data teams', 'analysts', 'enterprises', 'product teams', 'finance teams', 'business users'],
    outcomes: [
      'turn data into decisions',
      'trust their data',
      'build dashboards in minutes',
      'understand user behavior',
      'unify data across tools',
      'forecast demand accurately',
    ],
    adjectives: ['cloud-native', 'real-time', 'AI-powered', 'self-serve', 'open-source'],
    keywords: [
      'data analytics',
      'business intelligence',
      'big data',
      'data engineering',
      'data infrastructure',
      'etl',
      'data governance',
      'analytics',
    ],
    suffixes: ['Data', 'Analytics', 'Insights', 'Metrics', 'Labs'],
    related: ['ai', 'saas', 'developer tools', 'cybersecurity'],
    titles: ['Head of Data', 'Chief Data Officer'],
  },
  {
    key: 'blockchain',
    display: 'blockchain',
    weight: 2,
    industries: ['Technology, Information and Internet', 'Financial Services'],
    products: [
      'digital asset custody platform',
      'crypto exchange',
      'stablecoin payments network',
      'blockchain infrastructure platform',
      'tokenization platform',
      'Web3 wallet',
      'on-chain analytics platform',
    ],
    audiences: ['institutions', 'developers', 'crypto traders', 'banks', 'asset managers', 'consumers'],
    outcomes: [
      'store and trade digital assets securely',
      'settle payments instantly',
      'build decentralized applications',
      'tokenize real-world assets',
      'monitor on-chain risk',
      'move money across borders',
    ],
    adjectives: ['institutional-grade', 'decentralized', 'secure', 'regulated', 'open-source'],
    keywords: ['blockchain', 'crypto', 'web3', 'digital assets', 'defi', 'stablecoins', 'tokenization', 'custody'],
    suffixes: ['Chain', 'Labs', 'Protocol', 'Network', 'Ledger'],
    related: ['fintech', 'developer tools', 'gaming', 'cybersecurity'],
    tlds: ['io', 'xyz', 'com', 'io'],
    titles: ['Head of Protocol', 'Head of Compliance'],
  },
  {
    key: 'energy',
    display: 'energy',
    weight: 2,
    industries: ['Renewable Energy Power Generation', 'Utilities'],
    products: [
      'solar financing platform',
      'virtual power plant',
      'long-duration energy storage system',
      'green hydrogen technology',
      'home energy management system',
      'grid software platform',
      'geothermal energy system',
    ],
    audiences: ['utilities', 'homeowners', 'commercial buildings', 'grid operators', 'industrial companies', 'energy developers'],
    outcomes: [
      'cut energy bills',
      'balance the grid',
      'store renewable energy',
      'decarbonize heavy industry',
      'go solar with no upfront cost',
      'manage distributed energy',
    ],
    adjectives: ['clean', 'low-cost', 'modular', 'software-defined', 'grid-scale'],
    keywords: ['energy', 'renewable energy', 'solar', 'energy storage', 'hydrogen', 'grid', 'batteries', 'virtual power plant'],
    suffixes: ['Energy', 'Power', 'Solar', 'Grid', 'Volt', 'Electric'],
    related: ['climate tech', 'hardware', 'mobility', 'data analytics'],
    titles: ['Head of Project Development', 'VP Engineering'],
  },
  {
    key: 'construction tech',
    display: 'construction tech',
    weight: 1.5,
    industries: ['Construction', 'Building Construction'],
    products: [
      'construction management platform',
      'modular building system',
      '3D printing construction technology',
      'project scheduling software',
      'jobsite safety platform',
      'construction marketplace',
    ],
    audiences: ['general contractors', 'subcontractors', 'developers', 'architects', 'construction firms'],
    outcomes: [
      'deliver projects on time and on budget',
      'build homes faster',
      'track jobsite progress',
      'reduce rework',
      'procure materials efficiently',
      'improve jobsite safety',
    ],
    adjectives: ['cloud-based', 'AI-powered', 'modular', 'mobile-first', 'end-to-end'],
    keywords: [
      'construction tech',
      'construction management',
      'modular construction',
      'bim',
      'jobsite',
      'building materials',
      'architecture',
    ],
    suffixes: ['Build', 'Builders', 'Construct', 'Works', 'Site'],
    related: ['proptech', 'saas', 'robotics', 'climate tech'],
  },
  {
    key: 'travel tech',
    display: 'travel tech',
    weight: 1.5,
    industries: ['Travel Arrangements', 'Hospitality'],
    products: [
      'corporate travel platform',
      'hotel booking engine',
      'travel experiences marketplace',
      'vacation rental platform',
      'airline retailing software',
      'travel payments platform',
    ],
    audiences: ['business travelers', 'hotels', 'travelers', 'travel agencies', 'airlines', 'tour operators'],
    outcomes: [
      'book trips in minutes',
      'manage travel spend',
      'fill more rooms',
      'discover local experiences',
      'sell more ancillaries',
      'plan trips together',
    ],
    adjectives: ['AI-powered', 'all-in-one', 'mobile-first', 'modern', 'personalized'],
    keywords: ['travel', 'hospitality', 'corporate travel', 'booking', 'tourism', 'vacation rentals', 'airlines'],
    suffixes: ['Travel', 'Trips', 'Stay', 'Go', 'Journeys'],
    related: ['saas', 'fintech', 'e-commerce', 'ai'],
  },
  {
    key: 'media',
    display: 'media',
    weight: 2,
    industries: ['Online Audio and Video Media', 'Book and Periodical Publishing'],
    products: [
      'creator monetization platform',
      'podcast network',
      'video streaming service',
      'newsletter platform',
      'short-form video app',
      'AI video editing tool',
      'digital publishing platform',
    ],
    audiences: ['creators', 'publishers', 'brands', 'podcasters', 'media companies', 'independent journalists'],
    outcomes: [
      'monetize their audiences',
      'edit video in minutes',
      'grow their subscribers',
      'reach new audiences',
      'publish across platforms',
      'license content',
    ],
    adjectives: ['AI-powered', 'creator-first', 'subscription-based', 'mobile-first', 'independent'],
    keywords: ['media', 'creator economy', 'streaming', 'podcasts', 'video', 'publishing', 'content', 'subscriptions'],
    suffixes: ['Media', 'Studio', 'Studios', 'Stream', 'TV', 'Audio'],
    related: ['martech', 'ai', 'gaming', 'e-commerce'],
    titles: ['Head of Content', 'Editor-in-Chief'],
  },
  {
    key: 'hardware',
    display: 'hardware',
    weight: 1.5,
    industries: ['Computer Hardware Manufacturing', 'Semiconductor Manufacturing'],
    products: [
      'AI chip',
      'photonic computing processor',
      'IoT sensor platform',
      'edge computing device',
      'quantum computer',
      'LiDAR sensor',
      'smart home device',
    ],
    audiences: ['data centers', 'device makers', 'automakers', 'industrial companies', 'consumers', 'research labs'],
    outcomes: [
      'run AI workloads efficiently',
      'process data at the edge',
      'connect industrial equipment',
      'sense the world in 3D',
      'tackle problems classical computers cannot',
      'cut power consumption',
    ],
    adjectives: ['energy-efficient', 'high-performance', 'low-power', 'next-generation', 'custom'],
    keywords: ['semiconductors', 'hardware', 'iot', 'edge computing', 'quantum computing', 'sensors', 'chips', 'photonics'],
    suffixes: ['Semiconductor', 'Silicon', 'Devices', 'Quantum', 'Systems', 'Technologies'],
    related: ['ai', 'robotics', 'energy', 'mobility'],
    titles: ['VP Hardware Engineering', 'Head of Manufacturing', 'Head of Silicon'],
  },
];

const CATEGORY_BY_KEY = new Map(CATEGORIES.map((c) => [c.key, c]));
const CATEGORY_PICKER = new Weighted(CATEGORIES.map((c) => [c, c.weight] as const));

const ACRONYMS = new Set([
  'ai',
  'api',
  'apis',
  'crm',
  'esg',
  'nlp',
  'siem',
  'clm',
  'etl',
  'bim',
  'iot',
  'ev',
  'hris',
  'd2c',
  'seo',
  'mlops',
  'ci/cd',
  'k-12',
  'b2b',
  'hr',
  'defi',
]);

function titleCase(phrase: string): string {
  return phrase
    .split(' ')
    .map((word) => {
      if (ACRONYMS.has(word)) return word === 'mlops' ? 'MLOps' : word === 'defi' ? 'DeFi' : word.toUpperCase();
      if (word === 'and' || word === 'of') return word;
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join(' ');
}

const SPECIALITIES = new Map(CATEGORIES.map((c) => [c.key, c.keywords.map(titleCase)]));

/** A keyword as it reads in running text: lower case, acronyms restored ("mlops" -> "MLOps"). */
function prose(keyword: string): string {
  return keyword
    .split(' ')
    .map((word) => (ACRONYMS.has(word) ? titleCase(word) : word))
    .join(' ');
}

/** "a" or "an" by the sound of the first letter (acronyms by letter name). */
function article(word: string): string {
  const acronym =
    word.length > 1 && word[0] === word[0]!.toUpperCase() && word[1] === word[1]!.toUpperCase() && /[A-Z]/.test(word[0]!);
  if (acronym) return 'AEFHILMNORSX'.includes(word[0]!) ? 'an' : 'a';
  if (/^(uni|use|usa|uti|ure|eu|one)/i.test(word)) return 'a';
  if (/^(8|11|18)/.test(word)) return 'an';
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

interface Country {
  code: string;
  weight: number;
  currency: string;
  localShare: number;
  tlds: string[];
  dial: string;
  phone: string;
  names: string;
  cities: string[];
  legal: string;
}

const C = (
  code: string,
  weight: number,
  currency: string,
  localShare: number,
  tlds: string[],
  dial: string,
  phone: string,
  names: string,
  cities: string[],
  legal = 'Inc.',
): Country => ({ code, weight, currency, localShare, tlds, dial, phone, names, cities, legal });

const COUNTRIES: Country[] = [
  C('US', 40, 'USD', 1, [], '1', 'N##-N##-####', 'en', [
    'San Francisco',
    'New York',
    'Boston',
    'Austin',
    'Seattle',
    'Los Angeles',
    'Chicago',
    'Denver',
    'Miami',
    'Palo Alto',
    'San Diego',
    'Atlanta',
  ]),
  C(
    'GB',
    7.5,
    'GBP',
    0.45,
    ['co.uk', 'co.uk', 'uk'],
    '44',
    '20 #### ####',
    'en',
    ['London', 'London', 'Manchester', 'Cambridge', 'Edinburgh', 'Oxford', 'Bristol'],
    'Ltd',
  ),
  C(
    'IN',
    5,
    'INR',
    0.45,
    ['in', 'co.in'],
    '91',
    'N#### #####',
    'in',
    ['Bengaluru', 'Mumbai', 'Gurugram', 'Hyderabad', 'Pune', 'Chennai', 'New Delhi'],
    'Pvt Ltd',
  ),
  C(
    'DE',
    4.5,
    'EUR',
    0.5,
    ['de', 'de'],
    '49',
    '30 ########',
    'de',
    ['Berlin', 'Munich', 'Hamburg', 'Cologne', 'Frankfurt'],
    'GmbH',
  ),
  C('FR', 4, 'EUR', 0.5, ['fr'], '33', 'N ## ## ## ##', 'fr', ['Paris', 'Paris', 'Lyon', 'Toulouse', 'Nantes'], 'SAS'),
  C('CA', 3.5, 'CAD', 0.4, ['ca'], '1', 'N##-N##-####', 'en', [
    'Toronto',
    'Vancouver',
    'Montreal',
    'Waterloo',
    'Ottawa',
    'Calgary',
  ]),
  C('CN', 2.5, 'CNY', 0.55, ['cn', 'com.cn'], '86', '1## #### ####', 'cn', [
    'Beijing',
    'Shanghai',
    'Shenzhen',
    'Hangzhou',
    'Guangzhou',
  ]),
  C(
    'IL',
    2.5,
    'ILS',
    0.08,
    ['co.il'],
    '972',
    'N-###-####',
    'il',
    ['Tel Aviv', 'Tel Aviv', 'Herzliya', 'Haifa', 'Jerusalem'],
    'Ltd',
  ),
  C('SG', 2, 'SGD', 0.25, ['sg', 'com.sg'], '65', 'N### ####', 'sg', ['Singapore'], 'Pte Ltd'),
  C('AU', 1.8, 'AUD', 0.45, ['com.au'], '61', 'N #### ####', 'en', ['Sydney', 'Melbourne', 'Brisbane', 'Perth'], 'Pty Ltd'),
  C(
    'NL',
    1.5,
    'EUR',
    0.5,
    ['nl'],
    '31',
    '20 ### ####',
    'nl',
    ['Amsterdam', 'Amsterdam', 'Rotterdam', 'Utrecht', 'Eindhoven'],
    'B.V.',
  ),
  C('SE', 1.5, 'SEK', 0.35, ['se'], '46', '8 ### ### ##', 'sv', ['Stockholm', 'Stockholm', 'Gothenburg', 'Malmö'], 'AB'),
  C('ES', 1.5, 'EUR', 0.5, ['es'], '34', '9## ### ###', 'es', ['Madrid', 'Barcelona', 'Valencia', 'Málaga'], 'S.L.'),
  C(
    'BR',
    1.5,
    'BRL',
    0.45,
    ['com.br'],
    '55',
    '11 9####-####',
    'pt',
    ['São Paulo', 'São Paulo', 'Rio de Janeiro', 'Florianópolis', 'Belo Horizonte'],
    'Ltda',
  ),
  C('JP', 1.2, 'JPY', 0.6, ['jp', 'co.jp'], '81', '3-####-####', 'jp', ['Tokyo', 'Tokyo', 'Osaka', 'Fukuoka', 'Kyoto'], 'K.K.'),
  C('CH', 1.2, 'CHF', 0.35, ['ch'], '41', '44 ### ## ##', 'de', ['Zurich', 'Geneva', 'Lausanne', 'Basel', 'Zug'], 'AG'),
  C('KR', 1, 'KRW', 0.55, ['co.kr', 'kr'], '82', '2-####-####', 'kr', ['Seoul', 'Seoul', 'Pangyo', 'Busan']),
  C('IE', 0.9, 'EUR', 0.45, ['ie'], '353', '1 ### ####', 'en', ['Dublin', 'Dublin', 'Cork', 'Galway'], 'Ltd'),
  C('IT', 0.8, 'EUR', 0.5, ['it'], '39', '02 #### ####', 'it', ['Milan', 'Rome', 'Turin', 'Bologna'], 'S.r.l.'),
  C('HK', 0.6, 'HKD', 0.2, ['hk', 'com.hk'], '852', 'N### ####', 'cn', ['Hong Kong'], 'Ltd'),
  C('AE', 0.7, 'AED', 0.15, ['ae'], '971', '4 ### ####', 'en', ['Dubai', 'Dubai', 'Abu Dhabi'], 'FZ-LLC'),
  C('DK', 0.6, 'DKK', 0.3, ['dk'], '45', 'N# ## ## ##', 'sv', ['Copenhagen', 'Aarhus'], 'ApS'),
  C('FI', 0.6, 'EUR', 0.45, ['fi'], '358', '9 ### ####', 'sv', ['Helsinki', 'Espoo', 'Tampere'], 'Oy'),
  C(
    'MX',
    0.6,
    'MXN',
    0.2,
    ['mx', 'com.mx'],
    '52',
    '55 #### ####',
    'es',
    ['Mexico City', 'Monterrey', 'Guadalajara'],
    'S.A. de C.V.',
  ),
  C('ID', 0.6, 'IDR', 0.15, ['co.id', 'id'], '62', '21 ### ####', 'en', ['Jakarta', 'Jakarta', 'Bandung'], 'PT'),
  C('NO', 0.5, 'NOK', 0.35, ['no'], '47', 'N# ## ## ##', 'sv', ['Oslo', 'Bergen', 'Trondheim'], 'AS'),
  C('BE', 0.5, 'EUR', 0.45, ['be'], '32', '2 ### ## ##', 'nl', ['Brussels', 'Antwerp', 'Ghent', 'Leuven'], 'NV'),
  C('AT', 0.5, 'EUR', 0.5, ['at'], '43', '1 #######', 'de', ['Vienna', 'Graz', 'Linz'], 'GmbH'),
  C('PL', 0.5, 'PLN', 0.35, ['pl'], '48', '22 ### ## ##', 'pl', ['Warsaw', 'Kraków', 'Wrocław'], 'sp. z o.o.'),
  C('PT', 0.4, 'EUR', 0.45, ['pt'], '351', '21 ### ####', 'pt', ['Lisbon', 'Porto', 'Braga'], 'Lda'),
  C('NG', 0.4, 'NGN', 0.1, ['ng', 'com.ng'], '234', '1 ### ####', 'en', ['Lagos', 'Lagos', 'Abuja'], 'Ltd'),
  C('ZA', 0.4, 'ZAR', 0.25, ['co.za'], '27', '21 ### ####', 'en', ['Cape Town', 'Johannesburg', 'Durban'], '(Pty) Ltd'),
  C('EE', 0.3, 'EUR', 0.4, ['ee'], '372', '6## ####', 'en', ['Tallinn', 'Tartu'], 'OÜ'),
  C('AR', 0.3, 'ARS', 0.05, ['com.ar'], '54', '11 ####-####', 'es', ['Buenos Aires', 'Córdoba'], 'S.A.'),
  C('CO', 0.3, 'COP', 0.1, ['co', 'com.co'], '57', '601 ### ####', 'es', ['Bogotá', 'Medellín'], 'S.A.S.'),
  C('CL', 0.3, 'CLP', 0.1, ['cl'], '56', '2 #### ####', 'es', ['Santiago'], 'SpA'),
  C('KE', 0.3, 'KES', 0.1, ['co.ke'], '254', '20 ### ####', 'en', ['Nairobi'], 'Ltd'),
  C('NZ', 0.3, 'NZD', 0.35, ['co.nz'], '64', '9 ### ####', 'en', ['Auckland', 'Wellington', 'Christchurch'], 'Ltd'),
  C('TW', 0.3, 'TWD', 0.3, ['com.tw', 'tw'], '886', '2 #### ####', 'cn', ['Taipei', 'Hsinchu'], 'Ltd'),
  C('TR', 0.3, 'TRY', 0.1, ['com.tr'], '90', '212 ### ## ##', 'en', ['Istanbul', 'Ankara'], 'A.Ş.'),
  C('SA', 0.3, 'SAR', 0.2, ['sa', 'com.sa'], '966', '11 ### ####', 'en', ['Riyadh', 'Jeddah'], 'LLC'),
  C('VN', 0.3, 'VND', 0.05, ['vn', 'com.vn'], '84', '28 #### ####', 'en', ['Ho Chi Minh City', 'Hanoi'], 'JSC'),
  C('EG', 0.2, 'EGP', 0.05, ['com.eg'], '20', '2 #### ####', 'en', ['Cairo'], 'S.A.E.'),
  C('CZ', 0.2, 'CZK', 0.2, ['cz'], '420', '2## ### ###', 'en', ['Prague', 'Brno'], 's.r.o.'),
  C('LT', 0.2, 'EUR', 0.4, ['lt'], '370', '5 ### ####', 'en', ['Vilnius', 'Kaunas'], 'UAB'),
];

const COUNTRY_PICKER = new Weighted(COUNTRIES.map((c) => [c, c.weight] as const));
const ACQUIRER_COUNTRY_PICKER = new Weighted(COUNTRIES.map((c) => [c, c.code === 'US' ? c.weight * 1.6 : c.weight] as const));

/** Approximate units of each currency per US dollar. */
const FX: Record<string, number> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  INR: 83,
  CAD: 1.36,
  CNY: 7.2,
  ILS: 3.7,
  SGD: 1.34,
  AUD: 1.52,
  SEK: 10.5,
  BRL: 5.1,
  JPY: 150,
  CHF: 0.88,
  KRW: 1340,
  HKD: 7.8,
  AED: 3.67,
  DKK: 6.9,
  MXN: 17.5,
  IDR: 15600,
  NOK: 10.7,
  PLN: 4,
  NGN: 1400,
  ZAR: 18.5,
  ARS: 900,
  COP: 3950,
  CLP: 930,
  KES: 130,
  NZD: 1.65,
  TWD: 32,
  TRY: 32,
  SAR: 3.75,
  VND: 25000,
  EGP: 48,
  CZK: 23,
};

const GENERIC_TLDS = ['com', 'com', 'com', 'com', 'io', 'io', 'ai', 'co'];

const SIZE_LABELS: [number, string][] = [
  [10, '1-10'],
  [50, '11-50'],
  [200, '51-200'],
  [500, '201-500'],
  [1000, '501-1000'],
  [5000, '1001-5000'],
  [10000, '5001-10000'],
];

function sizeLabel(headcount: number): string {
  for (const [max, label] of SIZE_LABELS) if (headcount <= max) return label;
  return '10001+';
}

// ---------------------------------------------------------------------------------------------
// People
// ---------------------------------------------------------------------------------------------

function asciiToken(value: string): string {
  const out = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ł/g, 'l')
    .replace(/[øö]/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/[^a-z]/g, '');
  return out === '' ? 'x' : out;
}

interface NamePool {
  first: string[];
  last: string[];
  firstKey: string[];
  lastKey: string[];
}

function namePool(first: readonly string[], last: readonly string[]): NamePool {
  const clean = (list: readonly string[]) => [
    ...new Set(list.map((n) => n.trim()).filter((n) => n !== '' && !/[^\p{L}\s'’-]/u.test(n) && n.length <= 18)),
  ];
  const f = clean(first);
  const l = clean(last);
  return { first: f, last: l, firstKey: f.map(asciiToken), lastKey: l.map(asciiToken) };
}

function localeNames(locale: LocaleDefinition): NamePool {
  const person = locale.person;
  const firstDef = person?.first_name;
  const lastDef = person?.last_name;
  const first = [...(firstDef?.generic ?? []), ...(firstDef?.female ?? []), ...(firstDef?.male ?? [])];
  const last = [...(lastDef?.generic ?? []), ...(lastDef?.female ?? []), ...(lastDef?.male ?? [])];
  return namePool(first, last);
}

let namePoolsCache: Map<string, NamePool> | undefined;

function namePools(): Map<string, NamePool> {
  if (namePoolsCache) return namePoolsCache;
  const pools = new Map<string, NamePool>([
    ['en', localeNames(en)],
    ['de', localeNames(de)],
    ['fr', localeNames(fr)],
    ['in', localeNames(en_IN)],
    ['es', localeNames(es)],
    ['pt', localeNames(pt_BR)],
    ['nl', localeNames(nl)],
    ['sv', localeNames(sv)],
    ['it', localeNames(it)],
    ['pl', localeNames(pl)],
    [
      'cn',
      namePool(
        [
          'Wei',
          'Jing',
          'Hao',
          'Xin',
          'Yu',
          'Lei',
          'Min',
          'Jun',
          'Yan',
          'Tao',
          'Fang',
          'Hui',
          'Ming',
          'Qiang',
          'Lin',
          'Yi',
          'Xiaoming',
          'Jian',
          'Li',
          'Chen',
          'Rui',
          'Bo',
          'Kai',
          'Ying',
        ],
        [
          'Wang',
          'Li',
          'Zhang',
          'Liu',
          'Chen',
          'Yang',
          'Huang',
          'Zhao',
          'Wu',
          'Zhou',
          'Xu',
          'Sun',
          'Ma',
          'Zhu',
          'Hu',
          'Guo',
          'Lin',
          'He',
          'Gao',
          'Luo',
          'Tan',
          'Lim',
          'Tang',
          'Cheng',
        ],
      ),
    ],
    [
      'sg',
      namePool(
        [
          'Wei Ming',
          'Jia Hui',
          'Marcus',
          'Rachel',
          'Daniel',
          'Priya',
          'Arjun',
          'Siti',
          'Nur',
          'Kelvin',
          'Grace',
          'Ryan',
          'Jasmine',
          'Darren',
          'Clara',
          'Ethan',
          'Shawn',
          'Mei Ling',
        ],
        [
          'Tan',
          'Lim',
          'Lee',
          'Ng',
          'Ong',
          'Wong',
          'Goh',
          'Chua',
          'Chan',
          'Koh',
          'Teo',
          'Ang',
          'Yeo',
          'Tay',
          'Ho',
          'Low',
          'Nair',
          'Menon',
          'Rahman',
        ],
      ),
    ],
    [
      'jp',
      namePool(
        [
          'Haruto',
          'Yuki',
          'Kenji',
          'Takashi',
          'Hiroshi',
          'Sota',
          'Ren',
          'Yui',
          'Aoi',
          'Sakura',
          'Hina',
          'Daiki',
          'Kaito',
          'Naoki',
          'Emi',
          'Mai',
          'Shota',
          'Ryo',
          'Kenta',
          'Yuka',
          'Akira',
          'Satoshi',
        ],
        [
          'Sato',
          'Suzuki',
          'Takahashi',
          'Tanaka',
          'Watanabe',
          'Ito',
          'Yamamoto',
          'Nakamura',
          'Kobayashi',
          'Kato',
          'Yoshida',
          'Yamada',
          'Sasaki',
          'Matsumoto',
          'Inoue',
          'Kimura',
          'Hayashi',
          'Shimizu',
        ],
      ),
    ],
    [
      'kr',
      namePool(
        [
          'Min-jun',
          'Seo-yeon',
          'Ji-ho',
          'Ha-eun',
          'Do-yun',
          'Ji-woo',
          'Seo-jun',
          'Su-bin',
          'Hyun-woo',
          'Ye-jin',
          'Jae-won',
          'Eun-ji',
          'Sung-min',
          'Hye-jin',
          'Dong-hyun',
          'Ji-hoon',
        ],
        ['Kim', 'Lee', 'Park', 'Choi', 'Jung', 'Kang', 'Cho', 'Yoon', 'Jang', 'Lim', 'Han', 'Oh', 'Seo', 'Shin', 'Kwon', 'Hwang'],
      ),
    ],
    [
      'il',
      namePool(
        [
          'Noa',
          'Yossi',
          'Avi',
          'Tamar',
          'Itai',
          'Omer',
          'Yael',
          'Eitan',
          'Shira',
          'Ido',
          'Maya',
          'Amit',
          'Roni',
          'Nadav',
          'Gal',
          'Lior',
          'Oren',
          'Michal',
          'Yonatan',
          'Dana',
          'Guy',
          'Tal',
        ],
        [
          'Cohen',
          'Levi',
          'Mizrahi',
          'Peretz',
          'Biton',
          'Friedman',
          'Katz',
          'Shapiro',
          'Ben-David',
          'Azulay',
          'Goldberg',
          'Avraham',
          'Dahan',
          'Rosen',
          'Segal',
          'Ohana',
          'Barak',
          'Gabay',
        ],
      ),
    ],
  ]);
  namePoolsCache = pools;
  return pools;
}

interface Person {
  name: string;
  first: string;
  last: string;
}

// ---------------------------------------------------------------------------------------------
// Word pools for names
// ---------------------------------------------------------------------------------------------

const ROOT_NOUNS = [
  'loop',
  'pulse',
  'beacon',
  'harbor',
  'orbit',
  'signal',
  'kite',
  'atlas',
  'forge',
  'spark',
  'river',
  'stone',
  'cloud',
  'path',
  'field',
  'wave',
  'peak',
  'leaf',
  'bloom',
  'nest',
  'hive',
  'grid',
  'tide',
  'vault',
  'arc',
  'axis',
  'bolt',
  'bridge',
  'canvas',
  'cedar',
  'circle',
  'coral',
  'craft',
  'crest',
  'dash',
  'delta',
  'drift',
  'echo',
  'ember',
  'fern',
  'flare',
  'flint',
  'flow',
  'fox',
  'glow',
  'granite',
  'haven',
  'helix',
  'iris',
  'jade',
  'keel',
  'lark',
  'lattice',
  'ledger',
  'light',
  'lumen',
  'maple',
  'mesa',
  'mint',
  'moss',
  'nimbus',
  'nova',
  'oak',
  'onyx',
  'opal',
  'otter',
  'pine',
  'pixel',
  'plume',
  'prism',
  'quill',
  'quartz',
  'rally',
  'ridge',
  'rocket',
  'sage',
  'scout',
  'shift',
  'slate',
  'sonar',
  'spruce',
  'stack',
  'summit',
  'thread',
  'timber',
  'torch',
  'trail',
  'tundra',
  'vector',
  'verse',
  'vista',
  'willow',
  'wren',
  'zenith',
  'anchor',
  'birch',
  'blaze',
  'boulder',
  'cobalt',
  'comet',
  'compass',
  'copper',
  'cove',
  'dune',
  'falcon',
  'fjord',
  'frame',
  'harvest',
  'heron',
  'horizon',
  'island',
  'juniper',
  'lantern',
  'lever',
  'magnet',
  'meadow',
  'mosaic',
  'nomad',
  'oasis',
  'palette',
  'pebble',
  'pilot',
  'pioneer',
  'pylon',
  'rover',
  'sable',
  'sequoia',
  'shore',
  'sierra',
  'silo',
  'sol',
  'sprout',
  'stride',
  'sun',
  'tandem',
  'tempo',
  'terra',
  'tonic',
  'volt',
  'waypoint',
  'zephyr',
  'beam',
  'bay',
  'brook',
  'cairn',
  'cinder',
  'crane',
  'dawn',
  'dock',
  'feather',
  'gale',
  'glade',
  'grove',
  'hatch',
  'hearth',
  'key',
  'knot',
  'lens',
  'loom',
  'lynx',
  'mast',
  'meridian',
  'mill',
  'north',
  'orchard',
  'parcel',
  'quest',
  'raven',
  'reef',
  'relay',
  'sail',
  'scale',
  'seed',
  'sky',
  'spire',
  'sprocket',
  'harbour',
  'thistle',
  'vine',
  'wharf',
  'yard',
];

const ROOT_ADJECTIVES = [
  'bright',
  'clear',
  'true',
  'swift',
  'solid',
  'lucid',
  'radiant',
  'vivid',
  'wild',
  'sterling',
  'ample',
  'bold',
  'brisk',
  'calm',
  'deep',
  'even',
  'fair',
  'fresh',
  'good',
  'grand',
  'happy',
  'keen',
  'kind',
  'level',
  'native',
  'open',
  'plain',
  'prime',
  'quiet',
  'rapid',
  'ready',
  'simple',
  'smart',
  'steady',
  'sure',
  'vital',
  'whole',
  'blue',
  'green',
  'red',
  'silver',
  'golden',
  'indigo',
  'scarlet',
  'amber',
  'ivory',
  'little',
  'high',
  'far',
  'first',
  'new',
];

const ROOTS = [...ROOT_NOUNS, ...ROOT_ADJECTIVES];

const ROOT_ENDINGS = [
  'ly',
  'ify',
  'io',
  'hub',
  'base',
  'stack',
  'wise',
  'flow',
  'able',
  'a',
  'o',
  'iq',
  'ix',
  'era',
  'sy',
  'mate',
  'kit',
  'lab',
  'ify',
  'ly',
  'io',
];

const BRAND_STARTS = [
  'Zen',
  'Kov',
  'Lum',
  'Nov',
  'Vel',
  'Qua',
  'Tral',
  'Bri',
  'Cor',
  'Fen',
  'Hal',
  'Jun',
  'Kai',
  'Lev',
  'Mir',
  'Nex',
  'Ori',
  'Pax',
  'Quin',
  'Ryv',
  'Sol',
  'Tav',
  'Vor',
  'Wyn',
  'Xan',
  'Yor',
  'Zy',
  'Ar',
  'Bel',
  'Cal',
  'Dex',
  'Eon',
  'Fal',
  'Gra',
  'Hex',
  'Ion',
  'Jax',
  'Kel',
  'Lyr',
  'Mav',
  'Nim',
  'Oct',
  'Per',
  'Riv',
  'Syn',
  'Tes',
  'Umb',
  'Val',
  'Wex',
  'Zel',
  'Aer',
  'Bri',
  'Cyr',
  'Dav',
  'Elo',
  'Fyn',
  'Glo',
  'Hyl',
  'Iri',
  'Kin',
  'Lox',
  'Mon',
  'Nyx',
  'Omn',
  'Plu',
  'Rho',
  'Sev',
  'Tyr',
  'Vex',
  'Zor',
  'Ava',
  'Bo',
  'Ce',
  'Da',
  'Fi',
  'Ga',
  'Ha',
  'Ka',
  'La',
  'Ma',
  'Na',
  'Pa',
  'Ra',
  'Sa',
  'Ta',
  'Va',
  'Za',
  'Tri',
  'Kla',
  'Pro',
  'Vi',
  'Neo',
  'Sy',
  'Que',
  'Ver',
  'Sen',
  'Mod',
  'Tor',
  'Alt',
  'Ek',
  'Ul',
  'Os',
  'In',
  'Ob',
  'Ku',
  'Ro',
  'Du',
  'Fo',
  'Mu',
];
const BRAND_MIDS = [
  'a',
  'e',
  'i',
  'o',
  'u',
  'ra',
  'ri',
  'lo',
  'li',
  'va',
  'ne',
  'ta',
  'mi',
  'ro',
  've',
  'ga',
  'do',
  'so',
  'n',
  'l',
  'r',
  'x',
  'v',
  'th',
];
const BRAND_ENDS = [
  'a',
  'o',
  'io',
  'ia',
  'ix',
  'ex',
  'is',
  'us',
  'on',
  'an',
  'en',
  'ly',
  'ify',
  'ara',
  'ora',
  'era',
  'ium',
  'ent',
  'ova',
  'ica',
  'ida',
  'ant',
  'ive',
  'ity',
  'um',
  'ar',
  'or',
  'el',
  'al',
  'iq',
  'ax',
  'yx',
  'eo',
  'ea',
  'ic',
  'ion',
  'ano',
  'ino',
  'ato',
  'ero',
  'ly',
  'ra',
  'ta',
  'na',
  'ka',
  'vo',
  'zo',
  'ys',
  'ist',
  'ura',
];

const NAME_PREFIXES = [
  'Hey',
  'Get',
  'Go',
  'My',
  'Open',
  'True',
  'One',
  'Super',
  'Neo',
  'Hyper',
  'All',
  'Re',
  'Up',
  'Just',
  'Be',
  'Pro',
  'Ever',
  'Next',
];

const GENERIC_SUFFIXES = ['Labs', 'HQ', 'Technologies', 'Systems', 'Cloud', 'Works', 'Hub', 'Studio', 'Group', 'Co'];

const VOWELS = 'aeiouy';

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

const LINKS = 'lnrvstmdk';

function joinSyllables(a: string, b: string): string {
  if (b === '') return a;
  const last = a.charAt(a.length - 1).toLowerCase();
  const first = b.charAt(0);
  // Two vowels meeting get a linking consonant ("Ga" + "ia" -> "Galia").
  if (VOWELS.includes(last) && VOWELS.includes(first))
    return a + LINKS.charAt((a.length * 7 + b.length * 3 + a.charCodeAt(0)) % LINKS.length) + b;
  if (!VOWELS.includes(last) && !VOWELS.includes(first) && !VOWELS.includes(a.charAt(a.length - 2).toLowerCase())) {
    return a + 'a' + b;
  }
  if (last === first) return a + b.slice(1);
  return a + b;
}

/** An invented, pronounceable brand word ("Zentrio", "Kovala"); `long` forces a middle syllable. */
function brandWord(rng: Rng, long = false): string {
  let word = rng.pick(BRAND_STARTS);
  const r = rng.next();
  const mids = long ? (r < 0.6 ? 1 : 2) : r < 0.35 ? 0 : r < 0.85 ? 1 : 2;
  for (let i = 0; i < mids; i++) word = joinSyllables(word, rng.pick(BRAND_MIDS));
  word = joinSyllables(word, rng.pick(BRAND_ENDS));
  while (word.length < 4) word = joinSyllables(word, rng.pick(BRAND_ENDS));
  return word;
}

function rootWithEnding(rng: Rng): string {
  let root = rng.pick(ROOT_NOUNS);
  const ending = rng.pick(ROOT_ENDINGS);
  if (root.endsWith('e') && VOWELS.includes(ending.charAt(0))) root = root.slice(0, -1);
  if (root.endsWith('y') && ending === 'ly') return cap(root.slice(0, -1) + 'ily');
  if (VOWELS.includes(root.charAt(root.length - 1)) && VOWELS.includes(ending.charAt(0))) return cap(root + ending.slice(1));
  return cap(root + ending);
}

function compoundWord(rng: Rng): string {
  const a = rng.chance(0.5) ? rng.pick(ROOT_ADJECTIVES) : rng.pick(ROOT_NOUNS);
  let b = rng.pick(ROOT_NOUNS);
  while (b === a) b = rng.pick(ROOT_NOUNS);
  return rng.chance(0.3) ? cap(a) + cap(b) : cap(a + b);
}

// ---------------------------------------------------------------------------------------------
// Rounds
// ---------------------------------------------------------------------------------------------

type InvestorKind = 'early' | 'venture' | 'growth' | 'debt' | 'grant';

interface Stage {
  label: string | null;
  weight: number;
  amount: [number, number];
  age: [number, number];
  headcount: [number, number];
  growth: [number, number];
  investors: [number, number];
  angelShare: number;
  kind: InvestorKind;
  early: boolean;
}

const S = (
  label: string | null,
  weight: number,
  amount: [number, number],
  age: [number, number],
  headcount: [number, number],
  growth: [number, number],
  investors: [number, number],
  angelShare: number,
  kind: InvestorKind,
  early: boolean,
): Stage => ({ label, weight, amount, age, headcount, growth, investors, angelShare, kind, early });

const M = 1_000_000;
const STAGES: Stage[] = [
  S('pre-seed', 9, [0.1 * M, 1.5 * M], [0.5, 2], [2, 12], [0.02, 0.08], [1, 3], 0.45, 'early', true),
  S('angel', 6, [0.05 * M, 1 * M], [0.5, 3], [1, 15], [0.01, 0.06], [1, 4], 0.7, 'early', true),
  S('seed', 22, [0.5 * M, 5 * M], [0.5, 4], [4, 40], [0.02, 0.07], [1, 5], 0.25, 'early', true),
  S('convertible note', 3, [0.1 * M, 3 * M], [0.5, 5], [3, 50], [0.01, 0.05], [1, 3], 0.35, 'early', true),
  S('grant', 3, [0.025 * M, 3 * M], [0.5, 8], [2, 80], [0.005, 0.04], [1, 2], 0, 'grant', true),
  S('series a', 15, [5 * M, 25 * M], [1, 6], [15, 120], [0.02, 0.06], [2, 5], 0.08, 'venture', false),
  S('bridge', 3, [1 * M, 30 * M], [2, 9], [20, 400], [0.005, 0.03], [1, 4], 0.05, 'venture', false),
  S('series b', 8.5, [15 * M, 60 * M], [2, 8], [50, 350], [0.015, 0.05], [2, 6], 0.03, 'venture', false),
  S('series c', 4, [30 * M, 150 * M], [4, 10], [120, 900], [0.01, 0.04], [2, 6], 0.02, 'growth', false),
  S('series d', 1.8, [50 * M, 300 * M], [5, 13], [250, 2500], [0.008, 0.03], [2, 6], 0.01, 'growth', false),
  S('series e', 0.7, [80 * M, 500 * M], [6, 16], [400, 6000], [0.005, 0.025], [2, 6], 0.01, 'growth', false),
  S('growth equity', 2.5, [50 * M, 500 * M], [5, 20], [200, 8000], [0.004, 0.025], [1, 4], 0, 'growth', false),
  S('debt', 5.5, [1 * M, 150 * M], [2, 15], [20, 3000], [0.003, 0.03], [1, 2], 0, 'debt', false),
  S(null, 4.4, [0.5 * M, 20 * M], [0.5, 10], [5, 300], [0.005, 0.05], [1, 4], 0.1, 'venture', false),
];
const STAGE_PICKER = new Weighted(STAGES.map((s) => [s, s.weight] as const));
const STAGE_BY_LABEL = new Map(STAGES.map((s) => [s.label ?? 'undisclosed', s]));

/** Stage mix of companies that get acquired (weights by how far they got before the exit). */
const ACQUIRED_STAGE_PICKER = new Weighted(
  (
    [
      ['pre-seed', 3],
      ['angel', 3],
      ['seed', 14],
      ['series a', 26],
      ['series b', 23],
      ['series c', 14],
      ['series d', 6],
      ['growth equity', 7],
      ['debt', 4],
    ] as const
  ).map(([label, weight]) => [STAGE_BY_LABEL.get(label)!, weight] as const),
);

/** Rounds money the way press releases do: a few significant figures, occasionally exact-ish. */
function roundAmount(rng: Rng, value: number): number {
  if (value < 1000) return Math.max(1000, Math.round(value / 100) * 100);
  const magnitude = Math.pow(10, Math.floor(Math.log10(value)));
  const r = rng.next();
  const step =
    r < 0.06 ? magnitude / 100 : r < 0.3 ? magnitude / 20 : r < 0.75 ? magnitude / 10 : r < 0.9 ? magnitude / 4 : magnitude / 2;
  return Math.max(step, Math.round(value / step) * step);
}

// ---------------------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const YEAR_MS = 365.25 * DAY_MS;
const MONTH_MS = YEAR_MS / 12;
const HISTORY_MS = 5 * YEAR_MS;
const RECENCY_MS = 2.6 * YEAR_MS;
const RECENCY_NORM = 1 - Math.exp(-HISTORY_MS / RECENCY_MS);

const monthIsoCache = new Map<number, string>();

function monthIndex(ms: number): number {
  const d = new Date(ms);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

function monthIso(index: number): string {
  let iso = monthIsoCache.get(index);
  if (iso === undefined) {
    iso = new Date(Date.UTC(Math.floor(index / 12), index % 12, 1)).toISOString();
    monthIsoCache.set(index, iso);
  }
  return iso;
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

// ---------------------------------------------------------------------------------------------
// Generator context
// ---------------------------------------------------------------------------------------------

interface InvestorFirm {
  name: string;
  linkedin: string | null;
}

interface Acquirer {
  name: string;
  linkedin: string;
  category: Category;
  info: CompanyInfo;
}

const EXEC_ROLES: string[][] = [
  ['CTO', 'Co-Founder & CTO', 'Chief Technology Officer'],
  ['COO', 'Co-Founder & COO', 'Chief Operating Officer'],
  ['Head of Product', 'Chief Product Officer', 'VP Product'],
  ['Head of Sales', 'VP of Sales', 'Chief Revenue Officer'],
  ['VP Engineering', 'Head of Engineering', 'Engineering Manager'],
  ['Head of Marketing', 'VP Marketing', 'CMO'],
  ['Head of Growth'],
  ['Head of People', 'VP People', 'Head of Talent'],
  ['Head of Operations'],
  ['Head of Partnerships', 'Head of Business Development'],
  ['Head of Customer Success', 'VP Customer Success'],
  ['Head of Design', 'Design Lead'],
  ['CFO', 'Head of Finance', 'VP Finance'],
  ['Founding Engineer', 'Senior Software Engineer', 'Staff Engineer'],
  ['Account Executive', 'Senior Account Executive'],
];
const EARLY_EXEC_ROLES = EXEC_ROLES.map((variants) =>
  variants.filter((t) => !/^(VP|Chief Revenue|CFO|CMO|Engineering Manager)/.test(t)),
).filter((variants) => variants.length > 0);
const CEO_TITLES = ['CEO', 'Co-Founder & CEO', 'Founder & CEO', 'Chief Executive Officer', 'Co-founder and CEO'];

const INTERESTS = [
  'Strategic partnerships',
  'Enterprise customers',
  'International expansion',
  'Channel partners',
  'Hiring engineers',
  'Pilot customers',
  'Distribution partners',
  'Technology integrations',
  'Reseller partnerships',
  'Public sector contracts',
  'Co-marketing opportunities',
  'Follow-on investors',
  'Acquisitions',
  'Design partners',
  'Talent acquisition',
  'University partnerships',
  'Research collaborations',
  'Licensing deals',
  'Joint ventures',
  'Marketplace listings',
  'Sales talent',
  'Advisors',
  'Industry events',
  'Product feedback',
];
const ACQUIRER_INTERESTS = [
  'Acquisitions',
  'Strategic investments',
  'Technology partnerships',
  'Startup collaborations',
  'Corporate venture capital',
  'Joint ventures',
  'Channel partners',
  'Talent acquisition',
  'International expansion',
  'Open innovation',
];

const INVESTOR_ROOTS = [
  'Redwood',
  'Granite',
  'Summit',
  'Horizon',
  'Lighthouse',
  'Pioneer',
  'Cedar',
  'Harbor',
  'Frontier',
  'Meridian',
  'Evergreen',
  'Ironbridge',
  'Bluestone',
  'Catalyst',
  'Keystone',
  'Lattice',
  'Anchor',
  'Compass',
  'Beacon',
  'Foundry',
  'Atlas',
  'Tidal',
  'Northstar',
  'Crescent',
  'Oak',
  'Maple',
  'Aspen',
  'Sierra',
  'Alpine',
  'Canyon',
  'Prairie',
  'Coastal',
  'Riverbend',
  'Sunstone',
  'Copper',
  'Silverline',
  'Ember',
  'Nimbus',
  'Polaris',
  'Quarry',
  'Stonewall',
  'Trellis',
  'Wildcat',
  'Fieldstone',
  'Greenfield',
  'Highland',
  'Lakeside',
  'Westbridge',
  'Eastside',
  'Southpoint',
  'Kingsway',
  'Ashford',
  'Brookline',
  'Cobalt',
  'Driftwood',
  'Elmwood',
  'Firstlight',
  'Gatehouse',
  'Hearth',
  'Juniper',
  'Kestrel',
  'Larkspur',
  'Mosaic',
  'Obsidian',
  'Ridgeline',
  'Saltwater',
  'Timberline',
  'Upland',
  'Vantage',
  'Windward',
  'Zephyr',
  'Blackbird',
  'Bluebird',
  'Greylock Ridge',
  'Harbourside',
  'Ironwood',
  'Lionheart',
  'Longview',
  'Mainsail',
  'Northgate',
  'Oxbow',
  'Pinnacle',
  'Redpoint Hill',
  'Seabright',
  'Spindle',
  'Tailwind',
  'Torchlight',
  'Twin Peaks',
  'Union Square',
  'Wavecrest',
  'Yellowpine',
  'Acre',
  'Basecamp',
  'Bedrock',
  'Boldstart',
  'Cadence',
  'Cornerstone',
  'Daybreak',
  'Emergent',
  'Forerunner',
  'Genesis',
  'Headline',
  'Inflection',
  'Kindred',
  'Lerer',
  'Momentum',
  'Notation',
  'Outpost',
  'Parable',
  'Precursor',
  'Quiet Harbor',
  'Rally',
  'Seedcamp',
  'Slow River',
  'Threshold',
  'Uncommon',
  'Vanguard Hill',
  'Wayfinder',
  'Worklife',
  'XYZ',
  'Amplify',
  'Backstage',
  'Collide',
  'Dream Machine',
  'Essence',
  'Fifth Wall',
  'Gradient',
  'Hustle',
  'Incisive',
  'Jumpstart',
  'Kinetic',
  'Lakestar',
  'Mercury',
  'Northpole',
  'Oxford Road',
  'Playfair',
  'Quadrant',
  'Refactor',
  'Signalfire',
  'Triple Point',
  'Unusual',
  'Venrock Hill',
  'Westwave',
  'Yellow Dog',
  'Zeal',
];
const EARLY_SUFFIXES = ['Ventures', 'Ventures', 'Capital', 'VC', 'Seed Fund', 'Capital', 'Ventures', 'Partners', 'Fund'];
const VENTURE_SUFFIXES = ['Ventures', 'Capital', 'Partners', 'Venture Partners', 'Ventures', 'Capital', 'Capital Partners'];
const GROWTH_SUFFIXES = [
  'Growth',
  'Capital',
  'Growth Partners',
  'Equity Partners',
  'Investments',
  'Capital Management',
  'Partners',
];
const DEBT_SUFFIXES = ['Credit', 'Lending', 'Debt Partners', 'Capital Finance', 'Venture Lending', 'Bank', 'Credit Partners'];

const GRANT_BODIES: Record<string, string[]> = {
  US: [
    'National Science Foundation',
    'National Institutes of Health',
    'U.S. Department of Energy',
    'DARPA',
    'Small Business Innovation Research (SBIR)',
    'Bill & Melinda Gates Foundation',
  ],
  GB: ['Innovate UK', 'UK Research and Innovation', 'Wellcome Trust'],
  DE: ['EXIST', 'Federal Ministry of Education and Research', 'European Innovation Council'],
  FR: ['Bpifrance', 'European Innovation Council', 'France 2030'],
  IN: ['BIRAC', 'Startup India Seed Fund Scheme', 'Department of Science and Technology'],
  CA: ['NRC IRAP', 'Sustainable Development Technology Canada', 'Mitacs'],
  IL: ['Israel Innovation Authority'],
  SG: ['Enterprise Singapore', 'National Research Foundation Singapore'],
  AU: ['CSIRO', 'Australian Research Council', 'Advance Queensland'],
  NL: ['Netherlands Enterprise Agency (RVO)', 'European Innovation Council'],
  SE: ['Vinnova', 'Swedish Energy Agency'],
  FI: ['Business Finland'],
  ES: ['CDTI', 'ENISA', 'European Innovation Council'],
  IE: ['Enterprise Ireland', 'Science Foundation Ireland'],
  CH: ['Innosuisse', 'Swiss National Science Foundation'],
  DK: ['Innovation Fund Denmark'],
  NO: ['Innovation Norway', 'Research Council of Norway'],
  AT: ['Austrian Research Promotion Agency (FFG)', 'aws Austria Wirtschaftsservice'],
  BE: ['VLAIO', 'European Innovation Council'],
  IT: ['Invitalia', 'European Innovation Council'],
  PT: ['Portugal 2030', 'European Innovation Council'],
  PL: ['National Centre for Research and Development (NCBR)'],
  JP: ['NEDO', 'Japan Science and Technology Agency'],
  KR: ['Korea Technology and Information Promotion Agency (TIPA)'],
};
const DEFAULT_GRANT_BODIES = [
  'European Innovation Council',
  'Bill & Melinda Gates Foundation',
  'Wellcome Trust',
  'Google.org',
  'Horizon Europe',
];

const ACQUIRER_SUFFIXES: Record<string, string[]> = {
  fintech: ['Financial', 'Payments', 'Financial Group'],
  healthtech: ['Health', 'Healthcare', 'Health Systems'],
  biotech: ['Pharmaceuticals', 'Biosciences', 'Life Sciences'],
  medtech: ['Medical', 'Medical Technologies', 'Healthcare'],
  insurtech: ['Insurance Group', 'Mutual', 'Assurance'],
  media: ['Media', 'Entertainment', 'Media Group'],
  logistics: ['Logistics', 'Freight Group', 'Supply Chain'],
  energy: ['Energy', 'Power', 'Utilities'],
  mobility: ['Motors', 'Automotive', 'Mobility Group'],
  'space tech': ['Aerospace', 'Defense Systems', 'Aerospace & Defense'],
  foodtech: ['Foods', 'Brands', 'Food Group'],
  agtech: ['Agriculture', 'AgriScience', 'Crop Sciences'],
  proptech: ['Realty', 'Properties', 'Real Estate Group'],
  gaming: ['Games', 'Interactive', 'Entertainment'],
  cybersecurity: ['Security', 'Cyber', 'Networks'],
  'e-commerce': ['Retail', 'Commerce', 'Stores'],
  'travel tech': ['Travel Group', 'Hospitality', 'Hotels & Resorts'],
  'construction tech': ['Construction', 'Building Group', 'Engineering'],
  hardware: ['Semiconductor', 'Electronics', 'Devices'],
  robotics: ['Automation', 'Industries', 'Robotics'],
};
const ACQUIRER_GENERIC = [
  'Technologies',
  'Systems',
  'Group',
  'Holdings',
  'Corporation',
  'Inc.',
  'Software',
  'Networks',
  'Global',
  'Solutions',
  'Industries',
  'International',
];

interface Company {
  name: string;
  namePath: string;
  category: Category;
  country: Country;
  ceo: string | null;
  info: CompanyInfo;
  headcount: HeadcountData[];
  growth: GrowthInfo;
  contact: ContactInfo;
  city: string;
  stage: Stage;
}

class Context {
  readonly rng: Rng;
  readonly faker: Faker;
  readonly nowMs: number;
  private readonly seen = new Set<string>();
  private readonly pools = namePools();
  private readonly firms: Record<'early' | 'venture' | 'growth' | 'debt', InvestorFirm[]>;

  constructor(seed: number, salt: number, now: Date) {
    this.rng = new Rng(sfc32Randomizer());
    this.faker = this.rng.faker;
    this.faker.seed([seed, salt]);
    this.nowMs = now.getTime();
    this.firms = this.buildFirms();
  }

  // ---- people ------------------------------------------------------------------------------

  private poolFor(country: Country): NamePool {
    const key = this.rng.chance(0.22) ? 'en' : country.names;
    return this.pools.get(key) ?? this.pools.get('en')!;
  }

  person(country: Country): Person {
    const pool = this.poolFor(country);
    const fi = Math.floor(this.rng.next() * pool.first.length);
    const li = Math.floor(this.rng.next() * pool.last.length);
    const first = pool.first[fi]!;
    const last = pool.last[li]!;
    return { name: `${first} ${last}`, first: pool.firstKey[fi]!, last: pool.lastKey[li]! };
  }

  personLinkedin(p: Person): string {
    return `https://www.linkedin.com/in/${p.first}-${p.last}-${this.rng.hex(this.rng.int(6, 9))}`;
  }

  phone(country: Country): string {
    let out = `+${country.dial} `;
    for (const ch of country.phone) {
      if (ch === '#') out += String.fromCharCode(48 + Math.floor(this.rng.next() * 10));
      else if (ch === 'N') out += String.fromCharCode(50 + Math.floor(this.rng.next() * 8));
      else out += ch;
    }
    return out;
  }

  // ---- dates -------------------------------------------------------------------------------

  /** A moment in the last five years, denser towards `now`; whole seconds, never in the future. */
  dateSeenMs(): number {
    const age = -RECENCY_MS * Math.log(1 - this.rng.next() * RECENCY_NORM);
    const ms = this.nowMs - Math.max(age, 1000);
    return Math.floor(ms / 1000) * 1000;
  }

  // ---- investors ---------------------------------------------------------------------------

  private buildFirms(): Record<'early' | 'venture' | 'growth' | 'debt', InvestorFirm[]> {
    const f = this.faker;
    const used = new Set<string>();
    const make = (count: number, suffixes: string[]): InvestorFirm[] => {
      const out: InvestorFirm[] = [];
      let guard = 0;
      while (out.length < count && guard++ < count * 20) {
        const r = f.number.float();
        let name: string;
        if (r < 0.3) name = `${f.person.lastName()} ${f.helpers.arrayElement(suffixes)}`;
        else if (r < 0.38) name = `${f.person.lastName()} & ${f.person.lastName()}`;
        else if (r < 0.78) name = `${f.helpers.arrayElement(INVESTOR_ROOTS)} ${f.helpers.arrayElement(suffixes)}`;
        else if (r < 0.9) name = `${cap(brandWord(this.rng))} ${f.helpers.arrayElement(suffixes)}`;
        else name = `${cap(f.helpers.arrayElement(ROOTS))} ${f.helpers.arrayElement(suffixes)}`;
        if (/[^A-Za-z0-9 &.'-]/.test(name) || used.has(name.toLowerCase())) continue;
        used.add(name.toLowerCase());
        out.push({ name, linkedin: f.datatype.boolean(0.9) ? `https://www.linkedin.com/company/${slugify(name)}` : null });
      }
      return out;
    };
    return {
      early: make(1600, EARLY_SUFFIXES),
      venture: make(1400, VENTURE_SUFFIXES),
      growth: make(500, GROWTH_SUFFIXES),
      debt: make(250, DEBT_SUFFIXES),
    };
  }

  private firm(kind: 'early' | 'venture' | 'growth' | 'debt'): Investor {
    // Mostly firms focused on the stage; some cross over from the neighbouring pool.
    let pool = this.firms[kind];
    if (kind !== 'debt' && this.rng.chance(0.2)) {
      pool = kind === 'venture' ? this.firms[this.rng.chance(0.5) ? 'early' : 'growth'] : this.firms.venture;
    }
    const firm = pool[this.rng.skewed(pool.length, 1.8)]!;
    return firm.linkedin === null ? { name: firm.name } : { name: firm.name, linkedin_url: firm.linkedin };
  }

  investors(stage: Stage, country: Country): Investor[] {
    const rng = this.rng;
    if (stage.kind === 'grant') {
      const bodies = GRANT_BODIES[country.code] ?? DEFAULT_GRANT_BODIES;
      const picked = rng.sample(bodies, rng.chance(0.85) ? 1 : 2);
      return picked.map((name) =>
        rng.chance(0.8) ? { name, linkedin_url: `https://www.linkedin.com/company/${slugify(name)}` } : { name },
      );
    }
    const count = rng.int(stage.investors[0], stage.investors[1]);
    const out: Investor[] = [];
    const names = new Set<string>();
    let guard = 0;
    while (out.length < count && guard++ < count * 6) {
      let investor: Investor;
      if (rng.chance(stage.angelShare)) {
        const p = this.person(country);
        investor = rng.chance(0.7) ? { name: p.name, linkedin_url: this.personLinkedin(p) } : { name: p.name };
      } else {
        investor = this.firm(stage.kind === 'debt' ? 'debt' : stage.kind);
      }
      if (names.has(investor.name)) continue;
      names.add(investor.name);
      out.push(investor);
    }
    // Debt rounds often sit alongside an existing equity backer.
    if (stage.kind === 'debt' && out.length === 1 && rng.chance(0.3)) out.push(this.firm('venture'));
    return out;
  }

  // ---- companies ---------------------------------------------------------------------------

  private candidateName(category: Category, country: Country, attempt: number): string {
    const rng = this.rng;
    const suffix = () => (rng.chance(0.7) ? rng.pick(category.suffixes) : rng.pick(GENERIC_SUFFIXES));
    // Later attempts switch to the patterns with the most room, so large sets stay collision-free.
    if (attempt >= 3) return rng.chance(0.4) ? cap(brandWord(rng, true)) : `${cap(brandWord(rng, true))} ${suffix()}`;
    const r = rng.next();
    if (r < 0.24) return cap(brandWord(rng));
    if (r < 0.48) return `${cap(brandWord(rng))} ${suffix()}`;
    if (r < 0.62) return compoundWord(rng);
    if (r < 0.71) return `${compoundWord(rng)} ${suffix()}`;
    if (r < 0.79) return rng.chance(0.6) ? rootWithEnding(rng) : `${rootWithEnding(rng)} ${suffix()}`;
    if (r < 0.85) return `${rng.pick(NAME_PREFIXES)}${cap(rng.pick(ROOT_NOUNS))}`;
    if (r < 0.94) return `${cap(rng.pick(ROOTS))} ${suffix()}`;
    const pool = this.pools.get(country.names) ?? this.pools.get('en')!;
    const surname = rng.pick(pool.last);
    return `${surname.split(' ').map(cap).join(' ')} ${rng.pick(category.suffixes)}`;
  }

  /** A company name whose slug has not been used in this data set yet. */
  private uniqueName(category: Category, country: Country): { name: string; base: string; namePath: string; suffixed: boolean } {
    for (let attempt = 0; attempt < 8; attempt++) {
      const base = this.candidateName(category, country, attempt);
      const name = this.rng.chance(0.05) ? `${base}${country.legal.startsWith('Inc') ? ', ' : ' '}${country.legal}` : base;
      const namePath = slugify(name);
      if (namePath === '' || this.seen.has(namePath)) continue;
      this.seen.add(namePath);
      return { name, base, namePath, suffixed: false };
    }
    const base = this.candidateName(category, country, 0);
    let namePath = `${slugify(base)}-${this.rng.hex(4)}`;
    while (this.seen.has(namePath)) namePath = `${slugify(base)}-${this.rng.hex(6)}`;
    this.seen.add(namePath);
    return { name: base, base, namePath, suffixed: true };
  }

  private domain(base: string, category: Category, country: Country, taken: boolean): string {
    const rng = this.rng;
    let label = slugify(base).replace(/-/g, '');
    if (taken) label = `${rng.pick(['get', 'try', 'use', 'join'])}${label}`;
    else if (label.length <= 4 && rng.chance(0.5)) label = `${label}${rng.pick(['hq', 'app', 'labs'])}`;
    let tld: string;
    const r = rng.next();
    if (category.tlds && r < 0.45) tld = rng.pick(category.tlds);
    else if (country.tlds.length > 0 && r < 0.7) tld = rng.pick(country.tlds);
    else tld = rng.pick(GENERIC_TLDS);
    return `${label}.${tld}`;
  }

  private categories(main: Category): string[] {
    const rng = this.rng;
    const r = rng.next();
    const extra = r < 0.35 ? 0 : r < 0.75 ? 1 : 2;
    const out = [main.key];
    for (const key of rng.sample(main.related, extra)) if (CATEGORY_BY_KEY.has(key)) out.push(key);
    return out;
  }

  private description(
    name: string,
    category: Category,
    country: Country | null,
    city: string,
    yearFounded: number | null,
    ceo: string | null,
    headcount: number,
  ): string {
    const rng = this.rng;
    const product = rng.pick(category.products);
    const adjective = rng.chance(0.55) ? `${rng.pick(category.adjectives)} ` : '';
    const audience = rng.pick(category.audiences);
    const outcome = rng.pick(category.outcomes);
    const phrase = `${adjective}${product}`;
    const a = article(phrase);
    let first: string;
    switch (Math.floor(rng.next() * 4)) {
      case 0:
        first = `${name} is ${a} ${phrase} that helps ${audience} ${outcome}.`;
        break;
      case 1:
        first = `${name} provides ${audience} with ${a} ${phrase} to ${outcome}.`;
        break;
      case 2:
        first = `${name} develops ${a} ${phrase} for ${audience}, helping them ${outcome}.`;
        break;
      default:
        first = `${name} builds ${a} ${phrase} that lets ${audience} ${outcome}.`;
    }
    const r = rng.next();
    if (r < 0.3 || country === null) return first;
    const countryLabel = countryName(country.code);
    const place = countryLabel.startsWith(city) ? countryLabel.replace(/ SAR China$/, '') : `${city}, ${countryLabel}`;
    if (r < 0.5 && yearFounded !== null) return `${first} Founded in ${yearFounded}, the company is headquartered in ${place}.`;
    if (r < 0.65 && ceo !== null && yearFounded !== null)
      return `${first} It was founded in ${yearFounded} by ${ceo} and is based in ${place}.`;
    if (r < 0.82) {
      const customers = headcount < 15 ? rng.int(2, 8) * 10 : headcount < 100 ? rng.int(1, 9) * 100 : rng.int(1, 20) * 500;
      return `${first} The company serves more than ${thousands(customers)} customers across ${rng.int(2, 40)} countries.`;
    }
    return `${first} Headquartered in ${place}, it has a team of about ${headcount < 10 ? headcount : Math.round(headcount / 10) * 10} people.`;
  }

  private headcountSeries(stage: Stage, foundedMs: number, seenMs: number): HeadcountData[] {
    const rng = this.rng;
    const endIdx = monthIndex(seenMs);
    const available = Math.max(6, Math.floor((seenMs - foundedMs) / MONTH_MS));
    const wanted = rng.chance(0.55) ? rng.int(18, 24) : rng.int(6, 17);
    const n = Math.min(wanted, Math.min(24, available));
    const target = rng.logTriangular(stage.headcount[0], stage.headcount[1]);
    const g = rng.float(stage.growth[0], stage.growth[1]);
    let h = Math.max(1, target / Math.pow(1 + g, n - 1));
    let prev = Math.max(1, Math.round(h));
    const series: HeadcountData[] = [{ date: monthIso(endIdx - n + 1), headcount: prev, growth: 0 }];
    for (let i = 1; i < n; i++) {
      let step = g + (rng.next() - 0.5) * g * 1.4;
      if (rng.chance(0.03)) step = -rng.float(0.01, 0.08);
      h = Math.max(1, h * (1 + step));
      const value = Math.max(1, Math.round(h));
      series.push({ date: monthIso(endIdx - n + 1 + i), headcount: value, growth: round4((value - prev) / prev) });
      prev = value;
    }
    return series;
  }

  private static growthInfo(series: HeadcountData[]): GrowthInfo {
    const info: GrowthInfo = {};
    const last = series[series.length - 1]!.headcount;
    const at = (k: number) => {
      const base = series[series.length - 1 - k]!.headcount;
      return round4((last - base) / base);
    };
    if (series.length > 1) info.growth_1m = at(1);
    if (series.length > 3) info.growth_3m = at(3);
    if (series.length > 6) info.growth_6m = at(6);
    if (series.length > 9) info.growth_9m = at(9);
    if (series.length > 12) info.growth_12m = at(12);
    return info;
  }

  private employees(
    stage: Stage,
    category: Category,
    country: Country,
    ceo: Person | null,
    domain: string,
    foundedIdx: number,
    seenIdx: number,
    headcount: number,
  ): Employee[] {
    const rng = this.rng;
    const r = rng.next();
    let count = r < 0.08 ? 0 : r < 0.23 ? 1 : r < 0.45 ? 2 : r < 0.7 ? 3 : r < 0.87 ? 4 : 5;
    count = Math.min(count, Math.max(1, headcount));
    const out: Employee[] = [];
    const started = (founder: boolean) =>
      monthIso(founder ? foundedIdx : foundedIdx + Math.floor(rng.next() * Math.max(1, seenIdx - foundedIdx + 1)));
    const employee = (p: Person, title: string, founder: boolean): Employee => ({
      name: p.name,
      title,
      linkedin_url: rng.chance(0.9) ? this.personLinkedin(p) : null,
      email: rng.chance(0.75) ? `${p.first}@${domain}` : null,
      phone: rng.chance(0.25) ? this.phone(country) : null,
      date_started: started(founder),
    });
    if (count === 0) return out;
    if (ceo !== null) out.push(employee(ceo, rng.pick(CEO_TITLES), true));
    const roles = stage.early ? EARLY_EXEC_ROLES : EXEC_ROLES;
    const used = new Set<string>();
    let guard = 0;
    while (out.length < count && guard++ < 20) {
      let title: string;
      let key: string;
      if (category.titles && rng.chance(0.25)) {
        title = rng.pick(category.titles);
        key = title;
      } else {
        const role = Math.floor(rng.next() * roles.length);
        title = rng.pick(roles[role]!);
        key = `role:${role}`;
      }
      if (used.has(key) || used.has(title)) continue;
      used.add(key);
      used.add(title);
      out.push(employee(this.person(country), title, /^Co-Founder/.test(title)));
    }
    return out;
  }

  company(stage: Stage, seenMs: number, extraAgeYears = 0): Company {
    const rng = this.rng;
    const category = CATEGORY_PICKER.pick(rng);
    const country = COUNTRY_PICKER.pick(rng);
    const { name, base, namePath, suffixed } = this.uniqueName(category, country);
    const domain = this.domain(base, category, country, suffixed);
    const city = rng.pick(country.cities);

    const ageYears = rng.float(stage.age[0], stage.age[1]) + extraAgeYears;
    const foundedMs = seenMs - ageYears * YEAR_MS;
    const yearFounded = new Date(foundedMs).getUTCFullYear();
    const foundedIdx = monthIndex(foundedMs);
    const seenIdx = monthIndex(seenMs);

    const headcount = this.headcountSeries(stage, foundedMs, seenMs);
    const latest = headcount[headcount.length - 1]!.headcount;
    const ceoPerson = rng.chance(0.92) ? this.person(country) : null;
    const hqKnown = rng.chance(0.97);
    const yearKnown = rng.chance(0.96);

    const catKeys = this.categories(category);
    const keywords = rng.sample(category.keywords, rng.int(3, 6));
    for (const key of catKeys.slice(1)) {
      const other = CATEGORY_BY_KEY.get(key);
      if (other && rng.chance(0.6)) {
        const kw = rng.pick(other.keywords);
        if (!keywords.includes(kw)) keywords.push(kw);
      }
    }
    const handle = slugify(base).replace(/-/g, '').slice(0, 15);

    const info: CompanyInfo = {
      name,
      description: this.description(
        name,
        category,
        hqKnown ? country : null,
        city,
        yearKnown ? yearFounded : null,
        ceoPerson?.name ?? null,
        latest,
      ),
      industry: rng.pick(category.industries),
      website: `https://www.${domain}`,
      size: sizeLabel(latest),
      logo_url: rng.chance(0.85)
        ? `https://media.licdn.com/dms/image/C4E0BAQ${rng.hex(12)}/company-logo_200_200/0/${Math.floor(seenMs / 1000) - rng.int(0, 86400 * 900)}`
        : null,
      year_founded: yearKnown ? yearFounded : null,
      hq_country: hqKnown ? countryName(country.code) : null,
      email: rng.chance(0.8) ? `${rng.pick(['info', 'hello', 'contact', 'team', 'hi'])}@${domain}` : null,
      phone: rng.chance(0.65) ? this.phone(country) : null,
      keywords,
      specialities: rng.sample(SPECIALITIES.get(category.key)!, rng.int(2, 5)),
      categories: catKeys,
      company_interested_in: rng.sample(INTERESTS, rng.int(1, 4)),
    };

    const contact: ContactInfo = {
      company_linkedin_url: `https://www.linkedin.com/company/${namePath}`,
      company_twitter_url: rng.chance(0.72) ? `https://${rng.chance(0.5) ? 'twitter.com' : 'x.com'}/${handle}` : null,
      company_facebook_url: rng.chance(0.55) ? `https://www.facebook.com/${handle}` : null,
      employees: this.employees(stage, category, country, ceoPerson, domain, foundedIdx, seenIdx, latest),
    };

    return {
      name,
      namePath,
      category,
      country,
      ceo: ceoPerson?.name ?? null,
      info,
      headcount,
      growth: Context.growthInfo(headcount),
      contact,
      city,
      stage,
    };
  }

  // ---- funding ---------------------------------------------------------------------------

  funding(): FundingRecord {
    const rng = this.rng;
    const seenMs = this.dateSeenMs();
    const stage = STAGE_PICKER.pick(rng);
    const company = this.company(stage, seenMs);
    const country = company.country;
    const currency = rng.chance(country.localShare * 0.85) ? country.currency : 'USD';
    const usd = rng.logTriangular(stage.amount[0], stage.amount[1]);
    const amount = roundAmount(rng, usd * (FX[currency] ?? 1));
    return {
      company_name: company.name,
      name_path: company.namePath,
      round_type: stage.label,
      funding_amount: amount,
      currency,
      ceo: company.ceo,
      investors: this.investors(stage, country),
      company_info: company.info,
      historical_headcount: company.headcount,
      growth_info: company.growth,
      contact_info: [company.contact],
      main_category: company.category.key,
      date_seen: new Date(seenMs).toISOString(),
    };
  }

  // ---- M&A -------------------------------------------------------------------------------

  buildAcquirers(count: number): { all: Acquirer[]; byCategory: Map<string, Acquirer[]> } {
    const f = this.faker;
    const rng = this.rng;
    const used = new Set<string>();
    const all: Acquirer[] = [];
    let guard = 0;
    while (all.length < count && guard++ < count * 30) {
      const category = CATEGORY_PICKER.pick(rng);
      const suffixes = ACQUIRER_SUFFIXES[category.key];
      const suffix =
        suffixes && f.datatype.boolean(0.5) ? f.helpers.arrayElement(suffixes) : f.helpers.arrayElement(ACQUIRER_GENERIC);
      const r = f.number.float();
      let name: string;
      if (r < 0.25) name = `${f.person.lastName()} ${suffix}`;
      else if (r < 0.45) name = `${cap(brandWord(rng))} ${suffix}`;
      else if (r < 0.62) name = `${f.helpers.arrayElement(INVESTOR_ROOTS)} ${suffix}`;
      else if (r < 0.75) name = `${compoundWord(rng)} ${suffix}`;
      else if (r < 0.85) name = f.company.name();
      else if (r < 0.93) name = `${cap(brandWord(rng))}`;
      else name = `${f.person.lastName()} & ${f.person.lastName()}`;
      if (/[^A-Za-z0-9 &.,'-]/.test(name) || / - /.test(name)) continue;
      const namePath = slugify(name);
      if (used.has(namePath)) continue;
      used.add(namePath);
      // Acquirers keep their names to themselves: no acquired company gets the same slug.
      this.seen.add(namePath);

      const country = ACQUIRER_COUNTRY_PICKER.pick(rng);
      const sizeRoll = rng.next();
      const size = sizeRoll < 0.06 ? '501-1000' : sizeRoll < 0.45 ? '1001-5000' : sizeRoll < 0.68 ? '5001-10000' : '10001+';
      const yearFounded = rng.chance(0.3) ? rng.int(1890, 1979) : rng.int(1980, 2014);
      const domainLabel = namePath.replace(/-(inc|corporation|group|holdings|international|global)$/, '').replace(/-/g, '');
      const tld = country.code === 'US' || rng.chance(0.6) ? 'com' : rng.pick(country.tlds.length > 0 ? country.tlds : ['com']);
      const domain = `${domainLabel}.${tld}`;
      const audience = rng.pick(category.audiences);
      const markets = rng.int(12, 150);
      const focus = rng.sample(category.keywords, 3).map(prose);
      const description =
        `${name} is a global ${category.display} company serving ${audience} in more than ${markets} countries, ` +
        `with offerings spanning ${focus[0]}, ${focus[1]} and ${focus[2]}.` +
        (rng.chance(0.6)
          ? ` Founded in ${yearFounded}, it is headquartered in ${rng.pick(country.cities)}, ${countryName(country.code)}.`
          : '');
      const catKeys = [category.key, ...rng.sample(category.related, rng.int(1, 3))];
      const info: CompanyInfo = {
        name,
        description,
        industry: rng.pick(category.industries),
        website: `https://www.${domain}`,
        size,
        logo_url: rng.chance(0.95)
          ? `https://media.licdn.com/dms/image/C4D0BAQ${rng.hex(12)}/company-logo_200_200/0/${1_500_000_000 + rng.int(0, 200_000_000)}`
          : null,
        year_founded: yearFounded,
        hq_country: countryName(country.code),
        email: rng.chance(0.7) ? `${rng.pick(['info', 'contact', 'press', 'media', 'investors'])}@${domain}` : null,
        phone: rng.chance(0.85) ? this.phone(country) : null,
        keywords: rng.sample(category.keywords, rng.int(4, 8)),
        specialities: rng.sample(SPECIALITIES.get(category.key)!, rng.int(3, 7)),
        categories: catKeys.filter((k) => CATEGORY_BY_KEY.has(k)),
        company_interested_in: rng.sample(ACQUIRER_INTERESTS, rng.int(2, 5)),
      };
      all.push({ name, linkedin: `https://www.linkedin.com/company/${namePath}`, category, info });
    }
    const byCategory = new Map<string, Acquirer[]>();
    for (const acquirer of all) {
      const list = byCategory.get(acquirer.category.key) ?? [];
      list.push(acquirer);
      byCategory.set(acquirer.category.key, list);
    }
    return { all, byCategory };
  }
}

function copyInfo(info: CompanyInfo): CompanyInfo {
  return {
    ...info,
    keywords: info.keywords?.slice(),
    specialities: info.specialities?.slice(),
    categories: info.categories?.slice(),
    company_interested_in: info.company_interested_in?.slice(),
  };
}

function money(usd: number): string {
  const trim = (value: number, digits: number) => String(Number(value.toFixed(digits)));
  if (usd >= 1e9) return `$${trim(usd / 1e9, 1)} billion`;
  return `$${trim(usd / 1e6, usd < 1e7 ? 1 : 0)} million`;
}

function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/** `count` funding rounds, lazily; deterministic in (seed, count, now). */
export function* generateFundingRecords(seed: number, count: number, now: Date): Generator<FundingRecord> {
  const ctx = new Context(seed, 0x46554e44, now);
  for (let i = 0; i < count; i++) yield ctx.funding();
}

/** `count` M&A deals with their status, lazily; deterministic in (seed, count, now). */
export function* generateMaRecords(seed: number, count: number, now: Date): Generator<{ record: MaRecord; status: DealStatus }> {
  const ctx = new Context(seed, 0x4d414e44, now);
  const rng = ctx.rng;
  const { all, byCategory } = ctx.buildAcquirers(300);

  for (let i = 0; i < count; i++) {
    const seenMs = ctx.dateSeenMs();
    const stage = ACQUIRED_STAGE_PICKER.pick(rng);
    const company = ctx.company(stage, seenMs, 1.5);
    const sameCategory = byCategory.get(company.category.key);
    const pool = sameCategory && sameCategory.length > 0 && rng.chance(0.55) ? sameCategory : all;
    const acquirer = pool[rng.skewed(pool.length, 1.8)]!;

    // Recent deals are more often still open; older ones have mostly closed.
    const ageDays = (ctx.nowMs - seenMs) / DAY_MS;
    const open = 0.15 + 0.65 * Math.exp(-ageDays / 365);
    const roll = rng.next();
    const status: DealStatus = roll < open * 0.57 ? 'announced' : roll < open ? 'pending' : 'completed';

    const latest = company.headcount[company.headcount.length - 1]!.headcount;
    const perEmployee = Math.exp(Math.log(250_000) + rng.quickNormal() * 1.3);
    let value = latest * perEmployee;
    if (value < 1_000_000) value = rng.logTriangular(1_000_000, 4_000_000);
    else if (value > 5_000_000_000) value = rng.logTriangular(1_500_000_000, 5_000_000_000);
    const amount = Math.min(5_000_000_000, Math.max(1_000_000, roundAmount(rng, value)));
    let percentage = 100;
    if (rng.chance(0.14)) {
      const r = rng.next();
      percentage = r < 0.4 ? rng.int(51, 99) : r < 0.7 ? rng.int(51, 98) + 0.5 : Math.round(rng.float(51, 99) * 10) / 10;
    }

    const capability = prose(rng.pick(company.category.keywords));
    const target = company.name;
    const buyer = acquirer.name;
    const stake = percentage === 100 ? target : `${article(String(percentage))} ${percentage}% stake in ${target}`;
    const located = company.info.hq_country
      ? `${article(company.city)} ${company.city}-based`
      : article(company.category.display);
    const kind = `${located} ${company.category.display} company`;
    let description: string;
    const variant = Math.floor(rng.next() * 3);
    if (status === 'completed') {
      description =
        variant === 0
          ? `${buyer} acquired ${stake} to expand its ${capability} capabilities.`
          : variant === 1
            ? `${buyer} acquired ${stake}, ${kind}, to strengthen its ${capability} offering.`
            : `${buyer} completed its acquisition of ${stake} to accelerate growth in ${capability}.`;
    } else if (status === 'announced') {
      description =
        variant === 0
          ? `${buyer} announced an agreement to acquire ${stake} to expand its ${capability} capabilities.`
          : variant === 1
            ? `${buyer} announced it will acquire ${stake}, ${kind}, to broaden its ${capability} portfolio.`
            : `${buyer} announced plans to acquire ${stake} to accelerate growth in ${capability}.`;
    } else {
      description =
        variant === 0
          ? `${buyer} agreed to acquire ${stake} to expand its ${capability} capabilities; the deal is pending regulatory approval.`
          : variant === 1
            ? `${buyer} entered into a definitive agreement to acquire ${stake}, ${kind}, subject to customary closing conditions.`
            : `${buyer} agreed to acquire ${stake} to strengthen its ${capability} offering; closing is expected in the coming months.`;
    }
    if (rng.chance(0.45)) {
      description +=
        percentage === 100
          ? ` The transaction values ${target} at approximately ${money(amount)}.`
          : ` The transaction is valued at approximately ${money(amount)}.`;
    }

    const record: MaRecord = {
      investment_id: ctx.faker.string.uuid(),
      company_name: company.name,
      acquired_by: acquirer.name,
      acquired_by_linkedin_url: acquirer.linkedin,
      acquired_by_company_info: copyInfo(acquirer.info),
      name_path: company.namePath,
      description,
      acquisition_amount: amount,
      acquisition_percentage: percentage,
      main_category: company.category.key,
      company_info: company.info,
      historical_headcount: company.headcount,
      growth_info: company.growth,
      contact_info: [company.contact],
      date_seen: new Date(seenMs).toISOString(),
    };
    yield { record, status };
  }
}
