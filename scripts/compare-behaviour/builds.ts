// The two builds compared: a git ref checked out in a temporary worktree, or this working tree.
// Each is compiled with its own tsconfig.build.json into its own dist/, so bin/dealsignal.js runs
// exactly the code of that ref; node_modules is this checkout's, linked, so both run the same
// dependencies (and the SQL recorder patches the modules both load).
import { execFile } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Build {
  /** What was asked for: a git ref, or "worktree". */
  ref: string;
  /** The commit checked out (or HEAD of the working tree, marked as modified when it is). */
  description: string;
  dir: string;
  /** Set for a temporary worktree, which is removed at the end. */
  temporary: boolean;
}

export const WORKING_TREE = 'worktree';

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim();
}

export async function prepareBuild(root: string, ref: string, dir: string): Promise<Build> {
  if (ref === WORKING_TREE) {
    const head = await git(root, 'rev-parse', '--short', 'HEAD');
    const modified = (await git(root, 'status', '--porcelain', '--untracked-files=no')) !== '';
    await compile(root);
    return {
      ref,
      description: `working tree at ${head}${modified ? ' with uncommitted changes' : ''}`,
      dir: root,
      temporary: false,
    };
  }
  const commit = await git(root, 'rev-parse', '--verify', `${ref}^{commit}`);
  await git(root, 'worktree', 'add', '--detach', dir, commit);
  const build: Build = { ref, description: `${ref} (${commit.slice(0, 12)})`, dir, temporary: true };
  try {
    if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await compile(dir);
  } catch (err) {
    await removeBuild(root, build);
    throw err;
  }
  return build;
}

async function compile(dir: string): Promise<void> {
  try {
    await run(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const output = (err as { stdout?: string }).stdout ?? '';
    throw new Error(`the build of ${dir} failed:\n${output || (err as Error).message}`);
  }
}

/** Removes a temporary worktree (and git's record of it); the working tree is left alone. */
export async function removeBuild(root: string, build: Build): Promise<void> {
  if (!build.temporary) return;
  await git(root, 'worktree', 'remove', '--force', build.dir);
}
