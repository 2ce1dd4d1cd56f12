import { describe, expect, it } from 'vitest';
import { codePageForLanguage, DEFAULT_CODE_PAGE, isCodePage } from './code-pages';

describe('M4: code pages are looked up by own names only', () => {
  it('a language or code page named like an Object method is unknown', () => {
    for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect(codePageForLanguage(key), key).toBe(DEFAULT_CODE_PAGE);
    expect(isCodePage('constructor')).toBe(false);
    expect(isCodePage('PC852_LATIN2')).toBe(true);
    expect(codePageForLanguage('pl-PL')).toBe('PC852_LATIN2');
  });
});
