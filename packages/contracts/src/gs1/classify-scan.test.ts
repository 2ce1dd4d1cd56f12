import { describe, expect, it } from 'vitest';
import { classifyScan } from './classify-scan';
import { GS } from './gs1-parser';

describe('classifyScan', () => {
  it('recognises retail codes with valid check digits', () => {
    expect(classifyScan('5012345678900')).toEqual({
      kind: 'ean13',
      code: '5012345678900',
      gtin: '05012345678900',
      raw: '5012345678900',
    });
    expect(classifyScan('036000291452')).toMatchObject({ kind: 'upca', gtin: '00036000291452' });
    expect(classifyScan('96385074')).toMatchObject({ kind: 'ean8', code: '96385074' });
    expect(classifyScan(']E05012345678900')).toMatchObject({ kind: 'ean13', code: '5012345678900' });
    expect(classifyScan('05012345678900')).toMatchObject({ kind: 'ean13', code: '5012345678900' });
  });

  it('rejects a wrong check digit and unknown content', () => {
    expect(classifyScan('5012345678901')).toMatchObject({ kind: 'unknown', reason: 'check digit mismatch' });
    expect(classifyScan('hello')).toMatchObject({ kind: 'unknown' });
    expect(classifyScan('')).toMatchObject({ kind: 'unknown' });
  });

  it('recognises GS1 element strings with or without identifiers', () => {
    const now = new Date('2024-01-01T00:00:00Z');
    expect(classifyScan(`]d2010501234567890017261231101234${GS}21XYZ`, now)).toMatchObject({
      kind: 'gs1',
      gtin: '05012345678900',
      expiry: '2026-12-31',
      batch: '1234',
      serial: 'XYZ',
    });
    expect(classifyScan('010501234567890017261231', now)).toMatchObject({
      kind: 'gs1',
      expiry: '2026-12-31',
    });
    expect(classifyScan('(01)05012345678900(10)A1')).toMatchObject({ kind: 'gs1', batch: 'A1' });
    expect(classifyScan(']d2010501234567890117261231')).toMatchObject({ kind: 'unknown' });
  });
});
