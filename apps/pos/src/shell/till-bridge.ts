import type { TillApi } from '@pharmacy/contracts/till-api';

/** The desktop shell's `window.till` (one type, in contracts), or undefined in a plain browser. */
export type TillBridge = TillApi;

export function tillBridge(): TillBridge | undefined {
  return (globalThis as { till?: TillBridge }).till;
}
