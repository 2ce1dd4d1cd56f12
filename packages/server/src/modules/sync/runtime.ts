import fs from 'node:fs';
import path from 'node:path';
import type { ConnectTillRequest, SyncStatus } from '@pharmacy/contracts';
import {
  CentralClient,
  credentialFile,
  type DeviceCredential,
  RegisterError,
  Replicator,
  readCredential,
  registerWithCentral,
  writeCredential,
} from '@pharmacy/sync';
import type { AppContext } from '../../app-context';
import { onLocalChange } from '../../db/changes';
import { publishSafeRevision } from '../../db/revision-order';
import { AppError, Conflict, Invalid } from '../../lib/errors';
import { repeatInBackground } from '../../lib/background';
import { VERSION } from '../../version';
import { adoptDeviceId } from '../fiscal/device';
import type { AuthUser } from '../../http/auth';
import { keepVerifier, verifierToKeep } from './disconnect-verifier';
import { assertConnectKeepsRecords, sessionOpenHere } from './held-records';
import { compactChangeLog } from './meta';
import { syncStore } from './store';
import { ensureTestEntityTables } from './test-entities';
import { TillStore } from './till-store';

interface TillSync {
  store: TillStore;
  replicator: Replicator | null;
  centralUrl: string | null;
  deviceId: string | null;
  deviceName: string | null;
  branchId: string | null;
  /** Configured by SYNC_DEVICE_ID/TOKEN: the screen may not disconnect what the environment sets. */
  fromEnvironment: boolean;
  unsubscribe: (() => void) | null;
}

const tills = new WeakMap<AppContext, TillSync>();

const credentialPath = (app: AppContext) => app.config.syncDeviceFile ?? credentialFile(app.config.dataDir);

function deviceCredential(app: AppContext): {
  centralUrl: string;
  deviceId: string;
  deviceToken: string;
  name: string | null;
  branchId: string | null;
  fromEnvironment: boolean;
} | null {
  const { config } = app;
  if (config.syncDeviceId && config.syncDeviceToken && config.centralUrl)
    return {
      centralUrl: config.centralUrl,
      deviceId: config.syncDeviceId,
      deviceToken: config.syncDeviceToken,
      name: null,
      branchId: null,
      fromEnvironment: true,
    };
  const stored = readCredential(credentialPath(app));
  const centralUrl = config.centralUrl ?? stored?.central_url;
  if (!stored || !centralUrl) return null;
  return {
    centralUrl,
    deviceId: stored.device_id,
    deviceToken: stored.device_token,
    name: stored.name,
    branchId: stored.branch_id,
    fromEnvironment: false,
  };
}

/** What a till reports to head office after each successful sync cycle (books/ adds its figures). */
const cycleReports = new Set<(app: AppContext, client: CentralClient) => Promise<void>>();

export function afterEachSyncCycle(report: (app: AppContext, client: CentralClient) => Promise<void>): void {
  cycleReports.add(report);
}

/** The registered device this till syncs as; null on central and on a till never connected to head office. */
export function tillDeviceId(app: AppContext): string | null {
  if (app.config.mode === 'central') return null;
  return tills.get(app)?.deviceId ?? deviceCredential(app)?.deviceId ?? null;
}

/** Starts the replicator for a credential (at boot, or when the Head office screen connects the till). */
function startReplicator(
  app: AppContext,
  till: TillSync,
  cred: { centralUrl: string; deviceId: string; deviceToken: string },
): void {
  const replicator = new Replicator({
    store: till.store,
    client: new CentralClient({ ...cred, appVersion: VERSION }),
    lockFile: path.join(app.config.dataDir, 'sync.lock'),
    log: app.log,
    intervalMs: app.config.syncIntervalMs,
    backoffMaxMs: app.config.syncBackoffMaxMs,
    afterCycle: async (client) => {
      for (const report of cycleReports) await report(app, client);
    },
  });
  replicator.start();
  till.replicator = replicator;
  till.centralUrl = cred.centralUrl;
  till.deviceId = cred.deviceId;
  till.unsubscribe = onLocalChange(() => replicator.notify());
  app.log.info({ central: cred.centralUrl, device_id: cred.deviceId }, 'sync: replicator started');
}

