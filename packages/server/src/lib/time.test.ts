import { describe, expect, it } from 'vitest';
import { isoAt, nowIso } from './time';

describe('isoAt', () => {
  it('formats exactly as Date#toISOString, across seconds, days and before 1970', () => {
    const samples = [
      0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      -1,
      -999,
      -1000,
      -1001,
      1_795_392_000_000,
      1_795_391_999_999,
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2028, 1, 29, 12, 0, 0, 5),
    ];
    for (let i = 0; i < 2000; i++) samples.push(Math.floor(Math.random() * 4_102_444_800_000));
    for (const ms of samples) expect(isoAt(ms)).toBe(new Date(ms).toISOString());
  });

  it('gives the current time', () => {
    const before = Date.now();
    const now = Date.parse(nowIso());
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
