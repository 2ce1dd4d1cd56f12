import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { printDocument } from '../print-worker/print-document';
import { buildSaleReceipt } from '../receipt/sale-receipt';
import { buildZReport } from '../receipt/z-report';
import { renderEscPos } from '../render/escpos-renderer';
import { sampleSaleInput, sampleZReportInput } from '../receipt/sample-documents';
import { decodeEscPos, startVirtualPrinter, type VirtualPrinter } from '../testing';
import { openTransport } from './open-transport';
import { PrinterError } from './printer-error';
import { parseTcpAddress } from './tcp-transport';

const OPTIONS = { timeZone: 'Asia/Riyadh' };
let printer: VirtualPrinter | undefined;

afterEach(async () => {
  await printer?.close();
  printer = undefined;
});

async function rejection(promise: Promise<unknown>): Promise<PrinterError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof PrinterError)) throw new Error(`Expected a PrinterError, got ${String(error)}`);
  return error;
}

/** The virtual printer listens on a random port: allowed the way an organisation lists extra printer ports. */
const tcp = (vp: VirtualPrinter, timeoutMs: number) =>
  ({ transport: 'tcp', address: vp.address, timeoutMs, allow: { tcpPorts: [vp.port] } }) as const;

async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('TCP transport against a network printer', () => {
  it('prints a receipt and a Z report', async () => {
    printer = await startVirtualPrinter();
    const receipt = buildSaleReceipt(sampleSaleInput(8), OPTIONS);
    const config = tcp(printer, 2_000);

    const job = printer.nextJob();
    await printDocument({ transport: config, bytes: renderEscPos(receipt, { openDrawer: true }) });
    const paper = decodeEscPos(await job);
    expect(paper.lines.join('\n')).toContain('INV-2024-000123');
    expect(paper.lines).toContainEqual(expect.stringMatching(new RegExp(`^TOTAL SAR +${receipt.total}$`)));
    expect(paper.commands).toContainEqual({ type: 'qr', data: receipt.qrPayload });
    expect(paper.commands.filter((c) => c.type === 'drawer')).toHaveLength(1);
    expect(paper.commands.at(-1)?.type).toBe('cut');

    const zJob = printer.nextJob();
    const zBytes = renderEscPos(buildZReport(sampleZReportInput(), OPTIONS), { paper: '58mm' });
    const result = await printDocument({ transport: config, bytes: zBytes, copies: 2 });
    expect(result.bytesWritten).toBe(zBytes.length * 2);
    const z = decodeEscPos(await zJob);
    expect(z.lines.filter((line) => line === 'Z REPORT #42')).toHaveLength(2);
    expect(z.commands.filter((c) => c.type === 'cut')).toHaveLength(2);
  });

  it('reads DLE EOT status', async () => {
    printer = await startVirtualPrinter();
    const transport = await openTransport(tcp(printer, 2_000));
    try {
      expect(await transport.readStatus?.()).toEqual({
        online: true,
        coverOpen: false,
        paperOut: false,
        paperNearEnd: false,
      });
      printer.responder.status = { online: false, coverOpen: true, paperOut: false, paperNearEnd: true };
      expect(await transport.readStatus?.()).toEqual({
        online: false,
        coverOpen: true,
        paperOut: false,
        paperNearEnd: true,
      });
    } finally {
      await transport.close();
    }
  });

  it('refuses to print when the printer reports paper out or cover open', async () => {
    printer = await startVirtualPrinter({
      status: { online: false, coverOpen: false, paperOut: true, paperNearEnd: true },
    });
    const config = tcp(printer, 2_000);
    const paperOut = await rejection(
      printDocument({ transport: config, bytes: Buffer.from('x'), checkStatus: true }),
    );
    expect(paperOut.code).toBe('PAPER_OUT');
    printer.responder.status = { online: false, coverOpen: true, paperOut: false, paperNearEnd: false };
    const coverOpen = await rejection(
      printDocument({ transport: config, bytes: Buffer.from('x'), checkStatus: true }),
    );
    expect(coverOpen.code).toBe('COVER_OPEN');
  });

  it('reports a refused connection as OFFLINE', async () => {
    const port = await unusedPort();
    const error = await rejection(
      openTransport({
        transport: 'tcp',
        address: `127.0.0.1:${port}`,
        timeoutMs: 2_000,
        allow: { tcpPorts: [port] },
      }),
    );
    expect(error.code).toBe('OFFLINE');
    expect(error.retryable).toBe(true);
  });

  it('times out when the printer never answers a status request', async () => {
    printer = await startVirtualPrinter({ answerStatus: false });
    const transport = await openTransport(tcp(printer, 200));
    try {
      const error = await rejection(transport.readStatus?.() ?? Promise.resolve());
      expect(error.code).toBe('TIMEOUT');
    } finally {
      await transport.close();
    }
  });

  it('times out when a stalled printer stops taking data', async () => {
    printer = await startVirtualPrinter({ stalled: true });
    const transport = await openTransport(tcp(printer, 300));
    try {
      const error = await rejection(transport.write(Buffer.alloc(64 * 1024 * 1024, 0x41)));
      expect(error.code).toBe('TIMEOUT');
    } finally {
      await transport.close();
    }
  });

  it('validates addresses and applies the default raw port', async () => {
    expect(parseTcpAddress('192.168.1.50')).toEqual({ host: '192.168.1.50', port: 9100 });
    expect(parseTcpAddress('[fe80::1]:9101')).toEqual({ host: 'fe80::1', port: 9101 });
    const error = await rejection(openTransport({ transport: 'tcp', address: 'printer:99999' }));
    expect(error.code).toBe('INVALID_CONFIG');
    expect(error.retryable).toBe(false);
  });

  it('connects by name to the addresses it checked (localhost)', async () => {
    printer = await startVirtualPrinter();
    const config = { ...tcp(printer, 2_000), address: `localhost:${printer.port}` };
    const job = printer.nextJob();
    await printDocument({ transport: config, bytes: Buffer.from('by name\n') });
    expect((await job).toString()).toBe('by name\n');
  });

  it('L6: refuses a port that is not a printer port, and a link-local or metadata host, before connecting', async () => {
    printer = await startVirtualPrinter();
    const scan = await rejection(
      openTransport({ transport: 'tcp', address: printer.address, timeoutMs: 500 }),
    );
    expect(scan).toMatchObject({ code: 'INVALID_CONFIG', retryable: false });
    expect(scan.message).toMatch(/not a printer port/);
    for (const address of [
      '169.254.169.254:9100',
      '[fe80::1]:9100',
      '[fd00:ec2::254]:631',
      '0xa9fea9fe:9100',
    ]) {
      const error = await rejection(openTransport({ transport: 'tcp', address, timeoutMs: 500 }));
      expect(error.code).toBe('INVALID_CONFIG');
    }
    expect(printer.jobs).toHaveLength(0);
  });
});
