import { afterEach, describe, expect, it } from 'vitest';
import { type VirtualPrinter, startVirtualPrinter } from '../testing';
import { PrinterError } from '../transport/printer-error';
import { backoffDelay } from './backoff';
import { printDocument } from './print-document';

let printer: VirtualPrinter | undefined;

afterEach(async () => {
  await printer?.close();
  printer = undefined;
});

describe('printDocument', () => {
  it('writes every copy in one connection and reports status when asked', async () => {
    printer = await startVirtualPrinter({
      status: { online: true, coverOpen: false, paperOut: false, paperNearEnd: true },
    });
    const job = printer.nextJob();
    const result = await printDocument({
      transport: {
        transport: 'tcp',
        address: printer.address,
        timeoutMs: 2_000,
        allow: { tcpPorts: [printer.port] },
      },
      bytes: Buffer.from('copy\n'),
      copies: 3,
      checkStatus: true,
    });
    expect(result).toEqual({
      bytesWritten: 15,
      status: { online: true, coverOpen: false, paperOut: false, paperNearEnd: true },
    });
    const received = await job;
    expect(received.subarray(9).toString()).toBe('copy\ncopy\ncopy\n');
  });

  it('rejects invalid copies before touching the printer', async () => {
    await expect(
      printDocument({
        transport: { transport: 'tcp', address: '127.0.0.1:9' },
        bytes: Buffer.alloc(1),
        copies: 0,
      }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
  });

  it('fails with a typed, retryable error when the printer is unreachable', async () => {
    printer = await startVirtualPrinter();
    const { address, port } = printer;
    await printer.close();
    printer = undefined;
    const error = await printDocument({
      transport: { transport: 'tcp', address, timeoutMs: 1_000, allow: { tcpPorts: [port] } },
      bytes: Buffer.alloc(1),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterError);
    expect(error).toMatchObject({ code: 'OFFLINE', retryable: true });
  });
});

describe('backoffDelay', () => {
  it('doubles from the base, caps, and randomises only the jitter share', () => {
    const low = (attempt: number) =>
      backoffDelay(attempt, { baseMs: 1_000, maxMs: 60_000, jitter: 0.5, random: () => 0 });
    const high = (attempt: number) =>
      backoffDelay(attempt, { baseMs: 1_000, maxMs: 60_000, jitter: 0.5, random: () => 1 });
    expect([0, 1, 2, 3].map(high)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect([0, 1, 2, 3].map(low)).toEqual([500, 1_000, 2_000, 4_000]);
    expect(high(10)).toBe(60_000);
    expect(high(1_000)).toBe(60_000);
    expect(low(-3)).toBe(500);
  });

  it('stays within bounds with real randomness', () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const delay = backoffDelay(attempt);
      expect(delay).toBeGreaterThanOrEqual(1_000);
      expect(delay).toBeLessThanOrEqual(300_000);
    }
  });
});
