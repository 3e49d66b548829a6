import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  classifyRole,
  DEPARTMENTS,
  POSITIONS,
  SENIORITIES,
  type Department,
  type Position,
  type Seniority,
} from '../src/catalog/role-classifier.js';

type Row = readonly [title: string, position: Position | null, departments: readonly Department[], seniority: Seniority | null];

const ROWS: readonly Row[] = [
  // Founders: the executive role is the position, founder is the seniority.
  ['Co-Founder & CEO', 'ceo', [], 'founder'],
  ['Founder/CTO', 'cto', ['engineering'], 'founder'],
  ['CEO and Co-founder', 'ceo', [], 'founder'],
  ['Founder & CEO @ Stealth Startup', 'ceo', [], 'founder'],
  ['Co-founder, COO', 'coo', ['operations'], 'founder'],
  ['Founder - CFO', 'cfo', ['finance'], 'founder'],
  ['Cofounder', 'co-founder', [], 'founder'],
  ['co founder', 'co-founder', [], 'founder'],
  ['Co-Founder', 'co-founder', [], 'founder'],
  ['Founder', 'founder', [], 'founder'],
  ['Stealth Mode Founder', 'founder', [], 'founder'],
  ['Founder & Managing Director', 'founder', [], 'founder'],
  ['Co-founder & Head of Product', 'head of product', ['product'], 'founder'],
  ['Founder and Product Manager', 'product manager', ['product'], 'founder'],
  ['Founding Engineer', null, ['engineering'], null],
  ["Founder's Associate", null, [], null],

  // C-level.
  ['CEO', 'ceo', [], 'c_level'],
  ['cEO', 'ceo', [], 'c_level'],
  ['C.E.O.', 'ceo', [], 'c_level'],
  ['Chief Executive Officer', 'ceo', [], 'c_level'],
  ['Chief Executive', 'ceo', [], 'c_level'],
  ['CEO & President', 'ceo', [], 'c_level'],
  ['Chairman & CEO', 'ceo', [], 'c_level'],
  ['Interim CEO', 'ceo', [], 'c_level'],
  ['Deputy CEO', null, [], 'c_level'],
  ['CTO', 'cto', ['engineering'], 'c_level'],
  ['Chief Technology Officer', 'cto', ['engineering'], 'c_level'],
  ['Chief Technical Officer', 'cto', ['engineering'], 'c_level'],
  ['CTO @ Acme', 'cto', ['engineering'], 'c_level'],
  ['CTO at Acme Corp', 'cto', ['engineering'], 'c_level'],
  ['CTO (Acting)', 'cto', ['engineering'], 'c_level'],
  ['VP Engineering & CTO', 'cto', ['engineering'], 'c_level'],
  ['CEO/CTO', 'ceo', ['engineering'], 'c_level'],
  ['CFO', 'cfo', ['finance'], 'c_level'],
  ['Chief Financial Officer', 'cfo', ['finance'], 'c_level'],
  ['Interim CFO', 'cfo', ['finance'], 'c_level'],
  ['COO', 'coo', ['operations'], 'c_level'],
  ['Chief Operating Officer', 'coo', ['operations'], 'c_level'],
  ['President & COO', 'coo', ['operations'], 'c_level'],
  ['CMO', null, ['marketing'], 'c_level'],
  ['Chief Marketing Officer', null, ['marketing'], 'c_level'],
  ['Chief Revenue Officer', null, ['sales'], 'c_level'],
  ['CRO', null, ['sales'], 'c_level'],
  ['CPO', null, ['product'], 'c_level'],
  ['Chief Product Officer', null, ['product'], 'c_level'],
  ['Chief People Officer', null, ['people'], 'c_level'],
  ['Chief Human Resources Officer', null, ['people'], 'c_level'],
  ['CIO', null, ['engineering'], 'c_level'],
  ['CISO', null, ['engineering'], 'c_level'],
  ['Chief Information Security Officer', null, ['engineering'], 'c_level'],
  ['CDO', null, ['data'], 'c_level'],
  ['Chief Data Officer', null, ['data'], 'c_level'],
  ['Chief Accounting Officer', null, ['finance'], 'c_level'],
  ['Chief Legal Officer', null, ['legal'], 'c_level'],
  ['Chief Growth Officer', null, ['growth'], 'c_level'],
  ['Chief Customer Officer', null, ['customer_success'], 'c_level'],
  ['President', null, [], 'c_level'],
  ['Managing Director', null, [], 'c_level'],

  // Vice presidents.
  ['VP Eng', 'vp of engineering', ['engineering'], 'vp'],
  ['VP of Engineering', 'vp of engineering', ['engineering'], 'vp'],
  ['VP Engineering', 'vp of engineering', ['engineering'], 'vp'],
  ['Vice President, Engineering', 'vp of engineering', ['engineering'], 'vp'],
  ['VP, Eng', 'vp of engineering', ['engineering'], 'vp'],
  ['SVP Engineering', 'vp of engineering', ['engineering'], 'vp'],
  ['Engineering VP', 'vp of engineering', ['engineering'], 'vp'],
  ['VICE PRESIDENT OF SALES', 'vp of sales', ['sales'], 'vp'],
  ['Vice-President Sales', 'vp of sales', ['sales'], 'vp'],
  ['EVP, Global Sales', 'vp of sales', ['sales'], 'vp'],
  ['Senior Vice President, Global Sales', 'vp of sales', ['sales'], 'vp'],
  ['VP Sales & Marketing', 'vp of sales', ['sales', 'marketing'], 'vp'],
  ['V.P. of Marketing', 'vp of marketing', ['marketing'], 'vp'],
  ['AVP Marketing', 'vp of marketing', ['marketing'], 'vp'],
  ['VP Product & Engineering', 'vp of engineering', ['product', 'engineering'], 'vp'],
  ['Vice President of Product', null, ['product'], 'vp'],
  ['VP of Business Development', null, ['sales'], 'vp'],
  ['VP of Data & Analytics', null, ['data'], 'vp'],
  ['VP People', null, ['people'], 'vp'],
  ['VP Customer Success', null, ['customer_success'], 'vp'],
  ['SVP Engineering @ Stripe, Advisor', 'vp of engineering', ['engineering'], 'vp'],

  // Heads.
  ['Head of Eng', 'head of engineering', ['engineering'], 'head'],
  ['Head of Engineering', 'head of engineering', ['engineering'], 'head'],
  ['Head of Software Engineering', 'head of engineering', ['engineering'], 'head'],
  ['Head of Engineering & Product', 'head of engineering', ['engineering', 'product'], 'head'],
  ['Head of Product', 'head of product', ['product'], 'head'],
  ['Head of Product & Engineering', 'head of product', ['product', 'engineering'], 'head'],
  ['Head of Growth', 'head of growth', ['growth'], 'head'],
  ['Head of Growth at Acme', 'head of growth', ['growth'], 'head'],
  ['Head of Marketing & Growth', 'head of growth', ['marketing', 'growth'], 'head'],
  ['Head of Product Design', null, ['design'], 'head'],
  ['Head of People', null, ['people'], 'head'],
  ['Head of Sales, EMEA', null, ['sales'], 'head'],
  ['Head of IT', null, ['engineering'], 'head'],
  ['Head of Customer Success', null, ['customer_success'], 'head'],
  ['General Manager, EMEA', null, [], 'head'],

  // Directors.
  ['Director of Engineering', null, ['engineering'], 'director'],
  ['Dir. of Mktg', null, ['marketing'], 'director'],
  ['Sr. Director, Product Marketing', null, ['marketing'], 'director'],
  ['Sales Director', null, ['sales'], 'director'],
  ['Finance Director', null, ['finance'], 'director'],
  ['Creative Director', null, ['design'], 'director'],
  ['R&D Director', null, ['engineering'], 'director'],
  ['Director, Product Management', null, ['product'], 'director'],
  ['Non-Executive Director', null, [], null],
  ['Member of the Board of Directors', null, [], null],

  // Leads.
  ['Tech Lead', null, ['engineering'], 'lead'],
  ['Engineering Lead', null, ['engineering'], 'lead'],
  ['Team Lead - Customer Support', null, ['customer_success'], 'lead'],
  ['Staff Engineer', null, ['engineering'], 'lead'],
  ['Principal Engineer', null, ['engineering'], 'lead'],
  ['Lead Data Scientist', null, ['data'], 'lead'],
  ['Chief Architect', null, ['engineering'], 'lead'],
  ['RevOps Lead', null, ['sales', 'operations'], 'lead'],
  ['Principal Product Manager', 'product manager', ['product'], 'lead'],

  // Managers.
  ['Engineering Manager', 'engineering manager', ['engineering'], 'manager'],
  ['Senior Engineering Manager', 'engineering manager', ['engineering'], 'manager'],
  ['Eng Mgr', 'engineering manager', ['engineering'], 'manager'],
  ['Manager, Software Engineering', 'engineering manager', ['engineering'], 'manager'],
  ['Software Development Manager', 'engineering manager', ['engineering'], 'manager'],
  ['Product Manager', 'product manager', ['product'], 'manager'],
  ['Senior Product Manager', 'product manager', ['product'], 'manager'],
  ['Sr. PM', 'product manager', ['product'], 'manager'],
  ['PM', 'product manager', ['product'], 'manager'],
  ['Group Product Manager', 'product manager', ['product'], 'manager'],
  ['Associate Product Manager', 'product manager', ['product'], 'manager'],
  ['Technical Product Manager', 'product manager', ['product'], 'manager'],
  ['Sales Manager', 'sales manager', ['sales'], 'manager'],
  ['Regional Sales Manager', 'sales manager', ['sales'], 'manager'],
  ['Sales and Marketing Manager', 'sales manager', ['sales', 'marketing'], 'manager'],
  ['Marketing Manager', 'marketing manager', ['marketing'], 'manager'],
  ['Marketing Manager @ HubSpot', 'marketing manager', ['marketing'], 'manager'],
  ['Product Marketing Manager', 'marketing manager', ['marketing'], 'manager'],
  ['Sales Operations Manager', null, ['sales', 'operations'], 'manager'],
  ['Sales Engineering Manager', null, ['sales'], 'manager'],
  ['Customer Success Manager', null, ['customer_success'], 'manager'],
  ['Account Manager', null, ['customer_success'], 'manager'],
  ['Talent Acquisition Manager', null, ['people'], 'manager'],
  ['People Ops Manager', null, ['people'], 'manager'],
  ['Operations Manager', null, ['operations'], 'manager'],
  ['Office Manager', null, ['operations'], 'manager'],
  ['IT Manager', null, ['engineering'], 'manager'],
  ['FP&A Manager', null, ['finance'], 'manager'],
  ['Program Manager', null, [], 'manager'],
  ['Construction PM', null, [], 'manager'],

  // Individual contributors: department only.
  ['Software Engineer', null, ['engineering'], null],
  ['Senior Software Engineer II', null, ['engineering'], null],
  ['Full-Stack Developer', null, ['engineering'], null],
  ['DevOps Engineer', null, ['engineering'], null],
  ['Data Scientist', null, ['data'], null],
  ['Data Engineer', null, ['data', 'engineering'], null],
  ['Machine Learning Engineer', null, ['data', 'engineering'], null],
  ['BI Analyst', null, ['data'], null],
  ['Designer', null, ['design'], null],
  ['UX/UI Designer', null, ['design'], null],
  ['Account Executive', null, ['sales'], null],
  ['SDR', null, ['sales'], null],
  ['Product Owner', null, ['product'], null],
  ['Recruiter', null, ['people'], null],
  ['HR Business Partner', null, ['people'], null],
  ['Paralegal', null, ['legal'], null],
  ['General Counsel', null, ['legal'], null],
  ['Controller', null, ['finance'], null],
  ['Staff Accountant', null, ['finance'], null],
  ['Customer Support Specialist', null, ['customer_success'], null],
  ['Copywriter', null, ['marketing'], null],
  ['Lead Generation Specialist', null, ['marketing'], null],
  ['Growth Hacker', null, ['growth'], null],
  ['Marketing Intern', null, ['marketing'], null],
  ['Chief of Staff', null, ['operations'], null],

  // Non-English titles.
  ['Directeur Général', 'ceo', [], 'c_level'],
  ['Geschäftsführer', 'ceo', [], 'c_level'],
  ['Gründer & Geschäftsführer', 'ceo', [], 'founder'],
  ['Fundador', 'founder', [], 'founder'],
  ['Co-fundador y CEO', 'ceo', [], 'founder'],
  ['Mitgründer', 'co-founder', [], 'founder'],
  ['Jefe de Producto', 'head of product', ['product'], 'head'],
  ['Gerente de Marketing', 'marketing manager', ['marketing'], 'manager'],
  ['Directora de Ventas', null, ['sales'], 'director'],

  // Nothing to classify.
  ['Consultant', null, [], null],
  ['Intern', null, [], null],
  ['Board Member', null, [], null],
  ['Advisor', null, [], null],
  ['Freelancer', null, [], null],
  ['Owner', null, [], null],
  ['', null, [], null],
  ['   ', null, [], null],
  ['Executive Assistant to the CEO', null, [], null],
  ['Chairman', null, [], null],
];

