import { describe, expect, it } from 'vitest';
import { slugify } from './slug';

describe('slugify', () => {
  it('lowercases, drops accents and joins words with dashes', () => {
    expect(slugify('  Pain & Fever Relief ')).toBe('pain-fever-relief');
    expect(slugify('Antibiótico Élite')).toBe('antibiotico-elite');
    expect(slugify('!!!')).toBe('');
    expect(slugify('维生素')).toBe('');
  });
});
