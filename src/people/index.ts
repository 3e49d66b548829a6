export { PeopleDirectory } from './directory.js';
export { peopleRoutes, PEOPLE_ENDPOINT } from './routes.js';
export { PEOPLE_SHARED_SCHEMAS, PeopleQuery, PeopleResponse, PERSON_SIGNAL_TYPES, SIZE_BANDS, sizeBand } from './schemas.js';
export { peopleFilter, askedTitleKeys, heldTitleKeys } from './filter.js';
