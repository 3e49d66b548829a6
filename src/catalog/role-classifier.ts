// Role classification for job-change signals: turns the free-text `newRole` of a job change
// ("Co-Founder & CEO", "Sr. PM", "VP, Eng @ Acme") into the position / departments / seniority
// values the v2 API filters on. It runs once per record at write time, so it must be fast and
// deterministic; the rules live in the data tables below and the functions only walk them.
//
// Pipeline (see `tokenise`):
//   1. Unicode-normalise (strip accents), lower case, drop the employer part ("@ Acme", " at Acme").
//   2. Expand symbol abbreviations (FP&A, R&D) and dotted acronyms (V.P., C.E.O.); every other
//      punctuation mark ("&", "/", ",", "-", "|", "(", ...) becomes a word break, "&" and "+" become "and".
//   3. Rewrite single words (TOKEN_REWRITES: "sr" -> "senior", "mgr" -> "manager", "cmo" -> "cxo marketing").
//   4. Fuse multi-word phrases into one canonical word (PHRASES: "vice president" -> "vp",
//      "chief executive officer" -> "ceo", "customer success" -> "customersuccess"), then turn any
//      remaining "chief <function> officer" into "cxo <function>".
//   5. Drop "to the CEO" style complements ("Executive Assistant to the CEO" is not a CEO).
// The resulting words are then looked up in three tables: departments (any word, union of all),
// seniority (the highest tier present) and position (see `classifyTokens` for the precedence).
//
// Supported non-English forms (cheap, exact words only): Directeur/Directrice Général(e), Director(a)
// General, Director Ejecutivo, Consejero Delegado, Geschäftsführer(in), PDG -> ceo; Directeur Technique,
// Director Técnico -> cto; Directeur Financier, Director Financiero, DAF -> cfo; Fundador(a), Fondateur,
// Fondatrice, Gründer(in), Fondatore, Oprichter (and their co- forms, Mitgründer, Medeoprichter) ->
// founder / co-founder; Directeur, Directora, Direktor(in), Direttore -> director; Gerente -> manager;
// Jefe/Jefa, Leiter(in) -> head; Vicepresidente -> vp; Presidente/Président -> president; a few
// department words (ventas, ventes, vertrieb, ingeniero, producto, finanzas, recursos humanos, ...).
//
// Results are memoised per title and shared between calls, so they are frozen: copy before mutating.

export const POSITIONS = [
  'ceo',
  'cto',
  'cfo',
  'coo',
  'vp of engineering',
  'vp of sales',
  'vp of marketing',
  'head of product',
  'head of growth',
  'head of engineering',
  'engineering manager',
  'product manager',
  'sales manager',
  'marketing manager',
  'founder',
  'co-founder',
] as const;

export const DEPARTMENTS = [
  'marketing',
  'sales',
  'engineering',
  'product',
  'design',
  'operations',
  'finance',
  'people',
  'data',
  'customer_success',
  'growth',
  'legal',
] as const;

/** Listed from the most to the least senior; a title with several tiers gets the first one present. */
export const SENIORITIES = ['founder', 'c_level', 'vp', 'director', 'head', 'lead', 'manager'] as const;

export type Position = (typeof POSITIONS)[number];
export type Department = (typeof DEPARTMENTS)[number];
export type Seniority = (typeof SENIORITIES)[number];

export interface RoleClassification {
  position: Position | null;
  departments: Department[];
  seniority: Seniority | null;
}

// ---------------------------------------------------------------------------------------------
// Tables. Every key is a word as it looks after steps 1-4 of the pipeline (lower case, ASCII).
// ---------------------------------------------------------------------------------------------

/**
 * Single-word rewrites (step 3). Values may be several words; they then take part in the phrase
 * fusion of step 4, which is why e.g. "csm" expands to words instead of a finished token.
 */
