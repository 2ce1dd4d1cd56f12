import type { SyncPullResponse } from '@pharmacy/contracts';
import { describe, expect, it } from 'vitest';
import { type CentralClient, SyncNetworkError } from './client';
import { type ReplicaStore, Replicator } from './replicator';

/**
 * Last push and last pull are two times: a cycle whose push went through but whose pull did not moves only
 * the first. Central here is a stand-in at the network boundary (the client), the till's store an in-memory one.
 */
function stubs() {
  const central = { pullFails: false, pushes: 0 };
  const store: ReplicaStore = {
    needsBootstrap: async () => false,
    state: async () => ({ cursor: 0, epoch: 'e1', bootstrapped: true }),
    outbox: async () => [],
    recordPushResult: async () => 0,
    applyPullPage: async () => undefined,
    loadSnapshot: async () => ({ revision: 0, rows: 0 }),
    markResetRequired: async () => undefined,
    cleanup: async () => undefined,
    counts: async () => ({ pending: 0, rejected: 0, openConflicts: 0 }),
  };
  const client = {
    push: async () => {
      central.pushes++;
      return { accepted: [], rejected: [] };
    },
    pull: async (): Promise<SyncPullResponse> => {
      if (central.pullFails) throw new SyncNetworkError('central went away mid-cycle');
      return { epoch: 'e1', changes: [], next_revision: 0, has_more: false };
    },
    snapshot: async function* () {},
  } as unknown as CentralClient;
  return { central, replicator: new Replicator({ store, client, lockFile: '/nonexistent/unused.lock' }) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('replicator status times', () => {
  it('records the last push and the last pull separately', async () => {
    const { central, replicator } = stubs();
    expect(replicator.status()).toMatchObject({ lastPushAt: null, lastPullAt: null });
    await replicator.syncNow();
    const first = replicator.status();
    expect(first.lastPushAt).not.toBeNull();
    expect(first.lastPullAt).not.toBeNull();
    expect(Date.parse(first.lastPullAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first.lastPushAt ?? ''));

    await tick();
    central.pullFails = true;
    await expect(replicator.syncNow()).rejects.toThrow(/went away/);
    const second = replicator.status();
    expect(Date.parse(second.lastPushAt ?? '')).toBeGreaterThan(Date.parse(first.lastPushAt ?? ''));
    expect(second.lastPullAt).toBe(first.lastPullAt);
    expect(second.lastSuccessAt).toBe(first.lastSuccessAt);
    expect(second.lastError?.code).toBe('OFFLINE');
  });
});
