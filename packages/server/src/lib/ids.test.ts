import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { newId } from './ids';

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
});
