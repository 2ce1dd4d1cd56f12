import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printDocument } from '../print-worker/print-document';
import { buildCreditNote } from '../receipt/credit-note';
import { renderEscPos } from '../render/escpos-renderer';
import { decodeEscPos } from '../testing/escpos-decoder';
import { sampleCreditNoteInput } from '../testing/sample-documents';
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

describe('device file transport', () => {
  it('writes the job to the device file', async () => {
    const device = path.join(dir, 'lp0');
    await writeFile(device, '');
    const bytes = renderEscPos(buildCreditNote(sampleCreditNoteInput(), { timeZone: 'UTC' }), {
      openDrawer: true,
    });
    const result = await printDocument({ transport: { transport: 'device', address: device }, bytes });
    expect(result.bytesWritten).toBe(bytes.length);
    const written = await readFile(device);
    expect(written.equals(bytes)).toBe(true);
    expect(decodeEscPos(written).lines).toContain('CREDIT NOTE');
  });

  it('does not create a missing device, and reports it', async () => {
    expect(await codeOf(openTransport({ transport: 'device', address: path.join(dir, 'lp9') }))).toBe(
      'NOT_FOUND',
    );
    expect(await codeOf(openTransport({ transport: 'device', address: dir }))).toBe('IO');
    expect(await codeOf(openTransport({ transport: 'device', address: ' ' }))).toBe('INVALID_CONFIG');
  });
});
