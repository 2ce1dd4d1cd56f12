import { existsSync } from 'node:fs';
import { SerialPort } from 'serialport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PTY_DEVICE_ALLOW, type PtyPair, SOCAT, startPtyPair } from '../testing';
import { classifyScan, GS } from '@pharmacy/contracts/gs1';
import { SerialScanner } from './serial-scanner';

const hasSocat = existsSync(SOCAT);

describe('SerialScanner over a socat pty pair', () => {
  let pair: PtyPair | undefined;
  let feeder: SerialPort | undefined;

  beforeAll(async () => {
    if (!hasSocat) return;
    pair = await startPtyPair();
    const port = new SerialPort({ path: pair.a, baudRate: 9600, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
    feeder = port;
  });

  afterAll(async () => {
    const port = feeder;
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    await pair?.stop();
  });

  it.skipIf(!hasSocat)('emits each scanned code without its suffix', async () => {
    if (!pair || !feeder) throw new Error('pty pair missing');
    const scanner = new SerialScanner({ path: pair.ttyB, baudRate: 9600, allowGlobs: PTY_DEVICE_ALLOW });
    await scanner.open();
    try {
      const codes: string[] = [];
      const gs1 = `]d2010501234567890017261231104711AB${GS}21SN42`;
      const done = new Promise<void>((resolve) => {
        scanner.on('scan', (code) => {
          codes.push(code);
          if (codes.length === 2) resolve();
        });
      });
      feeder.write(Buffer.from('0123456789012\r\n', 'latin1'));
      // The GS1 code arrives split, as a slow UART delivers it.
      feeder.write(Buffer.from(gs1.slice(0, 10), 'latin1'));
      await new Promise((resolve) => setTimeout(resolve, 30));
      feeder.write(Buffer.from(`${gs1.slice(10)}\r\n`, 'latin1'));
      await done;
      expect(codes).toEqual(['0123456789012', gs1]);
      expect(classifyScan(codes[1] ?? '', new Date('2024-01-01'))).toMatchObject({
        kind: 'gs1',
        gtin: '05012345678900',
        expiry: '2026-12-31',
        batch: '4711AB',
        serial: 'SN42',
      });
    } finally {
      await scanner.close();
    }
  });

  it.skipIf(!hasSocat)('can be consumed as an async iterator with a custom suffix', async () => {
    if (!pair || !feeder) throw new Error('pty pair missing');
    const scanner = new SerialScanner({
      path: pair.ttyB,
      baudRate: 9600,
      suffix: '\t',
      allowGlobs: PTY_DEVICE_ALLOW,
    });
    await scanner.open();
    try {
      const iterator = scanner[Symbol.asyncIterator]();
      feeder.write('5012345678900\t96385074\t');
      expect((await iterator.next()).value).toBe('5012345678900');
      expect((await iterator.next()).value).toBe('96385074');
      await iterator.return(undefined);
    } finally {
      await scanner.close();
    }
  });

  it.skipIf(!hasSocat)('C1: refuses a port that is not an allowed tty device', async () => {
    if (!pair) throw new Error('pty pair missing');
    for (const path of [pair.ttyB, pair.b, '/dev/null', '/dev/stderr']) {
      await expect(new SerialScanner({ path }).open()).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    }
  });
});
