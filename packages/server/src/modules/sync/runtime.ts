import path from 'node:path';
import type { SyncStatus } from '@pharmacy/contracts';
import { CentralClient, credentialFile, Replicator, readCredential } from '@pharmacy/sync';
import type { AppContext } from '../../app-context';
import { onLocalChange } from '../../db/changes';
import { AppError } from '../../http/errors';
import { VERSION } from '../../version';
import { compactChangeLog } from './meta';
import { ensureTestEntityTables } from './test-entities';
import { TillStore } from './till-store';

interface TillSync {
  store: TillStore;
  replicator: Replicator | null;
  centralUrl: string | null;
  deviceId: string | null;
}

const tills = new WeakMap<AppContext, TillSync>();

function deviceCredential(
  app: AppContext,
): { centralUrl: string; deviceId: string; deviceToken: string } | null {
  const { config } = app;
  if (config.syncDeviceId && config.syncDeviceToken && config.centralUrl)
    return {
      centralUrl: config.centralUrl,
      deviceId: config.syncDeviceId,
      deviceToken: config.syncDeviceToken,
    };
  const stored = readCredential(config.syncDeviceFile ?? credentialFile(config.dataDir));
  const centralUrl = config.centralUrl ?? stored?.central_url;
  if (!stored || !centralUrl) return null;
  return { centralUrl, deviceId: stored.device_id, deviceToken: stored.device_token };
}

/**
 * Called once by createServer. A till with CENTRAL_URL and a device credential starts its replicator (stopped
 * by close()); central compacts its change log past the tombstone retention once a day.
 */
export async function startSync(app: AppContext): Promise<void> {
  if (process.env.PHARMACY_SYNC_TEST_ENTITIES === '1') await ensureTestEntityTables(app);
  if (app.config.mode === 'central') {
    const compact = () =>
      compactChangeLog(app, app.config.syncTombstoneRetentionDays).catch((err: unknown) =>
        app.log.error({ err }, 'sync: change log compaction failed'),
      );
    const timer = setInterval(compact, 24 * 3_600_000);
    timer.unref();
    app.closers.push(() => clearInterval(timer));
    return;
  }
  const store = new TillStore(app);
  const cred = deviceCredential(app);
  const till: TillSync = {
    store,
    replicator: null,
    centralUrl: cred?.centralUrl ?? null,
    deviceId: cred?.deviceId ?? null,
  };
  tills.set(app, till);
  if (!cred) return;
  const replicator = new Replicator({
    store,
    client: new CentralClient({ ...cred, appVersion: VERSION }),
    lockFile: path.join(app.config.dataDir, 'sync.lock'),
    log: app.log,
    intervalMs: app.config.syncIntervalMs,
    backoffMaxMs: app.config.syncBackoffMaxMs,
  });
  till.replicator = replicator;
  const unsubscribe = onLocalChange(() => replicator.notify());
  replicator.start();
  app.closers.push(async () => {
    unsubscribe();
    await replicator.stop();
  });
  app.log.info({ central: cred.centralUrl, device_id: cred.deviceId }, 'sync: replicator started');
}

/** The till replicator of this server, if any (tests and the desktop shell). */
export const tillReplicator = (app: AppContext): Replicator | null => tills.get(app)?.replicator ?? null;

export async function syncStatus(app: AppContext): Promise<SyncStatus> {
  const till = tills.get(app);
  if (!till) {
    return {
      mode: app.config.mode,
      configured: false,
      central_url: null,
      device_id: null,
      running: false,
      online: true,
      bootstrapped: true,
      last_attempt_at: null,
      last_success_at: null,
      last_error: null,
      pending: 0,
      rejected: 0,
      open_conflicts: 0,
      cursor: null,
      epoch: null,
    };
  }
  const [state, counts] = await Promise.all([till.store.state(), till.store.counts()]);
  const st = till.replicator?.status();
  return {
    mode: app.config.mode,
    configured: till.replicator !== null,
    central_url: till.centralUrl,
    device_id: till.deviceId,
    running: st?.running ?? false,
    online: st?.online ?? false,
    bootstrapped: till.replicator ? state.bootstrapped : true,
    last_attempt_at: st?.lastAttemptAt ?? null,
    last_success_at: st?.lastSuccessAt ?? null,
    last_error: st?.lastError ?? null,
    pending: counts.pending,
    rejected: counts.rejected,
    open_conflicts: counts.openConflicts,
    cursor: till.replicator ? state.cursor : null,
    epoch: state.epoch,
  };
}

/**
 * Selling calls this before a sale: a till that replicates refuses to sell until it holds central's data
 * (prices, users, settings). A standalone till (no central configured) and central always pass.
 */
export async function assertBootstrapped(app: AppContext): Promise<void> {
  const till = tills.get(app);
  if (!till?.replicator) return;
  const { bootstrapped } = await till.store.state();
  if (!bootstrapped)
    throw new AppError(
      503,
      'NOT_BOOTSTRAPPED',
      'This till has not yet loaded its data from head office; it can sell once the first sync completes.',
    );
}
