import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WalSync } from './wal-sync';

let dir: string;
let file: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-wal-sync-'));
  file = path.join(dir, 'pharmacy.db-wal');
  fs.writeFileSync(file, 'frames');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The real fdatasync, made slow so that flushes pile up behind it, and able to fail once on demand. */
function slowDisk() {
  const calls: number[] = [];
  let failNext = false;
  const datasync = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
    calls.push(fd);
    const fail = failNext;
    failNext = false;
    setTimeout(() => {
      if (fail) done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
      else fs.fdatasync(fd, done);
    }, 20);
  };
  return { calls, datasync, failOnce: () => (failNext = true) };
}

describe('WAL sync off the main thread', () => {
  it('syncs the WAL file, and flushes asked for while one runs share the next sync', async () => {
    const disk = slowDisk();
    let counted = 0;
    const wal = new WalSync(file, () => counted++, disk.datasync);
    const first = wal.flush();
    const during = [wal.flush(), wal.flush(), wal.flush()];
    await Promise.all([first, ...during]);
    // One for the first; the three that came while it ran could not trust it and share one more.
    expect(disk.calls).toHaveLength(2);
    expect(counted).toBe(2);
    expect(during[0]).toBe(during[2]);
    // Quiet again: the next flush starts a sync of its own at once.
    await wal.flush();
    expect(disk.calls).toHaveLength(3);
    wal.close();
  });

  it('fails the flushes a failed sync covered, and the next flush syncs again', async () => {
    const disk = slowDisk();
    const wal = new WalSync(file, undefined, disk.datasync);
    disk.failOnce();
    const failed = wal.flush();
    const after = wal.flush();
    await expect(failed).rejects.toThrow(/EIO/);
    await expect(after).resolves.toBeUndefined();
    await expect(wal.flush()).resolves.toBeUndefined();
    expect(disk.calls).toHaveLength(3);
    wal.close();
  });

  it('fails cleanly when the WAL file is missing', async () => {
    const wal = new WalSync(path.join(dir, 'missing.db-wal'));
    await expect(wal.flush()).rejects.toThrow(/ENOENT/);
  });
});
