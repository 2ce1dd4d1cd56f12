import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLock } from './replicator';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Another process holding the lock, as a second till process on the same data folder would. */
function holderProcess(file: string) {
  const script = `
    const Db = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new Db(${JSON.stringify(file)}, { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER); DELETE FROM holder;');
    db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
    console.log('locked');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const locked = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return { child, locked };
}

describe('the replicator lock', () => {
  it('admits one replicator per till and is freed when its holder dies, however it dies', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-lock-'));
    dirs.push(dir);
    const file = path.join(dir, 'sync.lock');
    const holder = holderProcess(file);
    await holder.locked;
    expect(() => acquireLock(file)).toThrow(/another sync replicator already runs/);
    const exited = new Promise((resolve) => holder.child.once('exit', resolve));
    holder.child.kill('SIGKILL');
    await exited;
    const release = acquireLock(file);
    expect(() => acquireLock(file)).toThrow(/already runs/);
    release();
    acquireLock(file)();
  });
});
