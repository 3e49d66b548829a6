// Synthetic job postings (the hiring dataset's demo and large data): titles from the job changes' role
// vocabulary, so the role classifier gives them positions, departments and seniorities; the company, its
// country and size from the shared company population; locations with city, region and country; and job
// descriptions of 300 to 1,500 words assembled from sections and phrases per role family, so that a
// description search finds what a recruiter would search ("kubernetes", "series b", "quota", "gdpr").
import { classifyRole, type HiringPostingRecord } from '../catalog/index.js';
import { defaultPopulation, type CompanyPopulation } from './company-population.js';
import { mersenneRandomizer, Rng, Weighted } from './random.js';
import { ROLE_FAMILIES } from './v2-vocabulary.js';

const STREAM = { postings: 0x4c31, companies: 0x4c32 } as const;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Cities per country: [city, region (a US state as its code)]. */
const CITIES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  US: [
    ['San Francisco', 'CA'],
    ['New York', 'NY'],
    ['Austin', 'TX'],
    ['Seattle', 'WA'],
    ['Boston', 'MA'],
    ['Chicago', 'IL'],
    ['Denver', 'CO'],
    ['Los Angeles', 'CA'],
    ['Atlanta', 'GA'],
    ['Miami', 'FL'],
  ],
  GB: [
    ['London', 'England'],
    ['Manchester', 'England'],
    ['Edinburgh', 'Scotland'],
  ],
  DE: [
    ['Berlin', 'Berlin'],
    ['Munich', 'Bavaria'],
    ['Hamburg', 'Hamburg'],
  ],
  FR: [
    ['Paris', 'Île-de-France'],
    ['Lyon', 'Auvergne-Rhône-Alpes'],
  ],
  NL: [['Amsterdam', 'North Holland']],
  CA: [
    ['Toronto', 'Ontario'],
    ['Vancouver', 'British Columbia'],
  ],
  IN: [
    ['Bengaluru', 'Karnataka'],
    ['Pune', 'Maharashtra'],
  ],
  ES: [['Madrid', 'Community of Madrid']],
  SE: [['Stockholm', 'Stockholm County']],
  PL: [['Warsaw', 'Masovian']],
  AU: [['Sydney', 'New South Wales']],
  SG: [['Singapore', 'Singapore']],
};
const COUNTRIES = Object.keys(CITIES);

const EMPLOYMENT = new Weighted<string>([
  ['Full-time', 80],
  ['Contract', 8],
  ['Part-time', 5],
  ['Internship', 4],
  ['Temporary', 3],
]);

/** What a recruiter searches for, per department: skills and tools, and the duties around them. */
const SKILLS: Readonly<Record<string, readonly string[]>> = {
  engineering: [
    'Kubernetes',
    'Terraform',
    'AWS',
    'Google Cloud',
    'Go',
    'Python',
    'TypeScript',
    'React',
    'PostgreSQL',
    'Kafka',
    'Rust',
    'Java',
    'microservices',
    'CI/CD pipelines',
    'observability',
    'distributed systems',
  ],
  sales: [
    'quota',
    'pipeline generation',
    'Salesforce',
    'enterprise accounts',
    'MEDDICC',
    'outbound prospecting',
    'SaaS sales',
    'forecasting',
    'negotiation',
    'territory planning',
  ],
  marketing: [
    'SEO',
    'demand generation',
    'HubSpot',
    'content strategy',
    'paid acquisition',
    'brand',
    'product marketing',
    'lifecycle email',
  ],
  product: ['roadmap', 'user research', 'discovery', 'A/B testing', 'product analytics', 'prioritisation', 'B2B SaaS'],
  design: ['Figma', 'design systems', 'prototyping', 'user research', 'accessibility', 'interaction design'],
  data: ['SQL', 'dbt', 'Spark', 'Airflow', 'Snowflake', 'machine learning', 'statistics', 'Python', 'Looker'],
  finance: ['GAAP', 'FP&A', 'forecasting', 'NetSuite', 'audit', 'revenue recognition', 'treasury'],
  legal: ['GDPR', 'commercial contracts', 'privacy', 'compliance', 'employment law', 'data protection'],
  people: ['recruiting', 'talent acquisition', 'onboarding', 'compensation', 'employer branding', 'HRIS'],
  operations: ['process improvement', 'vendor management', 'logistics', 'supply chain', 'Lean', 'KPIs'],
  customer_success: ['onboarding', 'renewals', 'churn', 'NPS', 'Zendesk', 'account management'],
  growth: ['experimentation', 'funnel analytics', 'activation', 'retention', 'paid acquisition'],
};
const GENERAL_SKILLS = ['communication', 'stakeholder management', 'ownership', 'problem solving', 'collaboration'];

