/**
 * mulberry32: a small seeded pseudo-random generator, numbers in [0, 1). Not for secrets (crypto for those);
 * for what must come out the same from one seed: the demo catalogue, generated sales, a test proxy's faults.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
