import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const SOCAT = '/usr/bin/socat';

/** The operator opt-in (PRINTER_DEVICE_ALLOW) under which a pty may stand in for a printer or scanner. */
export const PTY_DEVICE_ALLOW: readonly string[] = ['/dev/pts/*'];

export interface PtyPair {
  /** Symlinks to the two ends of a virtual null-modem cable. */
  a: string;
  b: string;
  /** The pseudo-terminals themselves (/dev/pts/N): what a printer or scanner address names. */
  ttyA: string;
  ttyB: string;
  stop(): Promise<void>;
}

/** Two linked pseudo-terminals via socat: what is written to one end is read at the other. */
export async function startPtyPair(timeoutMs = 5_000): Promise<PtyPair> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pharmacy-pty-'));
  const a = path.join(dir, 'a');
  const b = path.join(dir, 'b');
  const child: ChildProcess = spawn(
    SOCAT,
    ['-d', '-d', `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + timeoutMs;
  while (!(existsSync(a) && existsSync(b))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`socat did not create the pty pair: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    a,
    b,
    ttyA: await realpath(a),
    ttyB: await realpath(b),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