const STAGES = ['seed', 'Series A', 'Series B', 'Series C', 'growth-stage', 'publicly listed'];

const DUTIES = [
  'You will own {skill} end to end and work closely with {team}.',
  'Partner with {team} to deliver {skill} at scale.',
  'Drive {skill} initiatives from idea to launch, measuring impact as you go.',
  'Improve how we approach {skill}, setting standards the rest of {team} can follow.',
  'Mentor teammates and share what you learn about {skill}.',
  'Help us hire and grow a team that is excellent at {skill}.',
  'Report on {skill} results to leadership every quarter.',
  'Work with customers to understand where {skill} makes the biggest difference.',
];
const REQUIREMENTS = [
  '{years}+ years of experience with {skill}.',
  'Hands-on experience with {skill} in a fast-growing company.',
  'A track record of results in {skill}.',
  'Strong {general} and a bias for action.',
  'Comfort with ambiguity and {general}.',
  'Experience with {skill} is a strong plus.',
  'Fluency in English; {language} is a plus.',
];
const ABOUT = [
  '{company} is a {stage} company in {industry}, building tools that teams rely on every day.',
  'Founded in {founded}, {company} has grown to {employees} people across {offices} offices.',
  'We recently raised our {stage} round and are investing in {team}.',
  'Our customers range from startups to Fortune 500 companies.',
  'We care about craft, candour and shipping work we are proud of.',
];
const BENEFITS = [
  'Competitive salary and equity.',
  'Health, dental and vision insurance.',
  'Flexible working hours and a remote-friendly culture.',
  'A yearly learning budget and conference time.',
  '25 days of paid holiday plus public holidays.',
  'Parental leave and a home office stipend.',
  'Regular team offsites.',
];
const CLOSING =
  'We are an equal opportunity employer and value diversity. All applicants are considered without regard to race, ' +
  'religion, gender, sexual orientation, national origin, age or disability. We process applicant data in line with GDPR.';
const LANGUAGES = ['German', 'French', 'Spanish', 'Dutch', 'Polish', 'Hindi', 'Swedish'];

const TEAMS: Readonly<Record<string, string>> = {
  engineering: 'the platform team',
  sales: 'the revenue team',
  marketing: 'the marketing team',
  product: 'engineering and design',
  design: 'product and engineering',
  data: 'the data platform team',
  finance: 'the finance team',
  legal: 'the legal team',
  people: 'the people team',
  operations: 'the operations team',
  customer_success: 'the customer success team',
  growth: 'the growth team',
};

const SENIORITY_LEVEL: Readonly<Record<string, string>> = {
  founder: 'Executive',
  c_level: 'Executive',
  vp: 'Executive',
  director: 'Director',
  head: 'Director',
  lead: 'Mid-Senior level',
  manager: 'Mid-Senior level',
};

/** A job description of about `words` words, from the sections and phrases of its department. */
function description(rng: Rng, words: number, department: string, fill: Record<string, string>): string {
  const skills = SKILLS[department] ?? GENERAL_SKILLS;
  const phrase = (template: string) =>
    template.replace(/\{(\w+)\}/g, (_, key: string) => {
      if (key === 'skill') return rng.pick(skills);
      if (key === 'general') return rng.pick(GENERAL_SKILLS);
      if (key === 'years') return String(rng.int(2, 8));
      if (key === 'language') return rng.pick(LANGUAGES);
      return fill[key] ?? key;
    });
  const sections: string[] = [];
  let count = 0;
  const add = (text: string) => {
    sections.push(text);
    count += text.split(' ').length;
  };
  add(`About ${fill.company}\n${rng.sample(ABOUT, 3).map(phrase).join(' ')}`);
  // The role's sections, repeated with other phrases until the description is long enough.
  while (count < words - 80) {
    add(`What you will do\n${Array.from({ length: rng.int(4, 7) }, () => `- ${phrase(rng.pick(DUTIES))}`).join('\n')}`);
    if (count >= words - 80) break;
    add(
      `What we are looking for\n${Array.from({ length: rng.int(4, 7) }, () => `- ${phrase(rng.pick(REQUIREMENTS))}`).join('\n')}`,
    );
  }
  add(`What we offer\n${rng.sample(BENEFITS, rng.int(3, 6)).join(' ')}`);
  add(CLOSING);
  return sections.join('\n\n');
}

