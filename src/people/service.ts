// A page of people as the published People API serves it: the directory's answer, each person
// with their company and the signal that matched (the newest of the asked types in the window).
import type { PeopleDirectory, PersonView } from './directory.js';
import type { PeopleFilter } from './filter.js';
import { maskedName, moveSignal, type PersonSignal } from './sources.js';
import { PERSON_SIGNAL_TYPES, type PersonRecord } from './schemas.js';

export interface PeopleAnswer {
  /** The page's people as one JSON array text. */
  dataJson: string;
  total: number;
  page: number;
  limit: number;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A person as served, with the newest of their signals of the asked types as `matched_signal`. */
export function servedPerson(view: PersonView, types: PeopleFilter['signalTypes']): PersonRecord {
  const { current, company } = view;
  const signals: Record<(typeof PERSON_SIGNAL_TYPES)[number], PersonSignal | undefined> = {
    funding_round: view.funding,
    acquisition: view.acquisition,
    job_change: view.move && moveSignal(view.move),
  };
  let matched: PersonSignal | undefined;
  let newest: PersonSignal | undefined;
  for (const type of PERSON_SIGNAL_TYPES) {
    const signal = signals[type];
    if (signal === undefined) continue;
    if (newest === undefined || signal.at > newest.at) newest = signal;
    if (types.includes(type) && (matched === undefined || signal.at > matched.at)) matched = signal;
  }
  // The directory serves only people with a signal of the asked types.
  matched ??= newest!;
  return {
    name: maskedName(current.name),
    linkedin_url: current.linkedinUrl,
    title: current.title,
    status: 'active',
    city: null,
    company: {
      name: company?.name ?? current.companyName,
      domain: company?.domain ?? null,
      linkedin_url: company?.linkedinUrl ?? current.companyLinkedinUrl,
      country: company?.country ?? null,
      city: null,
      size_band: company?.sizeBand ?? null,
      industry: company?.industry ?? null,
    },
    is_latest_signal: matched.at >= newest!.at,
    matched_signal: { type: matched.type, date: day(matched.at), summary: matched.summary, source_url: matched.sourceUrl },
  };
}

export async function searchPeople(directory: PeopleDirectory, filter: PeopleFilter): Promise<PeopleAnswer> {
  const { total, people } = await directory.search(filter);
  return {
    dataJson: JSON.stringify(people.map((view) => servedPerson(view, filter.signalTypes))),
    total,
    page: filter.page,
    limit: filter.limit,
  };
}
