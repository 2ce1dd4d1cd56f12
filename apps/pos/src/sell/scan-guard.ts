import { useEffect, useState } from 'react';
import { useScanGapMs } from './scanner-timing';
import { stripScan } from './useWedgeScanner';
import { DEFAULT_WEDGE_OPTIONS, WedgeDetector } from './wedge-detector';

/** Fired on window (detail: the code) when a scan was taken back out of an amount field. */
export const SCAN_BLOCKED_EVENT = 'till:scan-blocked';

/** A field that holds money or a count: a number input, or one that asks for a decimal keypad. */
function isAmountField(target: EventTarget | null): target is HTMLInputElement {
  return target instanceof HTMLInputElement && (target.type === 'number' || target.inputMode === 'decimal');
}

/**
 * Everywhere on the till: a scan (a burst of keys ending in Enter, `WedgeDetector`) that lands in an amount
 * field is taken back out, its Enter submits nothing, and SCAN_BLOCKED_EVENT says so. A barcode can never
 * become a cash tender or a quantity. Text fields keep their scans (a barcode field is filled by scanning).
 */
export function useAmountFieldScanGuard(): void {
  const maxGapMs = useScanGapMs();
  useEffect(() => {
    const detector = new WedgeDetector({ maxGapMs, minLength: DEFAULT_WEDGE_OPTIONS.minLength });
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.repeat || event.ctrlKey || event.altKey || event.metaKey || event.isComposing) {
        detector.reset();
        return;
      }
      const result = detector.feed(event.key, event.timeStamp);
      if (result.kind !== 'scan' || !isAmountField(event.target)) return;
      event.preventDefault();
      event.stopPropagation();
      stripScan(event.target, result.code);
      window.dispatchEvent(new CustomEvent(SCAN_BLOCKED_EVENT, { detail: result.code }));
    };
    // Registered before any screen's own scanner (the shell mounts first), in the capture phase.
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [maxGapMs]);
}

/** The last code the guard took out of an amount field while the caller is mounted, or null. */
export function useBlockedScan(): string | null {
  const [code, setCode] = useState<string | null>(null);
  useEffect(() => {
    const onBlocked = (event: Event) => setCode(String((event as CustomEvent<string>).detail));
    window.addEventListener(SCAN_BLOCKED_EVENT, onBlocked);
    return () => window.removeEventListener(SCAN_BLOCKED_EVENT, onBlocked);
  }, []);
  return code;
}
