import type { PushOutcome } from './push-change';

/**
 * Sync on SQLite (a till, a small central), as syncStore (store.ts) picks it: one writer, and a statement costs
 * a function call, so a batch is applied one change at a time in one transaction.
 */
export const sqliteSyncStore = {
  applyBatch: (
    _app: unknown,
    _from: unknown,
    rawChanges: unknown[],
    _appVersion: string | null,
    oneByOne: (changes: unknown[]) => Promise<PushOutcome>,
  ): Promise<PushOutcome> => oneByOne(rawChanges),
};
