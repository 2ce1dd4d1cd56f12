import { type Transaction, TransactionBuilder } from 'kysely';

/**
 * Work to run once a transaction has committed, never after a rollback: waking the print worker for a job the
 * transaction queued, or the till's sync for a change it recorded.
 *
 * A transaction commits after its callback returns (on PostgreSQL asynchronously, while a hook's reads would
 * run on another connection; on SQLite once its group's COMMIT is on disk), so the transactions of the server's
 * databases (db/connection.ts, db/postgres.ts) collect their hooks and run them after it, and a retried
 * attempt's hooks are dropped with the attempt. Given no such transaction (a statement outside one), a hook
 * runs as a microtask, after the statement.
 */
type Hook = () => void;

const collecting = new WeakMap<object, Hook[]>();

export function afterCommit(trx: object, hook: Hook): void {
  const hooks = collecting.get(trx);
  if (hooks) hooks.push(hook);
  else queueMicrotask(hook);
}

export type Callback<DB, T> = (trx: Transaction<DB>) => Promise<T>;
export type Execute<DB, T> = (callback: Callback<DB, T>) => Promise<T>;

/**
 * Runs a transaction whose `afterCommit` hooks wait for its commit: `run` receives the wrapper to put around the
 * transaction's callback (around each attempt's, when it retries), and the hooks run once `run` has resolved.
 */
export async function withCommitHooks<DB, T>(
  run: (track: (callback: Callback<DB, T>) => Callback<DB, T>) => Promise<T>,
): Promise<T> {
  let hooks: Hook[] = [];
  const result = await run((callback) => (trx) => {
    // A retry is a new transaction: the hooks of the attempt that failed are forgotten with it.
    hooks = [];
    collecting.set(trx, hooks);
    return callback(trx);
  });
  for (const hook of hooks) queueMicrotask(hook);
  return result;
}

/**
 * The builder with execute() run through `around` (given the builder's own execute and the callback); its
 * setters (an isolation level, a read-only snapshot) return builders that keep the wrapper.
 */
export function aroundExecute<DB>(
  builder: TransactionBuilder<DB>,
  around: <T>(execute: Execute<DB, T>, callback: Callback<DB, T>) => Promise<T>,
): TransactionBuilder<DB> {
  return new Proxy(builder, {
    get(target, prop) {
      if (prop === 'execute')
        return <T>(callback: Callback<DB, T>) => around<T>((cb) => target.execute(cb), callback);
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        return result instanceof TransactionBuilder ? aroundExecute(result, around) : result;
      };
    },
  });
}

/** A transaction builder whose transactions run their afterCommit hooks after COMMIT. */
export const hookingCommits = <DB>(builder: TransactionBuilder<DB>): TransactionBuilder<DB> =>
  aroundExecute(builder, <T>(execute: Execute<DB, T>, callback: Callback<DB, T>) =>
    withCommitHooks<DB, T>((track) => execute(track(callback))),
  );