/**
 * `count` postings as of `now`, deterministic in (seed, count, now, population): posted over the last
 * 120 days (denser towards now), recorded within a day and a half of posting, most open for 30 to 90
 * days (so some have expired), by companies of the population weighted by their size.
 */
export function* generateHiringPostings(
  seed: number,
  count: number,
  now: Date,
  population: CompanyPopulation = defaultPopulation(seed, now),
): Generator<HiringPostingRecord> {
  const rng = new Rng(mersenneRandomizer(seed, STREAM.postings));
  const picks = new Rng(mersenneRandomizer(seed, STREAM.companies));
  const employers = population.sampler((i) => Math.sqrt(population.employeeCount(i) ?? 20));
  const titles = new Weighted(
    ROLE_FAMILIES.flatMap(([weight, variants]) => variants.map((title) => [title, weight / variants.length] as const)),
  );
  const nowMs = now.getTime();
  for (let i = 0; i < count; i++) {
    const company = population.company(employers.pick(picks));
    const title = titles.pick(rng);
    const role = classifyRole(title);
    const department = role.departments[0] ?? 'operations';
    const postedMs = Math.floor((nowMs - 2 * HOUR - 120 * DAY * Math.pow(rng.next(), 1.4)) / HOUR) * HOUR;
    const createdMs = Math.min(nowMs - HOUR, postedMs + rng.int(0, 36) * HOUR);
    const jobCountry =
      company.country !== null && rng.chance(0.8) && CITIES[company.country] ? company.country : rng.pick(COUNTRIES);
    const [city, region] = rng.pick(CITIES[jobCountry]!);
    const remote = rng.chance(0.15);
    const applicants = rng.chance(0.1) ? null : Math.floor(rng.logUniform(1, 600));
    const words = rng.int(300, 1500);
    yield {
      id: rng.uuid(),
      jobId: String(3_000_000_000 + rng.int(0, 999_999_999)),
      jobUrl: `https://www.linkedin.com/jobs/view/${3_000_000_000 + i}`,
      title,
      location: remote ? `${city}, ${region} (Remote)` : `${city}, ${region}`,
      city,
      region,
      jobCountry,
      datePosted: new Date(postedMs).toISOString(),
      validThrough: rng.chance(0.15) ? null : new Date(postedMs + rng.pick([30, 45, 60, 90]) * DAY).toISOString(),
      employmentType: EMPLOYMENT.pick(rng),
      seniorityLevel:
        role.seniority === null ? rng.pick(['Entry level', 'Associate', 'Mid-Senior level']) : SENIORITY_LEVEL[role.seniority]!,
      jobFunction: department.replace('_', ' '),
      industries: company.industry,
      numApplicants: applicants === null ? null : applicants > 200 && rng.chance(0.3) ? '200+' : String(applicants),
      descriptionText: description(rng, words, department, {
        company: company.name,
        industry: company.industry ?? 'software',
        stage: rng.pick(STAGES),
        founded: String(company.foundedYear ?? 2015),
        employees: String(company.employeeCount ?? 50),
        offices: String(rng.int(1, 9)),
        team: TEAMS[department] ?? 'the team',
      }),
      createdAt: new Date(createdMs).toISOString(),
      companyName: company.name,
      companyWebsite: company.website,
      companyLinkedinUrl: company.linkedinUrl,
      companyIndustry: company.industry,
      companyCountry: company.country,
      companySubcategory: null,
      companyEmployeeCount: company.employeeCount,
      companyFoundedYear: company.foundedYear,
      companyLogoUrl: null,
      companyDescription: company.description,
      companySpecialties: null,
      companyCategories: company.industry === null ? null : JSON.stringify([company.industry]),
    };
  }
}
