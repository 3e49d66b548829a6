import type { Database } from '../src/db/port.js';
import { ensureDatabase, ensureDataset, openBenchDatabase, type Dataset } from './database.js';
import { chooseLoadTool, type LoadTool } from './load.js';
import { parseOptions, type BenchOptions } from './options.js';
import { machineInfo, type MachineInfo } from './report.js';
import { buildProject } from './server.js';

export interface BenchSetup {
  options: BenchOptions;
  startedAt: Date;
  machine: MachineInfo;
  tool: LoadTool;
  /** The bench database, migrated and loaded; the caller closes it. */
  db: Database;
  dataset: Dataset;
}

/** What every load benchmark does first: its options, the machine, a fresh build, the load tool, the loaded data. */
export async function prepareBench(argv = process.argv.slice(2)): Promise<BenchSetup> {
  const options = parseOptions(argv, process.env);
  const startedAt = new Date();
  const machine = machineInfo();
  // Before the long data load: a build that fails should fail the run at once.
  buildProject();
  const tool = await chooseLoadTool();
  await ensureDatabase(options.databaseUrl);
  const db = await openBenchDatabase(options.databaseUrl);
  try {
    return { options, startedAt, machine, tool, db, dataset: await ensureDataset(db) };
  } catch (err) {
    await db.close();
    throw err;
  }
}