const TOKEN_REWRITES: Readonly<Record<string, string>> = {
  // Seniority modifiers. They carry no tier of their own ("Senior Engineer" is an individual
  // contributor) but are spelled out so that phrases and tests read naturally.
  sr: 'senior',
  snr: 'senior',
  jr: 'junior',
  jnr: 'junior',
  asst: 'assistant',
  assoc: 'associate',
  exec: 'executive',
  intl: 'international',
  // Vice presidents: every flavour (senior, executive, assistant, regional, group) is the vp tier.
  vps: 'vp',
  svp: 'vp',
  evp: 'vp',
  avp: 'vp',
  rvp: 'vp',
  gvp: 'vp',
  vicepresident: 'vp',
  vicepresidente: 'vp',
  vizeprasident: 'vp',
  pres: 'president',
  presidente: 'president',
  presidenta: 'president',
  prasident: 'president',
  // Directors, managers, heads (including the supported non-English words).
  dir: 'director',
  directeur: 'director',
  directrice: 'director',
  directora: 'director',
  direktor: 'director',
  direktorin: 'director',
  direttore: 'director',
  direttrice: 'director',
  mgr: 'manager',
  mgrs: 'manager',
  mngr: 'manager',
  gerente: 'manager',
  mgmt: 'management',
  jefe: 'head',
  jefa: 'head',
  leiter: 'head',
  leiterin: 'head',
  teamlead: 'team lead',
  techlead: 'tech lead',
  // Functions.
  eng: 'engineering',
  engg: 'engineering',
  engr: 'engineering',
  engin: 'engineering',
  swe: 'software engineer',
  sde: 'software development engineer',
  sdm: 'software development manager',
  sw: 'software',
  hw: 'hardware',
  dev: 'developer',
  devs: 'developers',
  it: 'infotech', // "it" as a pronoun practically never occurs in a job title; "IT Manager" does
  mktg: 'marketing',
  mkt: 'marketing',
  mktng: 'marketing',
  mkting: 'marketing',
  ops: 'operations',
  revops: 'revenue operations',
  bizops: 'business operations',
  salesops: 'sales operations',
  peopleops: 'people',
  biz: 'business',
  bd: 'business development',
  bdm: 'business development manager',
  bdr: 'business development representative',
  sdr: 'sales development representative',
  ae: 'account executive',
  acct: 'account',
  acctg: 'accounting',
  cust: 'customer',
  cs: 'customer success',
  csm: 'customer success manager',
  cx: 'customer experience',
  rh: 'hr',
  rrhh: 'hr',
  hrbp: 'hr business partner',
  // Product abbreviations. Bare "pm" is handled in `tokenise` because it needs context.
  tpm: 'technical program manager',
  apm: 'associate product manager',
  gpm: 'group product manager',
  spm: 'senior product manager',
  pmm: 'product marketing manager',
  po: 'product owner',
  // C-level acronyms that are not allowed positions become the generic "cxo" marker plus their
  // function, so they get the c_level tier and a department but never a position.
  // Bare "CPO" is read as Chief Product Officer (the far more common meaning in tech companies);
  // bare "CIO" as Chief Information Officer; "CRO" as Chief Revenue Officer. CCO, CSO, CBO, CAO are
  // ambiguous (commercial/customer/communications, security/strategy/sales, ...): tier only.
  cmo: 'cxo marketing',
  cro: 'cxo revenue',
  cpo: 'cxo product',
  cio: 'cxo infotech',
  ciso: 'cxo infosec',
  cdo: 'cxo data',
  cdao: 'cxo data',
  caio: 'cxo ai',
  chro: 'cxo hr',
  clo: 'cxo legal',
  cgo: 'cxo growth',
  cco: 'cxo',
  cso: 'cxo',
  cbo: 'cxo',
  cao: 'cxo',
  geschaftsfuhrer: 'ceo',
  geschaftsfuhrerin: 'ceo',
  geschaeftsfuehrer: 'ceo',
  geschaeftsfuehrerin: 'ceo',
  pdg: 'ceo',
  daf: 'cfo',
  // Founders.
  founders: 'founder',
  cofounders: 'cofounder',
  fundador: 'founder',
  fundadora: 'founder',
  fondateur: 'founder',
  fondatrice: 'founder',
  fondatore: 'founder',
  grunder: 'founder',
  grunderin: 'founder',
  gruender: 'founder',
  gruenderin: 'founder',
  oprichter: 'founder',
  cofundador: 'cofounder',
  cofundadora: 'cofounder',
  cofondateur: 'cofounder',
  cofondatrice: 'cofounder',
  cofondatore: 'cofounder',
  mitgrunder: 'cofounder',
  mitgrunderin: 'cofounder',
  mitgruender: 'cofounder',
  mitgruenderin: 'cofounder',
  medeoprichter: 'cofounder',
  // Board seats are not operating roles.
  ned: 'board',
  nonexecutive: 'non executive',
  // Conjunctions, so that "Ventas y Marketing" coordinates like "Sales and Marketing".
  et: 'and',
  und: 'and',
  y: 'and',
};

/**
 * Multi-word phrases fused into one word (step 4). Longest phrases are tried first. A value may
 * keep an anchor word: "account manager" -> "accountmgmt manager" still carries the manager tier.
 */
