import { useSyncExternalStore } from 'react';

/**
 * The slowest pause between two keys of one keyboard-wedge scan, in ms: a setting of this till (its scanner),
 * kept in the till's browser storage and set on Back office → Scanners. Scanners send a key every 5-60 ms;
 * people rarely type six characters and Enter with every gap under 80 ms.
 */
export const DEFAULT_SCAN_GAP_MS = 80;
export const MIN_SCAN_GAP_MS = 20;
export const MAX_SCAN_GAP_MS = 200;
const KEY = 'till.scanner.maxGapMs';
const listeners = new Set<() => void>();

function read(): number {
  try {
    const stored = Number(globalThis.localStorage?.getItem(KEY));
    return Number.isInteger(stored) && stored >= MIN_SCAN_GAP_MS && stored <= MAX_SCAN_GAP_MS
      ? stored
      : DEFAULT_SCAN_GAP_MS;
  } catch {
    return DEFAULT_SCAN_GAP_MS;
  }
}

/** Stores the gap (whole ms, MIN_SCAN_GAP_MS to MAX_SCAN_GAP_MS); every scan listener picks it up at once. */
export function setScanGapMs(ms: number): void {
  if (!Number.isInteger(ms) || ms < MIN_SCAN_GAP_MS || ms > MAX_SCAN_GAP_MS)
    throw new RangeError(
      `The gap must be a whole number of ms from ${MIN_SCAN_GAP_MS} to ${MAX_SCAN_GAP_MS}.`,
    );
  globalThis.localStorage?.setItem(KEY, String(ms));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useScanGapMs(): number {
  return useSyncExternalStore(subscribe, read, () => DEFAULT_SCAN_GAP_MS);
}
