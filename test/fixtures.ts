import { randomUUID } from 'node:crypto';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Database } from '../src/platform/db/port.js';
import type { Dataset, RecordExtras, StoredRow } from '../src/catalog/dataset.js';
import { acquisitions, companies, funding, investors, jobChanges, mA } from '../src/catalog/registry.js';
import type { DealStatus, FundingRecord, MaRecord } from '../src/catalog/schemas/v1-schemas.js';
import type {
  AcquisitionSignalRecord,
  CompanyRecord,
  InvestorRecord,
  JobChangeRecord,
} from '../src/catalog/schemas/v2-schemas.js';
import type { HiringPostingRecord } from '../src/catalog/schemas/hiring-schemas.js';
import { startOfTodayUtc } from '../src/demo/seed.js';
import { upserterOf } from '../src/ingest/index.js';

let counter = 0;

/** A complete funding record; tests override only what they assert on. */
export function fundingRecord(
  overrides: Partial<FundingRecord> & { company_info?: FundingRecord['company_info'] } = {},
): FundingRecord {
  counter += 1;
  const name = overrides.company_name ?? `Company ${counter}`;
  return {
    company_name: name,
    round_type: 'seed',
    funding_amount: 1_000_000,
    currency: 'USD',
    ceo: 'Ada Lovelace',
    investors: [{ name: 'Example Ventures', linkedin_url: 'https://www.linkedin.com/company/example-ventures' }],
    company_info: {
      name,
      description: 'Makes things.',
      industry: 'Software',
      website: `https://www.company-${counter}.com`,
      size: '11-50',
      logo_url: null,
      year_founded: 2020,
      hq_country: 'United States',
      email: null,
      phone: null,
      keywords: [],
      specialities: [],
      categories: ['saas'],
      company_interested_in: [],
    },
    historical_headcount: [{ date: '2025-01-01T00:00:00.000Z', headcount: 20, growth: 0.05 }],
    growth_info: { growth_1m: 0.05 },
    contact_info: [{ company_linkedin_url: `https://www.linkedin.com/company/company-${counter}`, employees: [] }],
    main_category: 'saas',
    date_seen: '2025-06-01T12:00:00.000Z',
    ...overrides,
  };
}

export function maRecord(overrides: Partial<MaRecord> = {}): MaRecord {
  counter += 1;
  const name = overrides.company_name ?? `Target ${counter}`;
  return {
    investment_id: randomUUID(),
    company_name: name,
    acquired_by: 'Globex Corporation',
    acquired_by_linkedin_url: 'https://www.linkedin.com/company/globex',
    description: `Globex acquired ${name}.`,
    acquisition_amount: 50_000_000,
    acquisition_percentage: 100,
    main_category: 'fintech',
    company_info: {
      name,
      website: `https://www.target-${counter}.com`,
      hq_country: 'GB',
      categories: ['fintech'],
    },
    contact_info: [{ company_linkedin_url: `https://www.linkedin.com/company/target-${counter}` }],
    date_seen: '2025-06-01T12:00:00.000Z',
    ...overrides,
  };
}

/** Stores records straight through their dataset's row preparation and upsert (no validation, no import). */
export async function insertRecords<Q extends TObject, F, R extends TSchema, Row extends StoredRow>(
  db: Database,
  dataset: Dataset<Q, F, R, Row>,
  records: { record: NoInfer<Static<R>>; extras?: Partial<RecordExtras> }[],
): Promise<void> {
  const context = { dayStart: startOfTodayUtc().toISOString() };
  const rows = records.map(({ record, extras }) => {
    const row = dataset.prepare(record, { sourceId: null, status: 'completed', ...extras }, context);
    if (typeof row === 'string') throw new Error(`${dataset.name}: ${row}`);
    return row;
  });
  await upserterOf(dataset)(db, rows);
}

export async function insertFunding(db: Database, records: FundingRecord[]): Promise<void> {
  await insertRecords(
    db,
    funding,
    records.map((record) => ({ record })),
  );
}

export async function insertMa(db: Database, records: { record: MaRecord; status: DealStatus }[]): Promise<void> {
  await insertRecords(
    db,
    mA,
    records.map(({ record, status }) => ({ record, extras: { status } })),
  );
}

// ---------- v2 ----------

export function investorRecord(overrides: Partial<InvestorRecord> = {}): InvestorRecord {
  counter += 1;
  return {
    id: randomUUID(),
    name: `Investor ${counter} Capital`,
    investorType: 'vc',
    country: 'United States',
    city: 'Menlo Park',
    state: 'California',
    description: 'Backs early-stage software companies.',
    website: `https://www.investor-${counter}.com`,
    linkedinUrl: `https://www.linkedin.com/company/investor-${counter}`,
    twitterUrl: null,
    foundedYear: 2010,
    teamSize: 12,
    aum: 250_000_000,
    investmentFocus: ['Technology'],
    investmentStage: ['Seed', 'Series A'],
    typicalCheckSize: { min: 500_000, max: 5_000_000 },
    portfolioCompaniesCount: 40,
    notableInvestments: ['Acme'],
    activelyInvesting: true,
    lastInvestmentDate: '2025-05-01',
    lastUpdated: '2025-06-01T10:00:00.000Z',
    ...overrides,
  };
}

