import { useEffect, useRef } from 'react';
import { useScanGapMs } from './scanner-timing';
import { DEFAULT_WEDGE_OPTIONS, type ScanTiming, WedgeDetector, type WedgeOptions } from './wedge-detector';

export interface WedgeScannerOptions extends Partial<WedgeOptions> {
  /** False pauses the listener (a dialog is open, the screen is not active). */
  enabled?: boolean;
  /** Clock in ms; tests pass their own. Default: each key event's timeStamp. */
  now?: () => number;
}

export function isTextEntry(target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement {
  if (target instanceof HTMLTextAreaElement) return true;
  return (
    target instanceof HTMLInputElement &&
    ['text', 'search', 'email', 'number', 'tel', 'url', 'password', ''].includes(target.type)
  );
}

/**
 * Removes a scanned code the scanner typed into a text field, through the native setter and an
 * input event, so a controlled React input sees the change too.
 */
export function stripScan(field: HTMLInputElement | HTMLTextAreaElement, code: string): void {
  if (!field.value.endsWith(code)) return;
  const proto =
    field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  setter?.call(field, field.value.slice(0, -code.length));
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Listens for keyboard-wedge scans wherever the focus is. A scan calls `onScan(code, startedAt)`
 * (startedAt: the first key's time on the `now` clock); its Enter
 * does not submit the focused form, and the code is taken back out of a text field it landed in.
 * Typing, however fast its single keys, is left alone.
 */
export function useWedgeScanner(
  onScan: (code: string, startedAt: number, timing: ScanTiming) => void,
  options: WedgeScannerOptions = {},
): void {
  // By default each key counts at its event's timeStamp (when it arrived, on the performance.now()
  // clock), so a busy main thread that handles queued keys late does not split a burst.
  const { enabled = true, now, ...wedge } = options;
  const onScanRef = useRef(onScan);
  onScanRef.current = onScan;
  const nowRef = useRef(now);
  nowRef.current = now;
  const storedGap = useScanGapMs();
  const maxGapMs = wedge.maxGapMs ?? storedGap;
  const minLength = wedge.minLength ?? DEFAULT_WEDGE_OPTIONS.minLength;

  useEffect(() => {
    if (!enabled) return;
    const detector = new WedgeDetector({ maxGapMs, minLength });
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.repeat || event.ctrlKey || event.altKey || event.metaKey || event.isComposing) {
        detector.reset();
        return;
      }
      const startedAt = detector.startedAt;
      const at = nowRef.current ? nowRef.current() : event.timeStamp;
      const result = detector.feed(event.key, at);
      if (result.kind !== 'scan') return;
      event.preventDefault();
      event.stopPropagation();
      if (isTextEntry(event.target)) stripScan(event.target, result.code);
      onScanRef.current(result.code, startedAt, result.timing);
    };
    // Capture phase: the scan's Enter is stopped before a focused form or button acts on it.
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [enabled, maxGapMs, minLength]);
}
