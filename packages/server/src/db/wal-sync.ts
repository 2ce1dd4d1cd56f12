import fs from 'node:fs';

type Datasync = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void;

/**
 * Makes the WAL durable off the main thread. A group's COMMIT runs with synchronous=NORMAL (frames written,
 * not synced), then `flush()` fdatasyncs the WAL file on libuv's thread pool, the same sync SQLite's
 * synchronous=FULL would have done inside COMMIT while the whole event loop waited; the group's members are
 * acknowledged only after it. Frames are appended in commit order, so one sync covers every commit before it:
 * flushes asked for while one runs share the next.
 *
 * The file descriptor is opened on first use and kept: SQLite truncates or rewinds the WAL in place and
 * deletes it only when the last connection closes, which the owning driver's own connection prevents.
 */
export class WalSync {
  #fd: number | undefined;
  #running: Promise<void> | null = null;
  #queued: Promise<void> | null = null;

  constructor(
    readonly walFile: string,
    private readonly onSync: () => void = () => undefined,
    private readonly datasync: Datasync = fs.fdatasync,
  ) {}

  /** Resolves once everything committed before the call is on disk; rejects if the disk refused the sync. */
  flush(): Promise<void> {
    if (this.#queued) return this.#queued;
    if (!this.#running) return this.#start();
    // The running sync may have started before these frames were written: one more, after it.
    const queued = this.#running
      .catch(() => undefined)
      .then(() => {
        this.#queued = null;
        return this.#start();
      });
    this.#queued = queued;
    return queued;
  }

  close(): void {
    if (this.#fd !== undefined) fs.closeSync(this.#fd);
    this.#fd = undefined;
  }

  #start(): Promise<void> {
    const running = new Promise<void>((resolve, reject) => {
      this.#fd ??= fs.openSync(this.walFile, 'r');
      this.onSync();
      this.datasync(this.#fd, (err) => (err ? reject(err) : resolve()));
    }).finally(() => {
      if (this.#running === running) this.#running = null;
    });
    this.#running = running;
    return running;
  }
}
