import type { Page } from '@playwright/test';
import { SCAN_DETECTED_MARK } from '../apps/pos/src/auth/marks';

function scansSeen(page: Page): Promise<string[]> {
  return page.evaluate(
    (mark) => performance.getEntriesByName(mark).map((e) => String((e as { detail?: unknown }).detail)),
    SCAN_DETECTED_MARK,
  );
}

/**
 * A keyboard-wedge scanner: the code as a burst of keys a few ms apart, then Enter, into whatever has
 * focus. Playwright waits for the page to handle each key before it sends the next, so on a starved
 * CPU a burst can stretch past the scanner threshold and arrive split; the till then reports an
 * unknown code, and the helper scans again, as a cashier would (logged, at most twice).
 */
export async function scan(page: Page, code: string, delay = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.evaluate(() => new Promise<void>((done) => setTimeout(done, 50)));
    const before = (await scansSeen(page)).length;
    await page.keyboard.type(code, { delay });
    await page.keyboard.press('Enter');
    const seen = await page
      .waitForFunction(
        ([mark, n]) => performance.getEntriesByName(mark as string).length > (n as number),
        [SCAN_DETECTED_MARK, before] as const,
        { timeout: 2_000 },
      )
      .then(() => scansSeen(page))
      .catch(() => [] as string[]);
    if (seen.at(-1) === code || attempt >= 3) return;
    console.log(
      `scan of ${code} arrived split (${seen.slice(before).join(', ') || 'nothing'}); scanning again`,
    );
  }
}

export async function lastMeasure(page: Page, name: string): Promise<number> {
  return page.evaluate((n) => performance.getEntriesByName(n).at(-1)?.duration ?? -1, name);
}
