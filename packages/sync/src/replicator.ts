import BetterSqlite3 from 'better-sqlite3';
import type { SyncChange, SyncPullResponse, SyncPushResponse } from '@pharmacy/contracts';
import { type CentralClient, SyncHttpError, SyncNetworkError } from './client';

/** The till database as the replicator needs it (implemented by @pharmacy/server's TillStore). */
export interface ReplicaStore {
  needsBootstrap(): Promise<boolean>;
  state(): Promise<{ cursor: number; epoch: string | null; bootstrapped: boolean }>;
  outbox(
    limit: number,
    maxBytes: number,
  ): Promise<Array<{ revision: number; bytes: number; change: SyncChange }>>;
  recordPushResult(
    batch: Array<{ revision: number; bytes: number; change: SyncChange }>,
    res: SyncPushResponse,
  ): Promise<number>;
  applyPullPage(page: SyncPullResponse): Promise<void>;
  loadSnapshot(lines: AsyncIterable<string>): Promise<{ revision: number; rows: number }>;
  markResetRequired(reason: string): Promise<void>;
  cleanup(): Promise<void>;
  counts(): Promise<{ pending: number; rejected: number; openConflicts: number }>;
}

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ReplicatorOptions {
  store: ReplicaStore;
  client: CentralClient;
  /** Identifies the till database; one loop per key in a process, and a lock file across processes. */
  lockFile: string;
  log?: Logger;
  batchMaxChanges?: number;
  batchMaxBytes?: number;
  pullPageSize?: number;
  /** Pause between successful cycles (a pull poll); new local changes wake the loop at once. */
  intervalMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  random?: () => number;
  /** After each successful cycle (the till reports its books); its failure is logged, never fails the cycle. */
  afterCycle?: (client: CentralClient) => Promise<void>;
}

export interface ReplicatorStatus {
  running: boolean;
  online: boolean;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  /** When the outbox was last pushed out to central, all of it (a cycle whose pull then failed still sets it). */
  lastPushAt: string | null;
  /** When this till last pulled central's changes up to date (or loaded its snapshot). */
  lastPullAt: string | null;
  lastError: { code: string; message: string; at: string } | null;
  consecutiveFailures: number;
}

export class TemporaryPushError extends Error {
  readonly code = 'RETRY';
}

const running = new Set<string>();

/** Exponential backoff with full jitter: base * 2^n, capped, times a random factor in [0.5, 1). */
export function backoffDelay(failures: number, baseMs: number, maxMs: number, random = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
  return Math.round(exp * (0.5 + random() / 2));
}

/**
 * Takes the till's replicator lock: an exclusive SQLite lock on a small file, held by this process's
 * connection. The operating system drops it when the process dies, however it dies, so a crashed or killed
 * till never locks its successor out (a pid file cannot tell a dead pid from a reused or zombie one).
 */
export function acquireLock(file: string): () => void {
  const db = new BetterSqlite3(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the exclusive lock; in EXCLUSIVE mode the connection keeps it until closed.
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER); DELETE FROM holder;');
    db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY')
      throw new Error(`another sync replicator already runs for this till (${file})`);
    throw err;
  }
  return () => db.close();
}

/**
 * One loop per till: bootstrap when needed, push the outbox (in order, batches of at most ~200 changes or
 * ~900 KB), then pull until caught up, then clean acknowledged rows. Backs off with jitter while central is
 * unreachable; a local change or notify() wakes it at once.
 */
export class Replicator {
  private stopped = true;
  private releaseLock: (() => void) | null = null;
  private wake: (() => void) | null = null;
  private dirty = false;
  private loopDone: Promise<void> | null = null;
  private cycleRunning: Promise<void> | null = null;
  private readonly st: ReplicatorStatus = {
    running: false,
    online: false,
    lastAttemptAt: null,
    lastSuccessAt: null,
    lastPushAt: null,
    lastPullAt: null,
    lastError: null,
    consecutiveFailures: 0,
  };

  constructor(readonly opts: ReplicatorOptions) {}

  start(): void {
    if (!this.stopped) return;
    if (running.has(this.opts.lockFile))
      throw new Error(`a sync replicator already runs for ${this.opts.lockFile}`);
    this.releaseLock = acquireLock(this.opts.lockFile);
    running.add(this.opts.lockFile);
    this.stopped = false;
    this.st.running = true;
    this.loopDone = this.loop();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wake?.();
    await this.loopDone;
    this.st.running = false;
    running.delete(this.opts.lockFile);
    this.releaseLock?.();
    this.releaseLock = null;
  }

