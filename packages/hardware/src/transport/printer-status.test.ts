import { describe, expect, it } from 'vitest';
import { PrinterError } from './printer-error';
import { assertPrinterReady, parsePrinterStatus, statusQueryBytes } from './printer-status';

describe('DLE EOT status', () => {
  it('queries printer, offline cause and paper sensor', () => {
    expect([...statusQueryBytes()]).toEqual([0x10, 0x04, 1, 0x10, 0x04, 2, 0x10, 0x04, 4]);
  });

  it('parses the Epson status bits', () => {
    expect(parsePrinterStatus(Buffer.from([0x16, 0x12, 0x12]))).toEqual({
      online: true,
      coverOpen: false,
      paperOut: false,
      paperNearEnd: false,
    });
    expect(parsePrinterStatus(Buffer.from([0x1e, 0x36, 0x7e]))).toEqual({
      online: false,
      coverOpen: true,
      paperOut: true,
      paperNearEnd: true,
    });
  });

  it('rejects bytes that are not status answers', () => {
    expect(() => parsePrinterStatus(Buffer.from([0x12, 0x12]))).toThrow(PrinterError);
    expect(() => parsePrinterStatus(Buffer.from([0x41, 0x12, 0x12]))).toThrow(/Not a DLE EOT status byte/);
  });

  it('turns a blocked printer into the matching error code', () => {
    const codeOf = (status: Parameters<typeof assertPrinterReady>[0]) => {
      try {
        assertPrinterReady(status);
        return 'READY';
      } catch (error) {
        return error instanceof PrinterError ? error.code : 'OTHER';
      }
    };
    const ok = { online: true, coverOpen: false, paperOut: false, paperNearEnd: true };
    expect(codeOf(ok)).toBe('READY');
    expect(codeOf({ ...ok, online: false, paperOut: true })).toBe('PAPER_OUT');
    expect(codeOf({ ...ok, online: false, coverOpen: true })).toBe('COVER_OPEN');
    expect(codeOf({ ...ok, online: false })).toBe('OFFLINE');
  });
});
