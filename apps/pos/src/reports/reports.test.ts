import { describe, expect, it } from 'vitest';
import { csvFileName, csvUrl, datedName, defaultWindow, reportQuery } from './csv';
import { vatRatesOfWindow, vatTotals } from './vat';

const F = { from_date: '2026-10-27', to_date: '2026-11-25', branch_id: '' };

describe('CSV links', () => {
  it('asks the CSV route of the report for one section, with the window and no empty branch', () => {
    expect(csvUrl('sales', F, 'by_day')).toBe(
      '/api/v1/reports/sales?from_date=2026-10-27&to_date=2026-11-25&format=csv&section=by_day',
    );
    expect(csvUrl('pharmacists', { ...F, branch_id: 'b-1' })).toBe(
      '/api/v1/reports/sales/by-pharmacist?from_date=2026-10-27&to_date=2026-11-25&branch_id=b-1&format=csv',
    );
  });

  it('leaves the window out of the inventory report, which has none', () => {
    expect(reportQuery('inventory', { ...F, branch_id: 'b 2' })).toEqual({ branch_id: 'b 2' });
    expect(csvUrl('inventory', { ...F, branch_id: 'b 2' }, 'low_stock_list')).toBe(
      '/api/v1/reports/inventory?branch_id=b+2&format=csv&section=low_stock_list',
    );
  });

  it("names the file from the server's Content-Disposition, dated by the window", () => {
    expect(csvFileName('attachment; filename="sales-by_day.csv"', 'x.csv')).toBe('sales-by_day.csv');
    expect(csvFileName(null, 'report.csv')).toBe('report.csv');
    expect(csvFileName('attachment; filename="../../etc.csv"', 'x')).toBe('.._.._etc.csv');
    expect(datedName('vat.csv', 'vat', F)).toBe('vat-2026-10-27-to-2026-11-25.csv');
    expect(datedName('inventory-by_category.csv', 'inventory', F)).toBe('inventory-by_category.csv');
  });

  it('defaults to the last 30 days of the organisation calendar', () => {
    const now = new Date('2026-11-25T22:30:00Z');
    expect(defaultWindow('UTC', 30, now)).toEqual({
      from_date: '2026-10-27',
      to_date: '2026-11-25',
      branch_id: '',
    });
    // Already the 26th in Dar es Salaam (UTC+3).
    expect(defaultWindow('Africa/Dar_es_Salaam', 30, now).to_date).toBe('2026-11-26');
  });
});

describe('VAT shaping', () => {
  const months = [
    {
      month: '2026-11',
      sales_count: 3,
      exempt: '1.00',
      vat_collected: '2.29',
      grand_total: '21.00',
      by_rate: [
        { rate: 18, taxable: '12.71', vat: '2.29' },
        { rate: 0, taxable: '6.00', vat: '0.00' },
      ],
    },
    {
      month: '2026-10',
      sales_count: 1,
      exempt: '0.00',
      vat_collected: '0.83',
      grand_total: '5.50',
      by_rate: [
        { rate: 5, taxable: '0.10', vat: '0.01' },
        { rate: 18, taxable: '4.57', vat: '0.82' },
      ],
    },
  ];

  it("gives one row per rate over the window, highest first, the months' rows merged exactly", () => {
    expect(vatRatesOfWindow(months)).toEqual([
      { rate: 18, taxable: '17.28', vat: '3.11' },
      { rate: 5, taxable: '0.10', vat: '0.01' },
      { rate: 0, taxable: '6.00', vat: '0.00' },
    ]);
  });

  it('totals the months exactly', () => {
    expect(vatTotals(months)).toEqual({
      sales_count: 4,
      exempt: '1.00',
      vat_collected: '3.12',
      grand_total: '26.50',
    });
    expect(vatTotals([])).toEqual({ sales_count: 0, exempt: '0', vat_collected: '0', grand_total: '0' });
  });
});