  /** New local changes (or the network is back): run a cycle now instead of waiting. */
  notify(): void {
    this.dirty = true;
    this.wake?.();
  }

  status(): ReplicatorStatus {
    return { ...this.st, lastError: this.st.lastError && { ...this.st.lastError } };
  }

  /** Runs one cycle now (serialised with the loop); rejects with the cycle's error. */
  async syncNow(): Promise<void> {
    while (this.cycleRunning) await this.cycleRunning.catch(() => undefined);
    const p = this.cycle();
    this.cycleRunning = p;
    try {
      await p;
    } finally {
      this.cycleRunning = null;
    }
  }

  private async loop(): Promise<void> {
    const {
      intervalMs = 15_000,
      backoffBaseMs = 500,
      backoffMaxMs = 60_000,
      random = Math.random,
    } = this.opts;
    while (!this.stopped) {
      this.dirty = false;
      let delay = intervalMs;
      try {
        await this.syncNow();
      } catch {
        delay = backoffDelay(this.st.consecutiveFailures, backoffBaseMs, backoffMaxMs, random);
      }
      if (this.stopped) break;
      if (this.dirty && this.st.consecutiveFailures === 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(timer);
          // After failures, a wake-up still waits a little, so a storm of writes cannot hammer a dead central.
          if (this.st.consecutiveFailures > 0 && !this.stopped)
            setTimeout(resolve, Math.min(delay, backoffBaseMs));
          else resolve();
        };
      });
      this.wake = null;
    }
  }

  private async cycle(): Promise<void> {
    const { store, client } = this.opts;
    this.st.lastAttemptAt = new Date().toISOString();
    try {
      if (await store.needsBootstrap()) {
        // Never drop unpushed work: a reset waits until the outbox is empty.
        await this.pushAll();
        const { rows, revision } = await store.loadSnapshot(client.snapshot());
        this.opts.log?.info({ rows, revision }, 'sync: bootstrapped from central snapshot');
      }
      await this.pushAll();
      this.st.lastPushAt = new Date().toISOString();
      await this.pullAll();
      this.st.lastPullAt = new Date().toISOString();
      await store.cleanup();
      this.st.online = true;
      this.st.lastSuccessAt = new Date().toISOString();
      this.st.lastError = null;
      this.st.consecutiveFailures = 0;
    } catch (err) {
      this.st.consecutiveFailures++;
      this.st.online = !(err instanceof SyncNetworkError);
      const code =
        err instanceof SyncHttpError || err instanceof SyncNetworkError || err instanceof TemporaryPushError
          ? err.code
          : 'SYNC_FAILED';
      const message = err instanceof SyncHttpError ? err.detail : (err as Error).message;
      this.st.lastError = { code, message, at: new Date().toISOString() };
      if (err instanceof SyncHttpError && err.code === 'RESET_REQUIRED') {
        await store.markResetRequired(err.detail);
        this.dirty = true;
      }
      const level = err instanceof SyncNetworkError ? 'warn' : 'error';
      this.opts.log?.[level]({ code, message }, 'sync: cycle failed');
      throw err;
    }
    await this.opts
      .afterCycle?.(client)
      .catch((err: Error) =>
        this.opts.log?.warn({ message: err.message }, 'sync: after-cycle report failed'),
      );
  }

  private async pushAll(): Promise<void> {
    const { store, client, batchMaxChanges = 200, batchMaxBytes = 900_000 } = this.opts;
    for (;;) {
      const batch = await store.outbox(batchMaxChanges, batchMaxBytes);
      if (batch.length === 0) return;
      const res = await client.push(batch.map((b) => b.change));
      const answered = await store.recordPushResult(batch, res);
      if (res.retry_from !== undefined || answered === 0)
        throw new TemporaryPushError(
          `central stopped the batch at ${res.retry_from ?? 'the first change'}; retrying`,
        );
    }
  }

  private async pullAll(): Promise<void> {
    const { store, client, pullPageSize = 500 } = this.opts;
    for (;;) {
      const { cursor, epoch } = await store.state();
      const page = await client.pull(cursor, pullPageSize, epoch);
      await store.applyPullPage(page);
      if (!page.has_more) return;
    }
  }
}