const sorted = (values: readonly string[]): string[] => [...values].sort();

describe('classifyRole: real-world titles', () => {
  for (const [title, position, departments, seniority] of ROWS) {
    it(`${JSON.stringify(title)} -> ${position ?? '-'} / [${departments.join(', ')}] / ${seniority ?? '-'}`, () => {
      const result = classifyRole(title);
      assert.equal(result.position, position);
      assert.deepEqual(sorted(result.departments), sorted(departments));
      assert.equal(new Set(result.departments).size, result.departments.length, 'no duplicate departments');
      assert.equal(result.seniority, seniority);
    });
  }
});

describe('classifyRole: contract and stability', () => {
  it('has a table of at least 100 distinct titles', () => {
    assert.ok(ROWS.length >= 100);
    assert.equal(new Set(ROWS.map(([title]) => title)).size, ROWS.length);
  });

  it('only ever returns values the API contract allows', () => {
    const positions = new Set<string>(POSITIONS);
    const departments = new Set<string>(DEPARTMENTS);
    const seniorities = new Set<string>(SENIORITIES);
    for (const [title] of ROWS) {
      const result = classifyRole(title);
      assert.ok(result.position === null || positions.has(result.position), `${title}: position ${result.position}`);
      for (const d of result.departments) assert.ok(departments.has(d), `${title}: department ${d}`);
      assert.ok(result.seniority === null || seniorities.has(result.seniority), `${title}: seniority ${result.seniority}`);
    }
  });

  it('lists departments in contract order', () => {
    for (const [title] of ROWS) {
      const indexes = classifyRole(title).departments.map((d) => DEPARTMENTS.indexOf(d));
      assert.deepEqual(
        indexes,
        [...indexes].sort((a, b) => a - b),
        title,
      );
    }
  });

  it('is deterministic: repeated and reordered calls give equal results', () => {
    const first = ROWS.map(([title]) => classifyRole(title));
    const again = [...ROWS]
      .reverse()
      .map(([title]) => classifyRole(title))
      .reverse();
    assert.deepEqual(again, first);
    for (const [title] of ROWS) assert.deepEqual(classifyRole(title), classifyRole(title));
  });

  it('ignores casing, extra spaces, trailing punctuation and an employer suffix', () => {
    for (const [title] of ROWS) {
      if (title.trim() === '') continue;
      const expected = classifyRole(title);
      const variants = [
        title.toUpperCase(),
        title.toLowerCase(),
        `  ${title.replace(/ /g, '   ')}  `,
        `${title}.`,
        `${title} @ Initech`,
        `${title} at Initech`,
      ];
      for (const variant of variants) assert.deepEqual(classifyRole(variant), expected, `${JSON.stringify(variant)} vs ${title}`);
    }
  });

  it('returns frozen results, so the shared memoised values cannot be corrupted', () => {
    const result = classifyRole('VP Sales & Marketing');
    assert.ok(Object.isFrozen(result));
    assert.ok(Object.isFrozen(result.departments));
  });

  it('copes with very long and unusual input', () => {
    const long = `Head of Growth ${'x'.repeat(10_000)}`;
    assert.deepEqual(classifyRole(long), { position: 'head of growth', departments: ['growth'], seniority: 'head' });
    assert.deepEqual(classifyRole('🚀 CEO 🚀'), { position: 'ceo', departments: [], seniority: 'c_level' });
    assert.deepEqual(classifyRole('&&// ,, --'), { position: null, departments: [], seniority: null });
  });
});
