// The prompts of `dealsignal mcp`: ready-made tasks a user picks in their assistant, each a message
// that tells the model which tools to call, with which arguments, and how to present the answer.
import { DEPARTMENTS } from '../catalog/index.js';
import { ArgumentError } from './mcp-tools.js';

export interface PromptArgument {
  name: string;
  description: string;
  required?: boolean;
}

export interface McpPrompt {
  name: string;
  title: string;
  description: string;
  arguments: readonly PromptArgument[];
  /** The text of the user message for these arguments, on this day; throws an ArgumentError for one it cannot use. */
  text(args: Readonly<Record<string, string | undefined>>, now: Date): string;
}

/** A window as `signal_date_range` takes it: `<n><unit>`, unit d, w, m or y. */
const WINDOW = /^(\d{1,4})([dwmy])$/;
const DAY_MS = 86_400_000;
/** The longest window the API takes: a hundred years. */
const MAX_WINDOW_DAYS = 36_525;
const DEFAULT_WINDOW = '90d';
/** Decision makers: whom a prompt asks for when the user names no seniority. */
const DECISION_MAKERS = 'c_level,vp,founder';
/** Companies read in one page, and the companies looked up one by one at most. */
const COMPANIES_PAGE = 100;
const LOOKUPS_MAX = 10;
const COMPANY_FIELDS = ['id', 'name', 'website', 'industry', 'headquartersCountry', 'employeeCount'];

/** The UTC day a window starts on, counted back from `now` as the API counts `signal_date_range`. */
export function windowStartDay(window: string, now: Date): string {
  const match = WINDOW.exec(window);
  const n = match ? Number(match[1]) : 0;
  const unit = match?.[2];
  const days = unit === 'd' ? n : unit === 'w' ? n * 7 : unit === 'm' ? n * 30.44 : n * 365.25;
  if (!match || n < 1 || days > MAX_WINDOW_DAYS) {
    throw new ArgumentError(
      `window: "${window}" is not a window: give <n><unit> with unit d, w, m or y (e.g. 30d, 90d, 6m, 1y), at most 100 years`,
    );
  }
  const start = new Date(now.getTime());
  if (unit === 'm') start.setUTCMonth(start.getUTCMonth() - n);
  else if (unit === 'y') start.setUTCFullYear(start.getUTCFullYear() - n);
  else start.setTime(now.getTime() - (unit === 'w' ? n * 7 : n) * DAY_MS);
  return start.toISOString().slice(0, 10);
}

/** A comma-separated list of function ids, each checked; undefined when none is given. */
function functionIds(raw: string | undefined): string | undefined {
  const ids = (raw ?? '')
    .split(',')
    .map((id) =>
      id
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_'),
    )
    .filter((id) => id !== '');
  if (ids.length === 0) return undefined;
  const unknown = ids.filter((id) => !(DEPARTMENTS as readonly string[]).includes(id));
  if (unknown.length > 0) {
    throw new ArgumentError(`function: ${unknown.join(', ')} is not a function id; use one or more of ${DEPARTMENTS.join(', ')}`);
  }
  return [...new Set(ids)].join(',');
}

/** A free-text argument, trimmed; undefined when empty. Long values are refused rather than cut. */
function textArgument(name: string, raw: string | undefined, max: number): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (value.length > max) throw new ArgumentError(`${name}: at most ${max} characters`);
  return value;
}

/** A tool call as the prompt spells it: the tool's name and its arguments as JSON. */
const toolCall = (tool: string, args: Record<string, unknown>) => `${tool} ${JSON.stringify(args)}`;

const fundedAndHiring: McpPrompt = {
  name: 'funded_and_hiring',
  title: 'Funded and hiring: whom to call',
  description:
    'Companies that raised a round recently and are hiring, and their decision makers (C-level, VPs, founders) to ' +
    'call, each with the reason: the signal that makes now the time. Uses list_companies and find_people.',
  arguments: [
    {
      name: 'function',
      description: `The function of the people to call, one or more comma-separated ids: ${DEPARTMENTS.join(', ')}. Default: all`,
    },
    {
      name: 'country',
      description: "The companies' headquarters country or countries, comma-separated (ISO code or English name; default: any)",
    },
    {
      name: 'window',
      description: `How recent the round and the hiring are: <n><unit>, unit d, w, m or y (30d, 6m; default ${DEFAULT_WINDOW})`,
    },
  ],
  text(args, now) {
    const window = textArgument('window', args.window, 10)?.toLowerCase() ?? DEFAULT_WINDOW;
    const since = windowStartDay(window, now);
    const fn = functionIds(args.function);
    const country = textArgument('country', args.country, 200);
    const companies = {
      has_signals: 'funding_round,hiring',
      funding_round_since: since,
      hiring_since: since,
      ...(country && { countries: country }),
    };
    const people = {
      signal_type: 'funding_round',
      signal_date_range: window,
      seniority: DECISION_MAKERS,
      ...(fn && { function: fn }),
      ...(country && { country }),
    };
    const lookup = { signal_type: 'funding_round', seniority: DECISION_MAKERS, ...(fn && { function: fn }) };
    const whom = fn ? `decision makers in ${fn.replaceAll(',', ' or ')}` : 'decision makers';
    return [
      `Find whom I should call: ${whom} (C-level, VPs, founders) at companies that raised a funding round in the last ` +
        `${window} (since ${since}) and are hiring${country ? `, with headquarters in ${country}` : ''}. Use the ` +
        'dealsignal tools as follows, with these arguments exactly.',
      '',
      '1. Companies that raised and are hiring. First count them (free):',
      `   ${toolCall('list_companies', { ...companies, count: true })}`,
      '   Then read them:',
      `   ${toolCall('list_companies', { ...companies, limit: COMPANIES_PAGE, fields: COMPANY_FIELDS })}`,
      `   If there are more than ${COMPANIES_PAGE}, tell me how many and work on this first page unless I ask for more.`,
      '   If there are none, say so and stop.',
      '',
      '2. Their decision makers, with the round as the reason to call:',
      `   ${toolCall('find_people', { ...people, limit: 100 })}`,
      '   Keep the people whose company.domain is the website of a company of step 1 (compare domains without the ' +
        'scheme, `www.` and path). While `hasNextPage` is true and companies of step 1 still have nobody, call it again ' +
        'with the next `page` (3 pages at most).',
      `   For up to ${LOOKUPS_MAX} companies of step 1 that still have nobody, ask for each by its website:`,
      `   ${toolCall('find_people', { ...lookup, company_domain: '<the website>' })}`,
      '',
      '3. Present whom to call, one line per person, grouped by company (newest round first): the name as given, the ' +
        'title, the LinkedIn URL, the company (name, domain, industry, size band) and the reason: matched_signal, its ' +
        'date and summary, with its source_url when there is one. When is_latest_signal is false, say that something ' +
        'newer has happened to the person or the company since (the round is not their latest news). End with the ' +
        'companies of step 1 where no one was found. Do not invent people, titles or contact details: use only what ' +
        'the tools returned.',
      '',
      'Each list call costs 1 credit (a page); count: true is free. If a tool answers an error, read its message, ' +
        'correct the argument it names and call again.',
    ].join('\n');
  },
};

export const MCP_PROMPTS: readonly McpPrompt[] = [fundedAndHiring];
