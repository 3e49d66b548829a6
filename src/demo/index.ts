export { SCALES, seedDatabase, startOfTodayUtc, DEMO_SEED } from './seed.js';
export { DEMO_GENERATORS, demoGeneratorOf, type DemoGenerator, type Scale } from './generators.js';
