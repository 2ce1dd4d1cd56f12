/**
 * Tells a keyboard-wedge scanner from a person typing. A scanner "types" its code as a burst of
 * keys a few milliseconds apart and ends it with Enter; people leave 80 ms or more between keys
 * and rarely type several characters in a row faster than that.
 */
export interface WedgeOptions {
  /** Longest pause between two keys of one scan, in ms. */
  maxGapMs: number;
  /** Fewest characters a scan has; shorter bursts are typing (EAN-8 is the shortest pack code). */
  minLength: number;
}

export const DEFAULT_WEDGE_OPTIONS: WedgeOptions = { maxGapMs: 50, minLength: 6 };

export type WedgeResult = { kind: 'char' } | { kind: 'scan'; code: string } | { kind: 'ignored' };

/** Keys a scanner may send between characters without breaking the burst (Shift for capitals). */
const NEUTRAL_KEYS = new Set(['Shift', 'CapsLock']);

export class WedgeDetector {
  private buffer = '';
  private lastAt = Number.NEGATIVE_INFINITY;
  private firstAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: WedgeOptions = DEFAULT_WEDGE_OPTIONS) {}

  /** The characters of the burst in progress. */
  get pending(): string {
    return this.buffer;
  }

  /** When the first key of the burst in progress came (same clock as `feed`). */
  get startedAt(): number {
    return this.firstAt;
  }

  /** Feeds one keydown: `key` as in KeyboardEvent.key, `at` in ms from any monotonic clock. */
  feed(key: string, at: number): WedgeResult {
    const gap = at - this.lastAt;
    if (key === 'Enter') {
      const code = this.buffer;
      const isScan = code.length >= this.options.minLength && gap <= this.options.maxGapMs;
      this.reset();
      return isScan ? { kind: 'scan', code } : { kind: 'ignored' };
    }
    if (NEUTRAL_KEYS.has(key)) return { kind: 'ignored' };
    if (key.length !== 1) {
      // Backspace, arrows, F-keys: a person is editing.
      this.reset();
      return { kind: 'ignored' };
    }
    if (gap > this.options.maxGapMs) this.buffer = '';
    if (!this.buffer) this.firstAt = at;
    this.buffer += key;
    this.lastAt = at;
    return { kind: 'char' };
  }

  reset(): void {
    this.buffer = '';
    this.lastAt = Number.NEGATIVE_INFINITY;
    this.firstAt = Number.NEGATIVE_INFINITY;
  }
}
