export { SCALES, seedDatabase, startOfTodayUtc, countAll, DEMO_SEED, type Scale } from './seed.js';
