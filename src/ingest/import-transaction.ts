import type { Database, Queryable } from '../platform/db/index.js';

interface WorkStep {
  work: (tx: Queryable) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}
type Step = WorkStep | { end: 'commit' | 'rollback' };

/** Thrown inside the transaction to roll it back on purpose; never escapes finish(). */
class RollbackRequest extends Error {}

/**
 * One database transaction fed step by step from outside: Database.transaction() wants the
 * whole unit of work as one callback, but an import decides to commit or roll back only at
 * the end of its input, and keeps reading (to report every bad record) after deciding not to
 * write any more. The transaction starts with the first step, so an input without a single
 * valid record never opens one.
 */
export class TransactionSession {
  private readonly queue: Step[] = [];
  private wake: (() => void) | undefined;
  private outcome: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly db: Database,
    /** Runs first inside the transaction (session settings for the import). */
    private readonly setup: (tx: Queryable) => Promise<void> = async () => undefined,
  ) {}

  get started(): boolean {
    return this.outcome !== undefined;
  }

  /** Runs work inside the transaction, after the steps queued before it. */
  run<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure.error);
    this.start();
    return new Promise<T>((resolve, reject) => {
      this.push({ work, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Commits (or rolls back) once the queued steps are done; a failure of the transaction is thrown. */
  async finish(commit: boolean): Promise<void> {
    if (!this.outcome) return;
    this.push({ end: commit ? 'commit' : 'rollback' });
    try {
      await this.outcome;
    } catch (err) {
      if (!(err instanceof RollbackRequest)) throw err;
    }
  }

  private push(step: Step): void {
    this.queue.push(step);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async take(): Promise<Step> {
    while (this.queue.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    return this.queue.shift()!;
  }

  private start(): void {
    if (this.outcome) return;
    this.outcome = this.db.transaction(async (tx) => {
      await this.setup(tx);
      for (;;) {
        const step = await this.take();
        if ('end' in step) {
          if (step.end === 'rollback') throw new RollbackRequest('rollback requested');
          return;
        }
        try {
          step.resolve(await step.work(tx));
        } catch (err) {
          step.reject(err);
          throw err;
        }
      }
    });
    this.outcome.catch((err: unknown) => {
      if (err instanceof RollbackRequest) return;
      this.failure = { error: err };
      // Steps queued behind the failure never run.
      for (const step of this.queue.splice(0)) if ('work' in step) step.reject(err);
    });
  }
}
