/**
 * Events per key (a client address, an account) within a sliding window, for throttling sign-ins and public
 * forms. Kept in memory: a till serves one counter and central runs one process; a restart forgets the
 * events, which only ever helps the caller.
 */
export class SlidingWindow {
  private readonly events = new Map<string, number[]>();

  /** Seconds until the key may act again, or 0 when it has fewer than `max` events in the window. */
  retryAfter(key: string, max: number, windowMs: number, now = Date.now()): number {
    const recent = this.prune(key, windowMs, now);
    if (recent.length < max) return 0;
    const oldest = recent[recent.length - max] ?? now;
    return Math.ceil((oldest + windowMs - now) / 1000);
  }

  hit(key: string, now = Date.now()): void {
    const list = this.events.get(key) ?? [];
    list.push(now);
    this.events.set(key, list);
  }

  /** Takes back one event recorded at `at` (an attempt reserved before its outcome was known). */
  release(key: string, at: number): void {
    const list = this.events.get(key);
    const i = list?.lastIndexOf(at) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  }

  clear(key: string): void {
    this.events.delete(key);
  }

  private prune(key: string, windowMs: number, now: number): number[] {
    const list = (this.events.get(key) ?? []).filter((t) => t > now - windowMs);
    if (list.length === 0) this.events.delete(key);
    else this.events.set(key, list);
    return list;
  }
}

/** One SlidingWindow per purpose per server instance. */
export function slidingWindowOf(cache: Map<string, unknown>, purpose: string): SlidingWindow {
  const key = `sliding-window:${purpose}`;
  let window = cache.get(key) as SlidingWindow | undefined;
  if (!window) {
    window = new SlidingWindow();
    cache.set(key, window);
  }
  return window;
}
