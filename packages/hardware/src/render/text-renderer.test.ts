import { describe, expect, it } from 'vitest';
import { buildSaleReceipt } from '../receipt/sale-receipt';
import { decodeEscPos } from '../testing';
import { sampleSaleInput } from '../receipt/sample-documents';
import { renderEscPos } from './escpos-renderer';
import { renderText } from './text-renderer';

const receipt = buildSaleReceipt(
  sampleSaleInput(6, { organization_name: 'A pharmacy with a name far too long for one line of paper' }),
  { timeZone: 'Asia/Riyadh' },
);

describe('renderText', () => {
  it('keeps to the paper width', () => {
    for (const [paper, columns] of [
      ['58mm', 32],
      ['80mm', 48],
    ] as const) {
      const lines = renderText(receipt, { paper }).split('\n');
      expect(Math.max(...lines.map((l) => Array.from(l).length))).toBeLessThanOrEqual(columns);
      expect(lines).toContain('-'.repeat(columns));
    }
  });

  it('shows the same lines as the paper, with alignment applied', () => {
    const paper = decodeEscPos(renderEscPos(receipt, { paper: '58mm' }));
    const preview = renderText(receipt, { paper: '58mm' }).split('\n');
    const visible = preview.map((line) => line.trim()).filter((line) => line && line !== '[QR]');
    expect(visible).toEqual(paper.lines.map((line) => line.trim()).filter(Boolean));
    expect(preview[0]).toMatch(/^ +A pharmacy with a name far too/);
    expect(preview).toContain(`${' '.repeat(14)}[QR]`);
  });
});
