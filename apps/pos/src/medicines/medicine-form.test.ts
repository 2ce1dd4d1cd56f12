import { describe, expect, it } from 'vitest';
import { lineFor, lineRequest, lookupCode } from '../receiving/receiving';
import { barcodeOfGtin, EMPTY_MEDICINE, medicineRequest } from './medicine-form';

describe('medicineRequest', () => {
  const form = { ...EMPTY_MEDICINE, name: 'Amoxil', selling_price: '4.50', max_public_price: '' };
  it('turns typed amounts into exact request numbers in the currency decimals', () => {
    const r = medicineRequest({ ...form, selling_price: '1 234,5', barcode: ' 5012345678900 ' }, 2);
    expect(r).toMatchObject({
      body: { selling_price: 1234.5, max_public_price: null, barcode: '5012345678900' },
    });
    expect(medicineRequest({ ...form, selling_price: '1500' }, 0)).toMatchObject({
      body: { selling_price: 1500 },
    });
    expect(medicineRequest({ ...form, selling_price: '0.125' }, 3)).toMatchObject({
      body: { selling_price: 0.125 },
    });
  });
  it('names each field the browser can already judge, and leaves the rest to the server', () => {
    expect(medicineRequest({ ...form, selling_price: '4.999' }, 2)).toEqual({
      errors: { selling_price: 'must be an amount with at most 2 decimals' },
    });
    expect(
      medicineRequest({ ...form, selling_price: '', max_public_price: 'abc', low_stock_threshold: '2.5' }, 2),
    ).toEqual({
      errors: {
        selling_price: 'must not be empty',
        max_public_price: 'must be an amount with at most 2 decimals',
        low_stock_threshold: 'must be a whole number',
      },
    });
    expect(medicineRequest({ ...form, selling_price: '-1' }, 2)).toHaveProperty('errors.selling_price');
    // an empty name is the server's to refuse (its message lands beside the field)
    expect(medicineRequest({ ...form, name: '' }, 2)).toHaveProperty('body.name', '');
  });
  it('keeps a GS1 GTIN-14 as the retail barcode it stands for', () => {
    expect(barcodeOfGtin('05012345678900')).toBe('5012345678900');
    expect(barcodeOfGtin('15012345678907')).toBe('15012345678907');
  });
});

describe('receiving lines', () => {
  const med = { id: 'm1', name: 'Amoxil', strength: '500 mg' };
  it('fills batch and expiry from a GS1 scan and looks the pack up by its GTIN', () => {
    const scan = {
      kind: 'gs1' as const,
      raw: 'x',
      gtin: '05012345678900',
      batch: 'LOT-A1',
      expiry: '2027-12-31',
    };
    expect(lineFor(med, scan)).toMatchObject({
      batch_number: 'LOT-A1',
      expiry_date: '2027-12-31',
      quantity: '',
    });
    expect(lookupCode(scan)).toBe('05012345678900');
    expect(lookupCode({ kind: 'ean13', raw: 'x', code: '5012345678900', gtin: '05012345678900' })).toBe(
      '5012345678900',
    );
    expect(lookupCode({ kind: 'unknown', raw: 'amox', reason: 'no' })).toBeNull();
  });
  it('validates quantity and cost before sending', () => {
    const line = { ...lineFor(med), quantity: '12', unit_cost: '1.40' };
    expect(lineRequest(line, 2)).toEqual({ qty_received: 12, unit_cost: 1.4 });
    expect(lineRequest({ ...line, quantity: '0', unit_cost: '1.405' }, 2)).toEqual({
      errors: {
        qty_received: 'must be a whole number above 0',
        unit_cost: 'must be an amount with at most 2 decimals',
      },
    });
  });
});