const PHRASES: Readonly<Record<string, string>> = {
  // Executive titles spelled out.
  'vice president': 'vp',
  'vice presidents': 'vp',
  'co founder': 'cofounder',
  'chief executive officer': 'ceo',
  'chief executive': 'ceo', // British usage: "Chief Executive" is the CEO
  'chief technology officer': 'cto',
  'chief technical officer': 'cto',
  'chief tech officer': 'cto',
  'chief financial officer': 'cfo',
  'chief finance officer': 'cfo',
  'chief operating officer': 'coo',
  'chief operations officer': 'coo',
  'chief operational officer': 'coo',
  'chief information officer': 'cxo infotech',
  'chief information security officer': 'cxo infosec',
  'chief of staff': 'chiefofstaff', // not an officer; an operations role without a tier
  // "Managing Director" is the top executive of a company or unit in most markets (GmbH, Ltd,
  // investment banks): c_level tier, but not the "ceo" position, which needs the word CEO.
  'managing director': 'managingdirector',
  'managing directors': 'managingdirector',
  'general manager': 'gm',
  'gen manager': 'gm',
  // Non-English executive titles ("directeur", "directora" are already "director" here).
  'director general': 'ceo',
  'director generale': 'ceo',
  'director ejecutivo': 'ceo',
  'director ejecutiva': 'ceo',
  'consejero delegado': 'ceo',
  'consejera delegada': 'ceo',
  'director technique': 'cto',
  'director tecnico': 'cto',
  'director financier': 'cfo',
  'director financiero': 'cfo',
  'director financiera': 'cfo',
  // Board seats: "director" here is a board seat, not the director tier.
  'non executive director': 'board',
  'non executive directors': 'board',
  'independent director': 'board',
  'board director': 'board',
  'board member': 'board',
  'board members': 'board',
  'member of the board': 'board',
  'member of the board of directors': 'board',
  'board of directors': 'board',
  'director of the board': 'board',
  'chairman of the board': 'board',
  'advisory board': 'board',
  'board of advisors': 'board',
  // "Founder's Associate" works for the founders; it is not a founder.
  'founder s associate': 'associate',
  'founder associate': 'associate',
  // Customer success family.
  'customer success': 'customersuccess',
  'client success': 'customersuccess',
  'customer experience': 'customerexperience',
  'customer service': 'customerservice',
  'customer services': 'customerservice',
  'client service': 'customerservice',
  'client services': 'customerservice',
  'customer support': 'customersupport',
  'customer care': 'customercare',
  'account management': 'accountmgmt',
  'account manager': 'accountmgmt manager',
  'account managers': 'accountmgmt manager',
  // Sales family. Sales / solutions engineers are pre-sales roles in the sales organisation.
  'account executive': 'accountexecutive',
  'account executives': 'accountexecutive',
  'sales engineer': 'presales',
  'sales engineers': 'presales',
  'sales engineering': 'presales',
  'solutions engineer': 'presales',
  'solution engineer': 'presales',
  'solutions engineering': 'presales',
  'pre sales': 'presales',
  'business development': 'bizdev',
  'business developer': 'bizdev',
  'business developers': 'bizdev',
  // Data family.
  'business intelligence': 'bi',
  'machine learning': 'ml',
  'deep learning': 'ml',
  'computer vision': 'ml',
  'artificial intelligence': 'ai',
  // Design family. Product designers and product marketers sit in design and marketing
  // respectively, so "product" there is a qualifier, not the product department.
  'user experience': 'ux',
  'user interface': 'ui',
  'product design': 'design',
  'product designer': 'designer',
  'product designers': 'designer',
  'product marketing': 'marketing',
  'product marketer': 'marketer',
  // Marketing / growth family.
  'public relations': 'pr',
  'demand generation': 'demandgen',
  'demand gen': 'demandgen',
  'lead generation': 'leadgen', // "Lead Generation Specialist" is not the lead tier
  'lead gen': 'leadgen',
  'social media': 'socialmedia',
  'go to market': 'gtm',
  'user acquisition': 'growth',
  // Operations / people / finance / engineering phrases.
  'supply chain': 'supplychain',
  'people operations': 'people', // People Ops is the HR function, not operations
  'human resources': 'hr',
  'recursos humanos': 'hr',
  'ressources humaines': 'hr',
  'learning and development': 'lnd',
  'investor relations': 'investorrelations',
  'information technology': 'infotech',
  'information security': 'infosec',
  'site reliability': 'sre',
  'quality assurance': 'qa',
  'front end': 'frontend',
  'back end': 'backend',
  'full stack': 'fullstack',
  'developer operations': 'devops',
  'research and development': 'rnd',
  'software development': 'software',
};

