import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker: its own connection to the database file. It checkpoints the WAL into the database (PASSIVE: it
 * never waits for or blocks the writer) once the till has been idle for a moment, or at once when the WAL holds
 * many frames not yet copied back. It reads that count from the wal-index header in the -shm file (mxFrame at
 * byte 16, nBackfill at byte 96: https://sqlite.org/walformat.html); when the header cannot be read it falls
 * back to the idle rule alone, judged by PRAGMA data_version.
 *
 * The -shm file is read through one descriptor the main thread opens and closes only after the database is
 * closed (`release()`): closing any descriptor of a file drops every POSIX lock the process holds on it,
 * SQLite's included. Opening and closing -shm on every tick let another process (a backup, a test's reader)
 * take the wal-index for its own and truncate it under this process's mapping: SIGBUS.
 */
const WORKER_SOURCE = `
const fs = require('node:fs');
const os = require('node:os');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const header = Buffer.alloc(100);
const little = os.endianness() === 'LE';
function pendingFrames() {
  if (workerData.shmFd === null) return null;
  try {
    if (fs.readSync(workerData.shmFd, header, 0, 100, 0) < 100) return null;
    const u32 = (at) => (little ? header.readUInt32LE(at) : header.readUInt32BE(at));
    if (u32(0) !== 3007000) return null;
    return Math.max(0, u32(16) - u32(96));
  } catch {
    return null;
  }
}
let version = -1;
let changedAt = Date.now();
let dirty = false;
let timer;
function tick() {
  try {
    const now = Date.now();
    const current = db.pragma('data_version', { simple: true });
    if (current !== version) {
      version = current;
      changedAt = now;
      dirty = true;
    }
    const pending = pendingFrames();
    const idle = now - changedAt >= workerData.idleMs;
    if ((pending !== null && pending >= workerData.maxFrames) || (dirty && idle && pending !== 0)) {
      db.pragma('wal_checkpoint(PASSIVE)');
      dirty = false;
    }
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
  timer = setTimeout(tick, workerData.intervalMs);
}
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
tick();
`;

/** Frames (4 KB pages) the WAL may hold beyond the last checkpoint before the worker copies them back. */
export const CHECKPOINT_FRAMES = 16_000;

export interface Checkpointer {
  stop(): Promise<void>;
  /** Closes the -shm descriptor: only once every connection of this process to the database is closed. */
  release(): void;
}

/**
 * Checkpoints the WAL from a worker thread, preferably while the till is idle, instead of inside whichever
 * commit crosses the autocheckpoint mark: there a checkpoint wrote and fsynced tens of MB while the till's one
 * thread waited, the slowest 1 % of sales; and one running beside sales slows their fsyncs. The main
 * connection keeps its autocheckpoint as a backstop above maxFrames, should the worker fall behind.
 */
export function startCheckpointer(
  file: string,
  options: {
    intervalMs?: number;
    idleMs?: number;
    maxFrames?: number;
    onError?: (message: string) => void;
  } = {},
): Checkpointer {
  // ES modules (tsx, tests) know their URL; the desktop's CommonJS bundle has __filename instead.
  const here = import.meta.url ?? (typeof __filename === 'string' ? __filename : undefined);
  const driver = createRequire(here ?? `${process.cwd()}/`).resolve('better-sqlite3');
  let shmFd: number | null = null;
  try {
    shmFd = fs.openSync(`${file}-shm`, 'r');
  } catch {
    // No wal-index (yet): the worker checkpoints by the idle rule alone.
  }
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // Plain CommonJS: none of the parent's loaders (tsx in development and tests), which cost each start.
    execArgv: [],
    workerData: {
      file,
      shmFd,
      driver,
      intervalMs: options.intervalMs ?? 250,
      idleMs: options.idleMs ?? 1000,
      maxFrames: options.maxFrames ?? CHECKPOINT_FRAMES,
    },
  });
  worker.unref();
  worker.on('message', (m: { error?: string }) => {
    if (m.error) options.onError?.(m.error);
  });
  worker.on('error', (err) => options.onError?.(err.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      worker.postMessage('stop');
      const timeout = setTimeout(() => void worker.terminate(), 2000);
      await exited;
      clearTimeout(timeout);
    },
    release() {
      if (shmFd !== null) fs.closeSync(shmFd);
      shmFd = null;
    },
  };
}
