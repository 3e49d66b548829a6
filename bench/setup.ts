import type { Database } from '../src/platform/db/port.js';
import { ensureDatabase, ensureDataset, openBenchDatabase, type Dataset } from './database.js';
import { chooseLoadTool, type LoadTool } from './load.js';
import { parseOptions, type BenchOptions, type PartDefaults } from './options.js';
import { machineInfo, type MachineInfo } from './report.js';
import { buildProject } from './server.js';

export interface BenchSetup<D = Dataset> {
  options: BenchOptions;
  startedAt: Date;
  machine: MachineInfo;
  tool: LoadTool;
  /** The bench database, migrated and loaded; the caller closes it. */
  db: Database;
  dataset: D;
}

export interface PartSetup<D> extends PartDefaults {
  /** How the part gets its data: loads it, or describes what the database already holds. */
  data: (db: Database) => Promise<D>;
}

/** What every load benchmark does first: its options, the machine, a fresh build, the load tool, the loaded data. */
export function prepareBench(argv = process.argv.slice(2)): Promise<BenchSetup> {
  return preparePart(argv, { data: ensureDataset });
}

/** prepareBench for a part with its own defaults or its own way of getting its data. */
export async function preparePart<D>(argv: string[], part: PartSetup<D>): Promise<BenchSetup<D>> {
  const options = parseOptions(argv, process.env, part);
  const startedAt = new Date();
  const machine = machineInfo();
  // Before the long data load: a build that fails should fail the run at once.
  buildProject();
  const tool = await chooseLoadTool();
  await ensureDatabase(options.databaseUrl);
  const db = await openBenchDatabase(options.databaseUrl);
  try {
    return { options, startedAt, machine, tool, db, dataset: await part.data(db) };
  } catch (err) {
    await db.close();
    throw err;
  }
}