async function stopReplicator(till: TillSync): Promise<void> {
  till.unsubscribe?.();
  till.unsubscribe = null;
  await till.replicator?.stop();
  till.replicator = null;
}

/** How often central publishes the safe revision its read replica's pulls and snapshots read up to. */
const PUBLISH_FOR_REPLICA_MS = 200;

/**
 * Called once by createServer. A till with CENTRAL_URL and a device credential starts its replicator (stopped
 * by close()); central compacts its change log past the tombstone retention once a day.
 */
export async function startSync(app: AppContext): Promise<void> {
  if (process.env.PHARMACY_SYNC_TEST_ENTITIES === '1') await ensureTestEntityTables(app);
  if (app.config.mode === 'central') {
    repeatInBackground(app, 24 * 3_600_000, 'sync: change log compaction failed', () =>
      compactChangeLog(app, app.config.syncTombstoneRetentionDays),
    );
    // Central on PostgreSQL with a read replica publishes the safe revision for it (db/revision-order.ts).
    if (app.readDb !== app.db)
      repeatInBackground(app, PUBLISH_FOR_REPLICA_MS, 'sync: publishing the safe revision failed', () =>
        publishSafeRevision(app.db),
      );
    return;
  }
  const cred = deviceCredential(app);
  const till: TillSync = {
    store: new TillStore(app),
    replicator: null,
    centralUrl: cred?.centralUrl ?? null,
    deviceId: cred?.deviceId ?? null,
    deviceName: cred?.name ?? null,
    branchId: cred?.branchId ?? null,
    fromEnvironment: cred?.fromEnvironment ?? false,
    unsubscribe: null,
  };
  tills.set(app, till);
  app.closers.push(() => stopReplicator(till));
  if (!cred) return;
  await becomeRegisteredDevice(app, cred.deviceId);
  startReplicator(app, till, cred);
}

/**
 * Before the replicator runs as a registered device: the till issues its fiscal documents as that device (28.3)
 * and never sends the demo catalogue's stock (28.2).
 */
async function becomeRegisteredDevice(app: AppContext, deviceId: string): Promise<void> {
  await syncStore(app.db).skipDemoChanges(app.db);
  // A session open under the old identity would be left open for ever: the switch waits for its Z report (a
  // till connected before this rule adopts its registered identity at the first start after it is closed).
  if (await sessionOpenHere(app))
    app.log.warn({ device_id: deviceId }, 'sync: a cash session is open; the fiscal identity stays as it is');
  else if (await adoptDeviceId(app.db, deviceId))
    app.log.info({ device_id: deviceId }, 'sync: fiscal documents are now issued as the registered device');
}

function registerProblem(err: RegisterError): AppError {
  if (err.code === 'CENTRAL_UNREACHABLE') return new AppError(502, err.code, err.message);
  return new Invalid(err.message, err.field ? [{ path: err.field, message: err.message }] : [], err.code);
}

/** The Head office screen's errors: RegisterError as a 400/502 problem naming the field to fix. */
export async function viaCentral<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RegisterError) throw registerProblem(err);
    throw err;
  }
}

/**
 * Registers this till with central as `npm run till:register` does (the same registerWithCentral), stores the
 * credential (0600) and starts the replicator without a restart. Nothing is half-done: every check runs before
 * central is asked, and the credential is written only once central has registered the device.
 */