/** Department keywords, matched as whole words after normalisation (so "ai" never matches "chair"). */
// prettier-ignore
const DEPARTMENT_WORDS: Readonly<Record<Department, readonly string[]>> = {
  marketing: [
    'marketing', 'marketer', 'marketers', 'mercadeo', 'brand', 'branding', 'content', 'communications',
    'communication', 'comms', 'pr', 'demandgen', 'leadgen', 'seo', 'sem', 'ppc', 'socialmedia',
    'copywriter', 'copywriting', 'advertising',
  ],
  sales: [
    'sales', 'ventas', 'ventes', 'vertrieb', 'vendas', 'vendite', 'commercial', 'comercial', 'revenue',
    'bizdev', 'presales', 'accountexecutive', 'partnerships', 'partnership', 'alliances',
  ],
  engineering: [
    'engineering', 'engineer', 'engineers', 'software', 'developer', 'developers', 'programmer',
    'programmers', 'backend', 'frontend', 'fullstack', 'devops', 'devsecops', 'secops', 'infrastructure',
    'infra', 'platform', 'sre', 'qa', 'security', 'cybersecurity', 'infosec', 'appsec', 'infotech',
    'firmware', 'embedded', 'hardware', 'ios', 'android', 'cloud', 'architect', 'architects',
    'technology', 'technologies', 'tech', 'rnd', 'ingeniero', 'ingeniera', 'ingenieur', 'ingenieurin',
    'ingenieria', 'ingenierie', 'ingegnere', 'ingegneria', 'cto',
  ],
  product: ['product', 'products', 'producto', 'productos', 'produit', 'produits', 'produkt'],
  design: [
    'design', 'designer', 'designers', 'ux', 'ui', 'creative', 'graphic', 'graphics', 'illustrator',
    'visual', 'art', 'diseno', 'disenador', 'disenadora',
  ],
  operations: [
    'operations', 'operation', 'operational', 'operaciones', 'logistics', 'procurement', 'purchasing',
    'facilities', 'fulfillment', 'fulfilment', 'supplychain', 'warehouse', 'manufacturing', 'chiefofstaff',
    'office', 'coo',
  ],
  finance: [
    'finance', 'financial', 'finances', 'finanzas', 'finanzen', 'financiero', 'accounting', 'accountant',
    'accountants', 'controller', 'comptroller', 'controlling', 'treasury', 'treasurer', 'fpa', 'tax',
    'audit', 'auditor', 'bookkeeper', 'bookkeeping', 'payroll', 'billing', 'investorrelations', 'cfo',
  ],
  people: [
    'people', 'hr', 'talent', 'recruiting', 'recruiter', 'recruiters', 'recruitment', 'lnd',
    'compensation',
  ],
  data: ['data', 'analytics', 'bi', 'ml', 'ai', 'mlops', 'nlp', 'llm', 'statistician', 'statistics'],
  customer_success: [
    'customersuccess', 'customerexperience', 'customerservice', 'customersupport', 'customercare',
    'support', 'customer', 'customers', 'accountmgmt', 'helpdesk',
  ],
  growth: ['growth'],
  legal: [
    'legal', 'counsel', 'attorney', 'attorneys', 'lawyer', 'lawyers', 'compliance', 'paralegal',
    'solicitor', 'barrister', 'privacy', 'regulatory', 'juridique', 'abogado', 'abogada',
  ],
};

/**
 * Words that name a function itself (not a specialty within it), the only ones that can make a
 * "VP of X" / "Head of X" / "X Manager" position: "Head of Platform" is an engineering head but
 * not "head of engineering"; "Brand Manager" is in marketing but is not "marketing manager".
 */
const CORE_FUNCTION_WORDS: Readonly<Partial<Record<Department, readonly string[]>>> = {
  engineering: ['engineering', 'software', 'technology', 'tech', 'rnd', 'ingenieria', 'ingenierie'],
  sales: ['sales', 'ventas', 'ventes', 'vertrieb', 'vendas', 'vendite', 'commercial', 'comercial'],
  marketing: ['marketing', 'mercadeo'],
  product: ['product', 'products', 'producto', 'productos', 'produit', 'produits', 'produkt'],
  growth: ['growth'],
};

/** Seniority words by tier (index into SENIORITIES). "staff" is conditional, see `isStaffLead`. */
const SENIORITY_WORDS: Readonly<Record<Seniority, readonly string[]>> = {
  founder: ['founder', 'cofounder'],
  // "cxo" stands for every other chief officer; a (non-vice) president runs the company.
  c_level: ['ceo', 'cto', 'cfo', 'coo', 'cxo', 'president', 'managingdirector'],
  vp: ['vp'],
  director: ['director', 'directors'],
  // A general manager runs a unit or market; the contract has no GM tier and "head" is the closest.
  head: ['head', 'heads', 'gm'],
  // Principal, and a "chief" that is not an officer (Chief Architect), top the IC ladder: lead.
  lead: ['lead', 'leads', 'leader', 'leaders', 'principal', 'chief'],
  manager: ['manager', 'managers', 'supervisor'],
};

