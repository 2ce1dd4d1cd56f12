import { randomFillSync } from 'node:crypto';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * UUIDv7 text for generate:sales' rows, laid out as uuid's `v7` lays it out (48-bit milliseconds, its 31-bit
 * sequence: random at each new millisecond, counting up within one, so ids stay time-ordered), written
 * straight to text: the 7 ids of a generated sale through uuid (bytes, then their text) took about a quarter of
 * the generator's CPU. For generated history only: production ids stay on lib/ids.ts (the library's code).
 */
export function bulkIds(): () => string {
  let pool = '';
  let at = 0;
  /** `n` random hex digits, from random bytes drawn 32 KB at a time. */
  const randomHex = (n: number) => {
    if (at + n > pool.length) {
      pool = randomFillSync(Buffer.allocUnsafe(32 * 1024)).toString('hex');
      at = 0;
    }
    at += n;
    return pool.slice(at - n, at);
  };
  let msecs = -Infinity;
  let seq = 0;
  let prefix = '';
  let prefixMs = Number.NaN;
  return () => {
    const now = Date.now();
    if (now > msecs) {
      msecs = now;
      seq = Number.parseInt(randomHex(8), 16) & 0x7fffffff;
    } else {
      seq = (seq + 1) | 0;
      if (seq === 0) msecs++;
    }
    if (msecs !== prefixMs) {
      prefixMs = msecs;
      const t = msecs.toString(16).padStart(12, '0');
      prefix = `${t.slice(0, 8)}-${t.slice(8)}-`;
    }
    const low = Number.parseInt(randomHex(1), 16) & 0x03;
    return (
      `${prefix}${HEX[0x70 | ((seq >>> 28) & 0x0f)]}${HEX[(seq >>> 20) & 0xff]}-` +
      `${HEX[0x80 | ((seq >>> 14) & 0x3f)]}${HEX[(seq >>> 6) & 0xff]}-${HEX[((seq << 2) & 0xff) | low]}${randomHex(10)}`
    );
  };
}