export async function connectTill(app: AppContext, input: ConnectTillRequest): Promise<SyncStatus> {
  const till = tills.get(app);
  if (!till || app.config.mode === 'central')
    throw new Conflict('Head office does not connect to itself: this is the central server.', 'CENTRAL_MODE');
  if (till.replicator)
    throw new Conflict(
      `This till is already connected to head office at ${till.centralUrl}.`,
      'ALREADY_CONNECTED',
    );
  await assertConnectKeepsRecords(app, input.branch_id);
  const file = credentialPath(app);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.accessSync(path.dirname(file), fs.constants.W_OK);
  const credential: DeviceCredential = await viaCentral(() =>
    registerWithCentral({
      centralUrl: input.central_url,
      email: input.email,
      password: input.password,
      name: input.name,
      ...(input.branch_id && { branchId: input.branch_id }),
    }),
  );
  writeCredential(file, credential);
  const cred = {
    centralUrl: app.config.centralUrl ?? credential.central_url,
    deviceId: credential.device_id,
    deviceToken: credential.device_token,
  };
  try {
    await becomeRegisteredDevice(app, cred.deviceId);
    startReplicator(app, till, cred);
  } catch (err) {
    fs.rmSync(file, { force: true });
    throw err;
  }
  till.deviceName = credential.name;
  till.branchId = credential.branch_id;
  till.fromEnvironment = false;
  app.log.info(
    { device_id: credential.device_id, name: credential.name },
    'sync: till connected to head office',
  );
  return syncStatus(app);
}

/**
 * Stops replicating and forgets the credential; refused while any change (a sale...) waits to be sent, so
 * nothing sold here is stranded. The device stays registered on central until an admin there revokes it. The
 * disconnecting admin confirms their password, and the till keeps a verifier for them (disconnect-verifier.ts).
 */
export async function disconnectTill(app: AppContext, user: AuthUser, password: string): Promise<SyncStatus> {
  const till = tills.get(app);
  if (!till?.replicator) throw new Conflict('This till is not connected to head office.', 'NOT_CONNECTED');
  if (till.fromEnvironment)
    throw new Conflict(
      'This till is connected by its environment (SYNC_DEVICE_ID and SYNC_DEVICE_TOKEN); remove them to disconnect.',
      'CONFIGURED_BY_ENVIRONMENT',
    );
  const { pending } = await till.store.counts();
  if (pending > 0)
    throw new Conflict(
      `${pending} change${pending === 1 ? '' : 's'} (sales and other records) still wait to be sent to head office. Sync them first (Sync now, with head office reachable), then disconnect.`,
      'PENDING_CHANGES',
    );
  const verifier = await verifierToKeep(app, till.centralUrl ?? '', user, password);
  await stopReplicator(till);
  fs.rmSync(credentialPath(app), { force: true });
  await keepVerifier(app, user.id, verifier);
  Object.assign(till, { centralUrl: null, deviceId: null, deviceName: null, branchId: null });
  app.log.info({}, 'sync: till disconnected from head office');
  return syncStatus(app);
}

/** Runs a replication cycle now; its failure is reported in the status (last_error), not thrown. */
export async function syncNow(app: AppContext): Promise<SyncStatus> {
  const till = tills.get(app);
  if (!till?.replicator) throw new Conflict('This till is not connected to head office.', 'NOT_CONNECTED');
  await till.replicator.syncNow().catch(() => undefined);
  return syncStatus(app);
}

/** The head office a connected till replicates with, or null (a single shop, or central itself). */
export const connectedCentral = (app: AppContext): string | null => {
  const till = tills.get(app);
  return till?.replicator ? till.centralUrl : null;
};

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
      last_push_at: null,
      last_pull_at: null,
      last_error: null,
      pending: 0,
      rejected: 0,
      open_conflicts: 0,
      cursor: null,
      epoch: null,
      device_name: null,
      branch_id: null,
      bootstrap_progress: null,
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
    last_push_at: st?.lastPushAt ?? null,
    last_pull_at: st?.lastPullAt ?? null,
    last_error: st?.lastError ?? null,
    pending: counts.pending,
    rejected: counts.rejected,
    open_conflicts: counts.openConflicts,
    cursor: till.replicator ? state.cursor : null,
    epoch: state.epoch,
    device_name: till.deviceName,
    branch_id: till.branchId,
    bootstrap_progress: till.store.progress && { ...till.store.progress },
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