/** "Staff Engineer" / "Staff Data Scientist" are tech-ladder leads; "Staff Accountant" is junior. */
const STAFF_LEAD_DEPARTMENTS: readonly Department[] = ['engineering', 'data', 'design', 'product'];

/** Function words skipped between an anchor and its function: "Head of", "Jefe de", "VP for". */
// prettier-ignore
const FILLERS = new Set([
  'of', 'for', 'the', 'de', 'del', 'des', 'du', 'da', 'do', 'la', 'le', 'der', 'die', 'das', 'di', 'dei', 'della',
]);

/** Words that, right before an executive acronym, make it a different job: "Deputy CEO". */
const DEPUTY_WORDS = new Set(['deputy', 'vice', 'assistant', 'associate', 'adjoint', 'adjunto', 'stellvertretender']);

/**
 * Position precedence, lower tier wins; within a tier the first mentioned wins.
 *  0 ceo              - the top operating role of the company.
 *  1 cto / cfo / coo  - the other executive positions.
 *  2 vp of X, 3 head of X, 4 X manager - by seniority of the functional role.
 *  5 founder / co-founder - only when no functional position was found: "Co-Founder & CEO" is
 *    position ceo, and the founder fact is kept in seniority (founder outranks c_level there).
 */
const EXEC_POSITIONS: ReadonlyMap<string, { position: Position; tier: number }> = new Map([
  ['ceo', { position: 'ceo', tier: 0 }],
  ['cto', { position: 'cto', tier: 1 }],
  ['cfo', { position: 'cfo', tier: 1 }],
  ['coo', { position: 'coo', tier: 1 }],
  ['cofounder', { position: 'co-founder', tier: 5 }],
  ['founder', { position: 'founder', tier: 5 }],
]);

type FunctionalAnchor = 'vp' | 'head' | 'manager';
/** Function (department) -> position for one kind of anchor. */
type FunctionTable = Partial<Record<Department, Position>>;

/** Functional positions: anchor word + function. Other combinations ("VP of Product") have none. */
const FUNCTIONAL_POSITIONS: Readonly<Record<FunctionalAnchor, { tier: number; byFunction: FunctionTable }>> = {
  vp: { tier: 2, byFunction: { engineering: 'vp of engineering', sales: 'vp of sales', marketing: 'vp of marketing' } },
  head: { tier: 3, byFunction: { product: 'head of product', growth: 'head of growth', engineering: 'head of engineering' } },
  manager: {
    tier: 4,
    byFunction: {
      engineering: 'engineering manager',
      product: 'product manager',
      sales: 'sales manager',
      marketing: 'marketing manager',
    },
  },
};

const FUNCTIONAL_ANCHORS: ReadonlyMap<string, FunctionalAnchor> = new Map([
  ['vp', 'vp'],
  ['head', 'head'],
  ['heads', 'head'],
  ['manager', 'manager'],
  ['managers', 'manager'],
]);

/** Words after which a "to the ..." complement describes someone else's role. */
// prettier-ignore
const COMPLEMENT_ROLES = [
  'ceo', 'cto', 'cfo', 'coo', 'cxo', 'president', 'founder', 'cofounder', 'vp', 'managingdirector', 'gm', 'board',
  'chairman', 'chair', 'chief', 'executive', 'executives', 'leadership',
];

// ---------------------------------------------------------------------------------------------
// Compiled forms of the tables (built once at module load).
// ---------------------------------------------------------------------------------------------

const TOKEN_REWRITE_MAP: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(TOKEN_REWRITES).map(([word, replacement]) => [word, replacement.split(' ')]),
);

interface PhraseRule {
  words: readonly string[];
  replacement: readonly string[];
}
/** Phrase rules indexed by their first word, longest first, so "chief executive officer" beats "chief executive". */
const PHRASES_BY_FIRST_WORD = new Map<string, PhraseRule[]>();
for (const [phrase, replacement] of Object.entries(PHRASES)) {
  const words = phrase.split(' ');
  const rules = PHRASES_BY_FIRST_WORD.get(words[0]!) ?? [];
  rules.push({ words, replacement: replacement.split(' ') });
  rules.sort((a, b) => b.words.length - a.words.length);
  PHRASES_BY_FIRST_WORD.set(words[0]!, rules);
}

