import { randomBytes } from 'node:crypto';
import { v7, validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { newId, v7Text } from './ids';

describe('newId', () => {
  it('makes distinct, valid, strictly increasing UUIDv7s, also many within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, newId);
    for (const id of ids.slice(0, 50)) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it("writes the same text as uuid's v7 for the same millisecond, sequence and random bytes", () => {
    const cases = [
      { msecs: 0, seq: 0 },
      { msecs: 2 ** 48 - 1, seq: -1 },
      { msecs: 1_700_000_000_123, seq: 0x7fffffff },
      ...Array.from({ length: 500 }, (_, i) => ({
        msecs: 1_600_000_000_000 + i * 7_919_113,
        seq: randomBytes(4).readInt32LE(),
      })),
    ];
    for (const { msecs, seq } of cases) {
      const random = randomBytes(32);
      expect(v7Text(msecs, seq, random, 16)).toBe(v7({ msecs, seq, random: random.subarray(16) }));
    }
  });
});
