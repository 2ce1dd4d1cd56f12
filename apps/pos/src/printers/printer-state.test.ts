import type { PrinterStatusReport } from '@pharmacy/contracts';
import { describe, expect, it } from 'vitest';
import { isPrinterOk, printerStateText } from './printer-state';

const report = (state: string): PrinterStatusReport => ({
  printer_id: 'p',
  transport: 'tcp',
  reachable: state === 'READY',
  status: null,
  state,
  error: null,
  checked_at: '2026-01-01T00:00:00.000Z',
  elapsed_ms: 1,
});

describe('printerStateText', () => {
  it('names the states a pharmacist acts on', () => {
    expect(printerStateText(report('READY'))).toBe('Online');
    expect(printerStateText(report('PAPER_OUT'))).toBe('Paper out');
    expect(printerStateText(report('COVER_OPEN'))).toBe('Cover open');
    expect(printerStateText(report('OFFLINE'))).toBe('Offline');
    expect(printerStateText(report('TIMEOUT'))).toBe('Offline');
    expect(printerStateText(undefined)).toBe('Checking…');
  });
  it('counts only states that can print as ok', () => {
    expect(isPrinterOk(report('READY'))).toBe(true);
    expect(isPrinterOk(report('PAPER_OUT'))).toBe(false);
    expect(isPrinterOk(undefined)).toBe(false);
  });
});
