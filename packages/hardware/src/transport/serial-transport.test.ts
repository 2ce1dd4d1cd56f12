import { existsSync } from 'node:fs';
import { SerialPort } from 'serialport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSaleReceipt } from '../receipt/sale-receipt';
import { renderEscPos } from '../render/escpos-renderer';
import { sampleSaleInput } from '../receipt/sample-documents';
import {
  decodeEscPos,
  PTY_DEVICE_ALLOW,
  type PtyPair,
  SOCAT,
  StatusResponder,
  startPtyPair,
} from '../testing';
import { openTransport } from './open-transport';
import { PrinterError } from './printer-error';

const hasSocat = existsSync(SOCAT);

async function openPeer(path: string): Promise<SerialPort> {
  const port = new SerialPort({ path, baudRate: 115_200, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  return port;
}

async function closePeer(port: SerialPort): Promise<void> {
  if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
}

describe('serial transport over a socat pty pair', () => {
  let pair: PtyPair | undefined;

  beforeAll(async () => {
    if (hasSocat) pair = await startPtyPair();
  });

  afterAll(async () => {
    await pair?.stop();
  });

  it.skipIf(!hasSocat)('prints a receipt that arrives byte for byte at the other end', async () => {
    if (!pair) throw new Error('pty pair missing');
    const peer = await openPeer(pair.b);
    const receipt = buildSaleReceipt(sampleSaleInput(10), { timeZone: 'Asia/Riyadh' });
    const bytes = renderEscPos(receipt, { paper: '58mm', openDrawer: true });
    try {
      const received: Buffer[] = [];
      const complete = new Promise<Buffer>((resolve) => {
        peer.on('data', (chunk: Buffer) => {
          received.push(chunk);
          const all = Buffer.concat(received);
          if (all.length >= bytes.length) resolve(all);
        });
      });
      const transport = await openTransport({
        transport: 'serial',
        address: pair.ttyA,
        allow: { devicePaths: PTY_DEVICE_ALLOW },
        baudRate: 115_200,
        flowControl: 'none',
        timeoutMs: 3_000,
      });
      await transport.write(bytes);
      await transport.close();
      const arrived = await complete;
      expect(arrived.equals(bytes)).toBe(true);
      const paper = decodeEscPos(arrived);
      expect(paper.lines.join('\n')).toContain('INV-2024-000123');
      expect(paper.commands.at(-1)?.type).toBe('cut');
    } finally {
      await closePeer(peer);
    }
  });

  it.skipIf(!hasSocat)('reads DLE EOT status from the printer end', async () => {
    if (!pair) throw new Error('pty pair missing');
    const peer = await openPeer(pair.b);
    const responder = new StatusResponder({
      online: true,
      coverOpen: false,
      paperOut: false,
      paperNearEnd: true,
    });
    peer.on('data', (chunk: Buffer) => {
      const reply = responder.answer(chunk);
      if (reply.length > 0) peer.write(reply);
    });
    const transport = await openTransport({
      transport: 'serial',
      address: pair.ttyA,
      allow: { devicePaths: PTY_DEVICE_ALLOW },
      baudRate: 115_200,
      timeoutMs: 3_000,
    });
    try {
      expect(await transport.readStatus?.()).toEqual({
        online: true,
        coverOpen: false,
        paperOut: false,
        paperNearEnd: true,
      });
    } finally {
      await transport.close();
      await closePeer(peer);
    }
  });

  it.skipIf(!hasSocat)(
    'C1: refuses a pty the operator did not allow, its symlink, and any non-tty',
    async () => {
      if (!pair) throw new Error('pty pair missing');
      for (const address of [pair.ttyA, pair.a, '/dev/null', '/dev/stderr', '/dev/fd/1']) {
        const error = await openTransport({ transport: 'serial', address }).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: 'INVALID_CONFIG' });
      }
      const viaLink = await openTransport({
        transport: 'serial',
        address: pair.a,
        allow: { devicePaths: PTY_DEVICE_ALLOW },
      }).catch((e: unknown) => e);
      expect(viaLink).toMatchObject({ code: 'INVALID_CONFIG' });
    },
  );

  it('reports a missing port as NOT_FOUND', async () => {
    const error = await openTransport({ transport: 'serial', address: '/dev/ttyUSB97' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PrinterError);
    expect((error as PrinterError).code).toBe('NOT_FOUND');
  });
});
