import { describe, expect, it } from 'vitest';
import { WedgeDetector } from './wedge-detector';

function type(detector: WedgeDetector, keys: string[], gapMs: number, start = 0) {
  return keys.map((key, i) => detector.feed(key, start + i * gapMs));
}

describe('WedgeDetector', () => {
  it('reports a fast burst ending in Enter as a scan', () => {
    const results = type(new WedgeDetector(), [...'5012345678900', 'Enter'], 8);
    expect(results.at(-1)).toEqual({
      kind: 'scan',
      code: '5012345678900',
      timing: { slowestGapMs: 8, durationMs: 8 * 13 },
    });
  });

  it('29: a slow scanner (60 ms per key) is a scan at the default 80 ms; 90 ms per key is typing', () => {
    expect(type(new WedgeDetector(), [...'501234567890', 'Enter'], 60).at(-1)).toMatchObject({
      kind: 'scan',
      code: '501234567890',
      timing: { slowestGapMs: 60 },
    });
    expect(type(new WedgeDetector(), [...'501234567890', 'Enter'], 90).at(-1)).toEqual({ kind: 'ignored' });
  });

  it('leaves typing at human speed alone', () => {
    const results = type(new WedgeDetector(), [...'5012345678900', 'Enter'], 120);
    expect(results.at(-1)).toEqual({ kind: 'ignored' });
  });

  it('needs the minimum length, so a quick "ok" + Enter is not a scan', () => {
    expect(type(new WedgeDetector(), ['o', 'k', 'Enter'], 10).at(-1)).toEqual({ kind: 'ignored' });
  });

  it('starts a new burst after a pause, so typed text before a scan is not part of it', () => {
    const d = new WedgeDetector();
    type(d, [...'abc'], 150);
    const results = type(d, [...'ABC123456', 'Enter'], 10, 10_000);
    expect(results.at(-1)).toMatchObject({ kind: 'scan', code: 'ABC123456' });
  });

  it('is not fooled by a slow Enter after a fast burst', () => {
    const d = new WedgeDetector();
    type(d, [...'12345678'], 10);
    expect(d.feed('Enter', 70 + 500)).toEqual({ kind: 'ignored' });
  });

  it('lets Shift through (capitals) but breaks the burst on editing keys', () => {
    const d = new WedgeDetector();
    expect(type(d, ['Shift', 'A', 'Shift', 'B', ...'123456', 'Enter'], 5).at(-1)).toMatchObject({
      kind: 'scan',
      code: 'AB123456',
    });
    expect(type(d, [...'1234', 'Backspace', ...'56', 'Enter'], 5).at(-1)).toEqual({ kind: 'ignored' });
  });

  it('honours custom thresholds', () => {
    const d = new WedgeDetector({ maxGapMs: 20, minLength: 3 });
    expect(type(d, [...'123', 'Enter'], 15).at(-1)).toMatchObject({ kind: 'scan', code: '123' });
    expect(type(d, [...'123', 'Enter'], 25, 1_000).at(-1)).toEqual({ kind: 'ignored' });
  });
});
