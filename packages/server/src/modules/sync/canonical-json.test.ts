import { describe, expect, it } from 'vitest';
import { canonicalJson } from './push-change';

describe('canonicalJson', () => {
  it('sorts keys at every depth, drops undefined and keeps arrays in order', () => {
    const a = canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'é"' }], c: undefined } });
    const b = canonicalJson({ a: { d: [3, { y: 'é"', z: null }] }, b: 1 });
    expect(a).toBe(b);
    expect(a).toBe('{"a":{"d":[3,{"y":"é\\"","z":null}]},"b":1}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson('x')).toBe('"x"');
  });
});