export function jobChangeRecord(overrides: Partial<JobChangeRecord> = {}): JobChangeRecord {
  counter += 1;
  return {
    signalId: randomUUID(),
    personName: `Person ${counter}`,
    personLinkedinUrl: `https://www.linkedin.com/in/person-${counter}`,
    signalType: 'job_change',
    occurredAt: '2025-06-01T00:00:00.000Z',
    discoveredAt: '2025-06-02T12:00:00.000Z',
    companyName: `Employer ${counter}`,
    companyLinkedinUrl: `https://www.linkedin.com/company/employer-${counter}`,
    newRole: 'Software Engineer',
    previousCompanyName: null,
    ...overrides,
  };
}

export function acquisitionRecord(overrides: Partial<AcquisitionSignalRecord> = {}): AcquisitionSignalRecord {
  counter += 1;
  return {
    id: randomUUID(),
    companyName: `Target Co ${counter}`,
    industry: 'Software Development',
    country: 'United States',
    category: 'Technology',
    website: `https://www.target-co-${counter}.com`,
    linkedinUrl: `https://www.linkedin.com/company/target-co-${counter}`,
    employeeCount: 150,
    revenue: '10M-50M',
    foundedYear: 2018,
    description: 'Enterprise software.',
    acquisitionSignalScore: 72.5,
    signalIndicators: ['Recent funding round'],
    lastUpdated: '2025-06-01T10:00:00.000Z',
    ...overrides,
  };
}

export function companyRecord(overrides: Partial<CompanyRecord> = {}): CompanyRecord {
  counter += 1;
  return {
    id: randomUUID(),
    name: `Company ${counter}`,
    slug: `company-${counter}`,
    description: 'Workflow software for field teams.',
    website: `https://www.company-${counter}.com`,
    linkedinUrl: `https://www.linkedin.com/company/company-${counter}`,
    twitterUrl: null,
    logoUrl: null,
    industry: 'Software Development',
    foundedYear: 2018,
    headquartersCountry: 'US',
    employeeCount: 150,
    categories: ['Technology, Information and Internet'],
    keywords: ['workflow automation'],
    specialties: [],
    growthInfo: { growth_1m: 1.2, growth_12m: 18.5 },
    companySubcategory: 'saas',
    createdAt: '2025-06-01T10:00:00.000Z',
    updatedAt: '2025-07-01T10:00:00.000Z',
    ...overrides,
  };
}

export async function insertCompanies(db: Database, records: CompanyRecord[]): Promise<void> {
  await insertRecords(
    db,
    companies,
    records.map((record) => ({ record })),
  );
}
export async function insertInvestors(db: Database, records: InvestorRecord[]): Promise<void> {
  await insertRecords(
    db,
    investors,
    records.map((record) => ({ record })),
  );
}
export async function insertJobChanges(db: Database, records: JobChangeRecord[]): Promise<void> {
  await insertRecords(
    db,
    jobChanges,
    records.map((record) => ({ record })),
  );
}
export async function insertAcquisitions(db: Database, records: AcquisitionSignalRecord[]): Promise<void> {
  await insertRecords(
    db,
    acquisitions,
    records.map((record) => ({ record })),
  );
}

export function hiringRecord(overrides: Partial<HiringPostingRecord> = {}): HiringPostingRecord {
  counter += 1;
  return {
    id: randomUUID(),
    jobId: `job-${counter}`,
    jobUrl: `https://www.linkedin.com/jobs/view/${1_000_000 + counter}`,
    title: 'Senior Software Engineer',
    location: 'San Francisco, CA',
    city: 'San Francisco',
    region: 'CA',
    jobCountry: 'US',
    datePosted: '2026-03-01T00:00:00.000Z',
    validThrough: null,
    employmentType: 'Full-time',
    seniorityLevel: 'Mid-Senior level',
    jobFunction: 'Engineering',
    industries: 'Software Development',
    numApplicants: '45',
    descriptionText: 'We are looking for a senior software engineer to build our Kubernetes platform.',
    createdAt: '2026-03-02T12:00:00.000Z',
    companyName: `Hiring Co ${counter}`,
    companyWebsite: `https://www.hiring-co-${counter}.com`,
    companyLinkedinUrl: `https://www.linkedin.com/company/hiring-co-${counter}`,
    companyIndustry: 'Software Development',
    companyCountry: 'US',
    companySubcategory: null,
    companyEmployeeCount: 250,
    companyFoundedYear: 2018,
    companyLogoUrl: null,
    companyDescription: 'Enterprise software company.',
    companySpecialties: '["Cloud","SaaS"]',
    companyCategories: '["Technology","Software"]',
    ...overrides,
  };
}
