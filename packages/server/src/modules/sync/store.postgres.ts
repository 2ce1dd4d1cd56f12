import type { AppContext } from '../../app-context';
import type { PushOutcome, PushSource } from './push-change';
import { isInsertOnce, pushSetWise } from './push-setwise';

/**
 * Sync on PostgreSQL (central), as syncStore (store.ts) picks it: a batch as runs of changes, in order, each
 * committed on its own (a batch is transport; every change has its own stored result). Runs of insert-once
 * changes go set-wise (push-setwise.ts); the others, and a set-wise run that met a failing change, one change
 * at a time.
 */
export const postgresSyncStore = {
  async applyBatch(
    app: AppContext,
    from: PushSource,
    rawChanges: unknown[],
    appVersion: string | null,
    oneByOne: (changes: unknown[]) => Promise<PushOutcome>,
  ): Promise<PushOutcome> {
    const out: PushOutcome = { accepted: [], rejected: [] };
    for (const run of runsOf(rawChanges)) {
      const part =
        (run.insertOnce ? await pushSetWise(app, from, run.changes, appVersion) : null) ??
        (await oneByOne(run.changes));
      out.accepted.push(...part.accepted);
      out.rejected.push(...part.rejected);
      if (part.retryFrom !== undefined) {
        out.retryFrom = part.retryFrom;
        break;
      }
    }
    return out;
  },
};

/** Shorter runs of insert-once changes (a delivery's batch, movement, batch, movement…) join their neighbours. */
const MIN_SET_WISE_RUN = 8;

/** Consecutive changes grouped by whether they go set-wise: insert-once, in a run long enough to pay. */
function runsOf(rawChanges: unknown[]): Array<{ insertOnce: boolean; changes: unknown[] }> {
  const byKind: Array<{ insertOnce: boolean; changes: unknown[] }> = [];
  const append = (runs: typeof byKind, insertOnce: boolean, changes: unknown[]) => {
    const last = runs.at(-1);
    if (last?.insertOnce === insertOnce) last.changes.push(...changes);
    else runs.push({ insertOnce, changes: [...changes] });
  };
  for (const raw of rawChanges) append(byKind, isInsertOnce(raw), [raw]);
  const runs: typeof byKind = [];
  for (const run of byKind)
    append(runs, run.insertOnce && run.changes.length >= MIN_SET_WISE_RUN, run.changes);
  return runs;
}
