import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SerialPort } from 'serialport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printDocument } from '../print-worker/print-document';
import { buildCreditNote } from '../receipt/credit-note';
import { renderEscPos } from '../render/escpos-renderer';
import { sampleCreditNoteInput } from '../receipt/sample-documents';
import { decodeEscPos, PTY_DEVICE_ALLOW, type PtyPair, SOCAT, startPtyPair } from '../testing';
import { openTransport } from './open-transport';
import { PrinterError } from './printer-error';

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pharmacy-lp-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return error instanceof PrinterError ? error.code : `not a PrinterError: ${String(error)}`;
}

const hasSocat = existsSync(SOCAT);

describe('device transport', () => {
  let pair: PtyPair | undefined;
  beforeAll(async () => {
    if (hasSocat) pair = await startPtyPair();
  });
  afterAll(async () => {
    await pair?.stop();
  });

  it.skipIf(!hasSocat)('writes the job to a character device the operator allowed (a pty)', async () => {
    if (!pair) throw new Error('pty pair missing');
    const peer = new SerialPort({ path: pair.ttyB, baudRate: 9600 });
    await new Promise<void>((resolve, reject) => peer.on('open', resolve).on('error', reject));
    const bytes = renderEscPos(buildCreditNote(sampleCreditNoteInput(), { timeZone: 'UTC' }), {
      openDrawer: true,
    });
    try {
      const chunks: Buffer[] = [];
      const arrived = new Promise<Buffer>((resolve) =>
        peer.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          const all = Buffer.concat(chunks);
          if (all.length >= bytes.length) resolve(all);
        }),
      );
      const result = await printDocument({
        transport: { transport: 'device', address: pair.ttyA, allow: { devicePaths: PTY_DEVICE_ALLOW } },
        bytes,
      });
      expect(result.bytesWritten).toBe(bytes.length);
      const written = await arrived;
      expect(written.equals(bytes)).toBe(true);
      expect(decodeEscPos(written).lines).toContain('CREDIT NOTE');
    } finally {
      await new Promise<void>((resolve) => peer.close(() => resolve()));
    }
  });

  it.skipIf(!hasSocat)('refuses a pty unless the operator allowed it', async () => {
    if (!pair) throw new Error('pty pair missing');
    expect(await codeOf(openTransport({ transport: 'device', address: pair.ttyA }))).toBe('INVALID_CONFIG');
  });

  it('C1: never writes to a file, a descriptor, a stream or /dev/null, even when a glob would allow it', async () => {
    const file = path.join(dir, 'victim.db');
    await writeFile(file, 'SQLite format 3\0');
    const link = path.join(dir, 'lp0');
    await symlink(file, link);
    const everything = ['/dev/*', `${dir}/*`];
    for (const address of [
      file,
      link,
      '/dev/stderr',
      '/dev/stdout',
      '/dev/fd/1',
      '/dev/null',
      '/dev/shm/x',
    ]) {
      expect(await codeOf(openTransport({ transport: 'device', address }))).toBe('INVALID_CONFIG');
      const allowed = { devicePaths: everything };
      expect(await codeOf(openTransport({ transport: 'device', address, allow: allowed }))).toBe(
        'INVALID_CONFIG',
      );
    }
    expect(await readFile(file, 'utf8')).toBe('SQLite format 3\0');
  });

  it('does not create a missing device, and reports it', async () => {
    expect(await codeOf(openTransport({ transport: 'device', address: '/dev/usb/lp97' }))).toBe('NOT_FOUND');
    expect(await codeOf(openTransport({ transport: 'device', address: path.join(dir, 'lp9') }))).toBe(
      'INVALID_CONFIG',
    );
    expect(await codeOf(openTransport({ transport: 'device', address: ' ' }))).toBe('INVALID_CONFIG');
  });
});
