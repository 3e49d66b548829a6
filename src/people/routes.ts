// GET /api/v2/people: the published People API (people.openapi.json), answered from the people
// directory; credits, limits and ETag/304 as the other v2 lists.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app-services.js';
import { settleCredits } from '../accounts/index.js';
import { conditionalList, keyedRoute, notModified, type ApiFamily } from '../platform/http/index.js';
import { sendSignalPage, signalPageTag } from '../read/index.js';
import { peopleFilter } from './filter.js';
import { PeopleQuery, PeopleResponse } from './schemas.js';
import { searchPeople } from './service.js';

export const PEOPLE_ENDPOINT = 'people.list';

const DESCRIPTION =
  'People at the companies that just moved, each with `matched_signal`: the reason to reach out now. People come from ' +
  'the job changes (the person in their new role) and the people named on funding rounds and M&A deals (their CEO and ' +
  'the employees in `contact_info`), each linked to their company by company resolution. One person per LinkedIn ' +
  "profile (else per name at a company), in their current role: their newest mention. A person's signals are their " +
  "own job change into that role and their company's funding rounds, M&A deals (as target or acquirer) and " +
  'acquisition signals. Filters combine with AND, the values of one filter with OR; a person qualifies when the ' +
  'newest of their signals of the asked `signal_type`s falls in `signal_date_range` (on or after now minus the ' +
  'range), and that signal is `matched_signal`; people without one are left out. Ordered by `matched_signal.date`, ' +
  'newest first, ties by a stable order. Exact `totalCount` on every filter. `name` is masked as published (first ' +
  'name and last initial). Each successful call costs 1 credit per page; `count=true`, 4xx and 5xx cost nothing.';

export function peopleRoutes(app: FastifyInstance, services: AppServices, family: ApiFamily): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/people',
    {
      ...conditionalList,
      ...keyedRoute(family, {
        tags: ['v2 people'],
        operationId: 'searchPeople',
        summary: 'Search people',
        description: DESCRIPTION,
        querystring: PeopleQuery,
        response: { 200: { ...PeopleResponse, description: 'A page of people' } },
      }),
    },
    async (request, reply) => {
      const filter = peopleFilter(request.query, services.now());
      const page = await searchPeople(services.people, filter);
      if (await notModified(request, reply, signalPageTag(services.entityTags, request, page))) return reply;
      const credits = await settleCredits(services.credits, request, PEOPLE_ENDPOINT, filter.count);
      request.creditsCharged = credits.used;
      if (credits.used > 0) services.metrics.creditsCharged.inc({ endpoint: PEOPLE_ENDPOINT }, credits.used);
      return sendSignalPage(reply, PEOPLE_ENDPOINT, page, credits);
    },
  );
}
