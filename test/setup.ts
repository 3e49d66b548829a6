// Loaded before every test file (npm test, npm run mutate: `--import ./test/setup.ts`; the
// property suites also import it, so a file run alone gets the same bounds).
//
// A property that finds a bug must fail in seconds with its counterexample, not shrink for a
// quarter of an hour: every fast-check run, shrinking included, is interrupted after
// PROPERTY_TIME_LIMIT_MS (15 s by default; the longest passing property takes about 6 s on a
// loaded machine) and the interruption is a failure. Interrupted while shrinking, it reports the
// smallest counterexample found so far.
import assert from 'node:assert';
import fc from 'fast-check';

const limit = Number(process.env.PROPERTY_TIME_LIMIT_MS ?? '') || 15_000;
fc.configureGlobal({ interruptAfterTimeLimit: limit, markInterruptAsFailure: true });

// assert.ok(value) without a message makes Node build one from the test's source: it reads the file
// and parses it with acorn from the failing call's position, which under the TypeScript loader
// points elsewhere, so it tries every token of the file and took two minutes on a failing
// signature test (passing, it costs nothing). Same message it then falls back to ("false ==
// true"), same stack (the test's line), at once.
const originalOk = assert.ok;
function ok(this: unknown, ...args: unknown[]): void {
  const [value, message] = args;
  if (args.length === 0) return Reflect.apply(originalOk, this, args) as void;
  if (value) return;
  if (message instanceof Error) throw message;
  throw new assert.AssertionError({
    actual: value,
    expected: true,
    operator: '==',
    message: message as string | undefined,
    stackStartFn: ok,
  });
}
assert.ok = ok as typeof assert.ok;
assert.strict.ok = ok as typeof assert.ok;