/** "Chief <up to four words> Officer" that no phrase rule took becomes "cxo <those words>". */
const CHIEF_OFFICER_MAX_WORDS = 4;
const COMPLEMENT_ROLE_SET: ReadonlySet<string> = new Set(COMPLEMENT_ROLES);
/** "PM" means project manager when the title says so ("Construction PM", "Project PM"). */
// prettier-ignore
const PROJECT_CONTEXT_WORDS: ReadonlySet<string> = new Set([
  'project', 'projects', 'program', 'programs', 'programme', 'construction', 'site', 'delivery',
]);
const PRODUCT_MANAGER: readonly string[] = ['product', 'manager'];
const PROJECT_MANAGER: readonly string[] = ['project', 'manager'];

// eslint-disable-next-line no-control-regex -- the ASCII range is the point
const NON_ASCII_RE = /[^\x00-\x7f]/;
const COMBINING_MARKS_RE = /[\u0300-\u036f]/g;
/** Employer part: "@ Acme", " at Acme", " chez Acme", " bei Acme", up to the next list separator. */
const EMPLOYER_RE = /(?:@|\s(?:at|chez|bei)\s)[^,/|;()[\]]*/g;
/** Ampersand abbreviations that must survive "&" becoming "and". */
const AMPERSAND_ABBR_RE = /\b(fp|r|l|m|p)\s?&\s?(a|d|l)\b/g;
const AMPERSAND_ABBR: ReadonlyMap<string, string> = new Map([
  ['fpa', 'fpa'],
  ['rd', 'rnd'],
  ['ld', 'lnd'],
  ['ma', 'mna'],
  ['pl', 'pnl'],
]);
/** Dotted acronyms: "v.p.", "c.e.o", "s.v.p." lose their dots before punctuation becomes spaces. */
const DOTTED_ACRONYM_RE = /(?<![a-z0-9])(?:[a-z]\.)+[a-z]\.?(?![a-z0-9])/g;
const DOT_RE = /\./g;
const AND_SYMBOL_RE = /[&+]/g;
const NON_WORD_RE = /[^a-z0-9]+/;

const DEPARTMENT_MASKS = new Map<string, number>();
DEPARTMENTS.forEach((department, index) => {
  for (const word of DEPARTMENT_WORDS[department]) {
    DEPARTMENT_MASKS.set(word, (DEPARTMENT_MASKS.get(word) ?? 0) | (1 << index));
  }
});

const CORE_FUNCTIONS = new Map<string, Department>();
for (const [department, words] of Object.entries(CORE_FUNCTION_WORDS) as [Department, readonly string[]][]) {
  for (const word of words) CORE_FUNCTIONS.set(word, department);
}

const SENIORITY_RANKS = new Map<string, number>();
SENIORITIES.forEach((seniority, rank) => {
  for (const word of SENIORITY_WORDS[seniority]) SENIORITY_RANKS.set(word, rank);
});
const LEAD_RANK = SENIORITIES.indexOf('lead');
const STAFF_LEAD_MASK = STAFF_LEAD_DEPARTMENTS.reduce((mask, d) => mask | (1 << DEPARTMENTS.indexOf(d)), 0);

/** Role words end a function phrase: in "VP Sales and Head of Product" the VP's function is sales only. */
function isRoleWord(word: string): boolean {
  return SENIORITY_RANKS.has(word) || word === 'board';
}

/** A word that names a department and is not itself a role ("cto" names engineering but is a role). */
function isFunctionWord(word: string | undefined): word is string {
  return word !== undefined && DEPARTMENT_MASKS.has(word) && !isRoleWord(word);
}

// ---------------------------------------------------------------------------------------------
// Normalisation.
// ---------------------------------------------------------------------------------------------

const MAX_TITLE_LENGTH = 200;

function rewriteAmpersand(match: string, left: string, right: string): string {
  const abbreviation = AMPERSAND_ABBR.get(left + right);
  return abbreviation === undefined ? match : ` ${abbreviation} `;
}

function undot(match: string): string {
  return match.replace(DOT_RE, '');
}

/** Steps 1-2: plain lower-case ASCII words. */
function splitWords(title: string): string[] {
  let text = title.length > MAX_TITLE_LENGTH ? title.slice(0, MAX_TITLE_LENGTH) : title;
  if (NON_ASCII_RE.test(text)) text = text.normalize('NFKD').replace(COMBINING_MARKS_RE, '').replace(/ß/g, 'ss');
  text = text.toLowerCase();
  if (text.includes('@') || text.includes(' at ') || text.includes(' chez ') || text.includes(' bei ')) {
    text = text.replace(EMPLOYER_RE, ' ');
  }
  if (text.includes('&')) text = text.replace(AMPERSAND_ABBR_RE, rewriteAmpersand);
  if (text.includes('.')) text = text.replace(DOTTED_ACRONYM_RE, undot);
  return text.replace(AND_SYMBOL_RE, ' and ').split(NON_WORD_RE);
}

