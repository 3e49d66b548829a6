// Prints EXPLAIN (ANALYZE, BUFFERS) of each scenario's steady-state statements against the
// bench database: `node --import tsx bench/explain.ts [scenario ids...]`.
import { ensureDataset, openBenchDatabase } from './database.js';
import { openRecordingReadModel, steadyStateQueries } from './driver.js';
import { parseOptions } from './options.js';
import { buildScenarios } from './scenarios.js';

async function main(): Promise<void> {
  const ids = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const options = parseOptions([], process.env);
  const db = await openBenchDatabase(options.databaseUrl);
  try {
    const dataset = await ensureDataset(db);
    const scenarios = buildScenarios(dataset.asOf).filter((s) => ids.length === 0 || ids.includes(s.id));
    const { recordingDb, readModel } = await openRecordingReadModel(db);
    for (const scenario of scenarios) {
      console.log(`\n=== ${scenario.id}. ${scenario.label}: GET ${scenario.path}`);
      for (const statement of await steadyStateQueries(recordingDb, readModel, scenario)) {
        console.log(`params: ${JSON.stringify(statement.params)}`);
        const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.params);
        console.log(plan.map((row) => row['QUERY PLAN']).join('\n'));
      }
    }
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
