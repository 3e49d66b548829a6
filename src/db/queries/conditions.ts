/**
 * Collects WHERE conditions; each "?" in a condition becomes the next $n placeholder.
 *
 * Broad filters can also be given a second form, the same test written so no index applies
 * (`(col || '') = ...`). When the exact count shows a filter matches many rows, the page is
 * found with that form: the planner then walks the newest-first index and stops after one
 * page, instead of collecting every match through a bitmap and sorting it, which is what its
 * estimates (blind to correlated columns and substring matches) otherwise lead it to.
 */
export class Conditions {
  readonly conditions: string[] = [];
  readonly walkConditions: string[] = [];
  readonly params: unknown[] = [];

  add(condition: string, ...values: unknown[]): this {
    return this.addWithWalk(condition, condition, ...values);
  }

  addWithWalk(condition: string, walkCondition: string, ...values: unknown[]): this {
    const first = this.params.length;
    for (const value of values) this.params.push(value);
    const number = (text: string) => {
      let i = 0;
      return text.replace(/\?/g, () => `$${first + ++i}`);
    };
    this.conditions.push(number(condition));
    this.walkConditions.push(number(walkCondition));
    return this;
  }
}

/** Filters shared by the v1 tables (funding_rounds, ma_deals). */
export interface CompanyFilter {
  categoryKeys: string[];
  countryKey?: string;
  websiteKey?: string;
  linkedinKey?: string;
  /** Inclusive lower bound on sort_at (ISO timestamp). */
  from?: string;
  /** Exclusive upper bound on sort_at (ISO timestamp). */
  before?: string;
}

export function companyConditions(filter: CompanyFilter, c = new Conditions()): Conditions {
  if (filter.categoryKeys.length > 0) c.add('category_keys && ?::text[]', filter.categoryKeys);
  if (filter.countryKey !== undefined) c.add('country_key = ?', filter.countryKey);
  if (filter.websiteKey !== undefined) c.add('website_key = ?', filter.websiteKey);
  if (filter.linkedinKey !== undefined) c.add('linkedin_keys @> ARRAY[?::text]', filter.linkedinKey);
  if (filter.from !== undefined) c.add('sort_at >= ?::timestamptz', filter.from);
  if (filter.before !== undefined) c.add('sort_at < ?::timestamptz', filter.before);
  return c;
}

/** A LIKE pattern matching the text anywhere, with the user's % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