function expandPm(words: readonly string[]): readonly string[] {
  return words.some((word) => PROJECT_CONTEXT_WORDS.has(word)) ? PROJECT_MANAGER : PRODUCT_MANAGER;
}

/** Step 3: single-word rewrites, with "pm" read as product manager unless the title is about projects. */
function rewriteWords(raw: readonly string[]): string[] {
  const words: string[] = [];
  for (const word of raw) {
    if (word === '') continue;
    const replacement = word === 'pm' ? expandPm(raw) : TOKEN_REWRITE_MAP.get(word);
    if (replacement === undefined) words.push(word);
    else for (const part of replacement) words.push(part);
  }
  return words;
}

function phraseAt(words: readonly string[], at: number): PhraseRule | undefined {
  const rules = PHRASES_BY_FIRST_WORD.get(words[at]!);
  if (rules === undefined) return undefined;
  return rules.find((rule) => rule.words.every((word, k) => words[at + k] === word));
}

/** Step 4a: phrase fusion, left to right, longest phrase first at each position. */
function fusePhrases(words: readonly string[]): string[] {
  const fused: string[] = [];
  for (let i = 0; i < words.length;) {
    const rule = phraseAt(words, i);
    if (rule === undefined) {
      fused.push(words[i]!);
      i++;
    } else {
      for (const part of rule.replacement) fused.push(part);
      i += rule.words.length;
    }
  }
  return fused;
}

/** Steps 4b and 5: "chief <function> officer" -> "cxo <function>"; cut "to the CEO" complements. */
function finishWords(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === 'to' || (word === 'office' && words[i + 1] === 'of')) {
      let next = word === 'to' ? i + 1 : i + 2;
      if (words[next] === 'the') next++;
      if (COMPLEMENT_ROLE_SET.has(words[next] ?? '')) break;
    }
    if (word === 'chief') {
      const officer = words.indexOf('officer', i + 1);
      if (officer !== -1 && officer - i - 1 <= CHIEF_OFFICER_MAX_WORDS) {
        out.push('cxo');
        for (let k = i + 1; k < officer; k++) out.push(words[k]!);
        i = officer;
        continue;
      }
    }
    out.push(word);
  }
  return out;
}

/** Title -> canonical words (see the pipeline at the top of the file). */
function tokenise(title: string): string[] {
  return finishWords(fusePhrases(rewriteWords(splitWords(title))));
}

// ---------------------------------------------------------------------------------------------
// Classification over words.
// ---------------------------------------------------------------------------------------------

/**
 * Function named after an anchor ("VP [of] [Global] Sales", "Jefe de Producto", "Manager, Engineering").
 * Up to two neutral words may precede the function; a run of function words is read by its last
 * word ("Software Engineering" -> engineering, "Sales Operations" -> operations); coordinated runs
 * ("VP Product & Engineering") are tried in order and the first that makes a position wins.
 */
function positionAfter(words: readonly string[], at: number, byFunction: FunctionTable): Position | null {
  let i = at + 1;
  let neutral = 0;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (FILLERS.has(word)) continue;
    if (word === 'and' || isRoleWord(word)) return null;
    if (DEPARTMENT_MASKS.has(word)) break;
    if (++neutral > 2) return null;
  }
  while (isFunctionWord(words[i])) {
    while (isFunctionWord(words[i + 1])) i++;
    const department = CORE_FUNCTIONS.get(words[i]!);
    const position = department === undefined ? undefined : byFunction[department];
    if (position !== undefined) return position;
    if (words[i + 1] !== 'and') return null;
    i += 2;
    while (i < words.length && FILLERS.has(words[i]!)) i++;
  }
  return null;
}

/**
 * Function named right before an anchor ("Senior Product Manager", "Engineering VP",
 * "Sales and Marketing Manager"); the run must touch the anchor, so "Marketing Project Manager" has none.
 * Coordinated runs are read first-mentioned first.
 */
function positionBefore(words: readonly string[], at: number, byFunction: FunctionTable): Position | null {
  let i = at - 1;
  let found: Position | null = null;
  while (isFunctionWord(words[i])) {
    const department = CORE_FUNCTIONS.get(words[i]!);
    const position = department === undefined ? undefined : byFunction[department];
    if (position !== undefined) found = position; // keeps the leftmost (first mentioned) match
    while (isFunctionWord(words[i])) i--;
    if (words[i] !== 'and' || !isFunctionWord(words[i - 1])) break;
    i--;
  }
  return found;
}

