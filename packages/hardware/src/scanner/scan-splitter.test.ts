import { GS } from '@pharmacy/contracts/gs1';
import { describe, expect, it } from 'vitest';
import { ScanSplitter } from './scan-splitter';

describe('ScanSplitter', () => {
  it('splits on CR, LF or CR LF, across chunk boundaries', () => {
    const splitter = new ScanSplitter();
    expect(splitter.push('0123')).toEqual([]);
    expect(splitter.push('456789012\r')).toEqual([]);
    expect(splitter.push('\nABC\nDEF\r')).toEqual(['0123456789012', 'ABC']);
    expect(splitter.push('X')).toEqual(['DEF']);
    expect(splitter.buffered).toBe('X');
  });

  it('keeps GS bytes and honours a custom suffix', () => {
    const splitter = new ScanSplitter('\t');
    expect(splitter.push(Buffer.from(`10A${GS}21B\t`, 'latin1'))).toEqual([`10A${GS}21B`]);
  });
});
