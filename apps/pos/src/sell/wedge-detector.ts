/**
 * Tells a keyboard-wedge scanner from a person typing. A scanner "types" its code as a burst of
 * keys a few milliseconds apart (slow ones up to 60 ms) and ends it with Enter; people rarely type six
 * characters and Enter with every gap under 80 ms (the default, set per till on the Scanners screen).
 */
export interface WedgeOptions {
  /** Longest pause between two keys of one scan, in ms. */
  maxGapMs: number;
  /** Fewest characters a scan has; shorter bursts are typing (EAN-8 is the shortest pack code). */
  minLength: number;
}

export const DEFAULT_WEDGE_OPTIONS: WedgeOptions = { maxGapMs: 80, minLength: 6 };

/** How a scan was typed: its slowest gap between keys (Enter included) and first key to Enter, in ms. */
export interface ScanTiming {
  slowestGapMs: number;
  durationMs: number;
}

export type WedgeResult =
  | { kind: 'char' }
  | { kind: 'scan'; code: string; timing: ScanTiming }
  | { kind: 'ignored' };

/** Keys a scanner may send between characters without breaking the burst (Shift for capitals). */
const NEUTRAL_KEYS = new Set(['Shift', 'CapsLock']);

export class WedgeDetector {
  private buffer = '';
  private lastAt = Number.NEGATIVE_INFINITY;
  private firstAt = Number.NEGATIVE_INFINITY;
  private slowest = 0;

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
      const timing = { slowestGapMs: Math.max(this.slowest, gap), durationMs: at - this.firstAt };
      this.reset();
      return isScan ? { kind: 'scan', code, timing } : { kind: 'ignored' };
    }
    if (NEUTRAL_KEYS.has(key)) return { kind: 'ignored' };
    if (key.length !== 1) {
      // Backspace, arrows, F-keys: a person is editing.
      this.reset();
      return { kind: 'ignored' };
    }
    if (gap > this.options.maxGapMs) this.buffer = '';
    if (!this.buffer) {
      this.firstAt = at;
      this.slowest = 0;
    } else this.slowest = Math.max(this.slowest, gap);
    this.buffer += key;
    this.lastAt = at;
    return { kind: 'char' };
  }

  reset(): void {
    this.buffer = '';
    this.slowest = 0;
    this.lastAt = Number.NEGATIVE_INFINITY;
    this.firstAt = Number.NEGATIVE_INFINITY;
  }
}