function functionalPosition(words: readonly string[], at: number, anchor: FunctionalAnchor): Position | null {
  const { byFunction } = FUNCTIONAL_POSITIONS[anchor];
  // A manager's function usually comes first ("Product Manager"); a VP's or head's after ("VP of Sales").
  if (anchor === 'manager') return positionBefore(words, at, byFunction) ?? positionAfter(words, at, byFunction);
  return positionAfter(words, at, byFunction) ?? positionBefore(words, at, byFunction);
}

const departmentLists = new Map<number, readonly Department[]>();

/** One frozen, contract-ordered array per department set (at most 4096, in practice a few dozen). */
function departmentList(mask: number): Department[] {
  let list = departmentLists.get(mask);
  if (list === undefined) {
    list = Object.freeze(DEPARTMENTS.filter((_, index) => (mask & (1 << index)) !== 0));
    departmentLists.set(mask, list);
  }
  return list as Department[];
}

const NOTHING: RoleClassification = Object.freeze({ position: null, departments: departmentList(0), seniority: null });

function classifyWords(words: readonly string[]): RoleClassification {
  let mask = 0;
  let rank: number = SENIORITIES.length;
  let position: Position | null = null;
  let positionTier = Number.POSITIVE_INFINITY;

  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const departments = DEPARTMENT_MASKS.get(word);
    if (departments !== undefined) mask |= departments;

    const wordRank = SENIORITY_RANKS.get(word);
    if (wordRank !== undefined && wordRank < rank) rank = wordRank;
    if (word === 'staff' && LEAD_RANK < rank && ((DEPARTMENT_MASKS.get(words[i + 1] ?? '') ?? 0) & STAFF_LEAD_MASK) !== 0) {
      rank = LEAD_RANK;
    }

    // Strict "<" keeps the first-mentioned candidate within a tier.
    const exec = EXEC_POSITIONS.get(word);
    if (exec !== undefined) {
      const deputy = exec.tier <= 1 && i > 0 && DEPUTY_WORDS.has(words[i - 1]!);
      if (!deputy && exec.tier < positionTier) {
        position = exec.position;
        positionTier = exec.tier;
      }
      continue;
    }
    const anchor = FUNCTIONAL_ANCHORS.get(word);
    if (anchor !== undefined && FUNCTIONAL_POSITIONS[anchor].tier < positionTier) {
      const candidate = functionalPosition(words, i, anchor);
      if (candidate !== null) {
        position = candidate;
        positionTier = FUNCTIONAL_POSITIONS[anchor].tier;
      }
    }
  }

  if (mask === 0 && position === null && rank === SENIORITIES.length) return NOTHING;
  return Object.freeze({
    position,
    departments: departmentList(mask),
    seniority: SENIORITIES[rank] ?? null,
  });
}

// ---------------------------------------------------------------------------------------------
// Public entry point with a bounded memo (titles repeat heavily: "CEO", "Software Engineer", ...).
// ---------------------------------------------------------------------------------------------

/**
 * Two-generation memo: new results go to `recent`; when it is full it becomes `older` and a fresh
 * `recent` starts, so memory stays below 2 x MEMO_GENERATION entries. A hit in `older` is copied
 * back to `recent`, which keeps frequent titles alive (an approximate LRU). Evicting a whole
 * generation at once avoids Map front-deletion, which degrades badly under constant churn.
 */
const MEMO_GENERATION = 10_000;
let recent = new Map<string, RoleClassification>();
let older = new Map<string, RoleClassification>();

function remember(title: string, result: RoleClassification): void {
  if (recent.size >= MEMO_GENERATION) {
    older = recent;
    recent = new Map();
  }
  recent.set(title, result);
}

/**
 * Classifies a free-text job title. Never throws; unknown titles give
 * `{ position: null, departments: [], seniority: null }`. The returned object is frozen and shared.
 */
export function classifyRole(title: string): RoleClassification {
  const hit = recent.get(title);
  if (hit !== undefined) return hit;
  const olderHit = older.get(title);
  if (olderHit !== undefined) {
    remember(title, olderHit);
    return olderHit;
  }
  const result = classifyWords(tokenise(title));
  // Very long inputs are not job titles people repeat; classifying them is bounded by MAX_TITLE_LENGTH.
  if (title.length <= MAX_TITLE_LENGTH) remember(title, result);
  return result;
}
