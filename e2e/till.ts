import type { Page } from '@playwright/test';
import { SCAN_DETECTED_MARK } from '../apps/pos/src/auth/marks';

function scanCount(page: Page): Promise<number> {
  return page.evaluate((mark) => performance.getEntriesByName(mark).length, SCAN_DETECTED_MARK);
}

/**
 * How a wedge scanner's keys are stamped (the till times keys by their event's timeStamp):
 * - `burst`: each key at the moment it is sent, but never more than `gapMs` after the key before. A real
 *   scanner's burst on a starved CPU: the page may be late to run, the keys are still a burst, and no
 *   stamp lies ahead of the clock, so "first key to cart line" stays a true duration.
 * - `every`: key i exactly `i * gapMs` after the first: a scanner with a fixed rhythm (slow ones included).
 */
type Rhythm = 'burst' | 'every';

/**
 * Sends a code and Enter as keydown events at the focused element, doing what the browser does with a key
 * nobody stopped: a character goes into the focused field, Enter submits the field's form. Playwright's
 * own typing cannot keep a 5 ms rhythm on a loaded machine (the scan then arrives split), so the rhythm is
 * set on the events.
 */
export async function wedgeKeys(page: Page, code: string, gapMs: number, rhythm: Rhythm): Promise<void> {
  await page.evaluate(
    ([text, gap, mode]) => {
      const target = document.activeElement ?? document.body;
      const first = performance.now();
      let previous = first;
      [...text, 'Enter'].forEach((key, i) => {
        const stamp = mode === 'every' ? first + i * gap : Math.min(performance.now(), previous + gap);
        previous = stamp;
        const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
        Object.defineProperty(event, 'timeStamp', { value: stamp });
        const allowed = target.dispatchEvent(event);
        if (!allowed || !(target instanceof HTMLInputElement)) return;
        if (key === 'Enter') target.form?.requestSubmit();
        else {
          const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
          setter?.call(target, target.value + key);
          target.dispatchEvent(new Event('input', { bubbles: true }));
        }
      });
    },
    [code, gapMs, rhythm] as const,
  );
}

/**
 * A keyboard-wedge scanner: the code as a burst of keys at most `gapMs` apart, then Enter, into whatever
 * has focus. Waits (up to 2 s) until the till has seen a scan, so the next step starts after it.
 */
export async function scan(page: Page, code: string, gapMs = 5): Promise<void> {
  const before = await scanCount(page);
  await wedgeKeys(page, code, gapMs, 'burst');
  await page
    .waitForFunction(
      ([mark, n]) => performance.getEntriesByName(mark as string).length > (n as number),
      [SCAN_DETECTED_MARK, before] as const,
      { timeout: 2_000 },
    )
    .catch(() => undefined);
}

export async function lastMeasure(page: Page, name: string): Promise<number> {
  return page.evaluate((n) => performance.getEntriesByName(n).at(-1)?.duration ?? -1, name);
}
