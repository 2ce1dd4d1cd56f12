import { describe, expect, it } from 'vitest';
import { parseGs1 } from './gs1';

describe('parseGs1', () => {
  it('reads GTIN, expiry and batch from a DataMatrix scan', () => {
    expect(parseGs1(']d2010620100001000417270630' + '10LOT42')).toEqual({
      gtin: '06201000010004',
      expiry: '2027-06-30',
      batch: 'LOT42',
    });
  });

  it('reads a serial after a GS separator and takes no prefix', () => {
    expect(parseGs1('0106201000010004' + '17280100' + '10B1\u001d' + '21SN9')).toEqual({
      gtin: '06201000010004',
      batch: 'B1',
      serial: 'SN9',
      // GS1: day 00 is the last day of the month.
      expiry: '2028-01-31',
    });
  });

  it('is null for a plain EAN', () => {
    expect(parseGs1('6201000010004')).toBeNull();
  });
});
