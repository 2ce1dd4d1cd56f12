import fs from 'node:fs';
import os from 'node:os';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests of the till UI in Debian's Chromium (`npx playwright install` cannot run
 * here); every test gets its own server on its own copy of a freshly seeded data folder, see e2e/fixtures.ts.
 *
 * Debian's `chromium-headless-shell` first, as Playwright's own headless runs use: the same Chromium without
 * the browser's UI layer, about a quarter less CPU on this 2-core machine (e2e/counter.spec.ts, every process
 * counted in a cgroup: 57.6-61.3 s against 72.8-86.3 s with the full `chromium`). The full one is the fallback.
 */
const CHROMIUMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
const chromium = process.env.CHROMIUM_PATH ?? CHROMIUMS.find((file) => fs.existsSync(file));

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // Each test runs its own server process and Chromium: one worker per CPU, at most four.
  workers: Math.max(1, Math.min(4, os.availableParallelism())),
  timeout: 60_000,
  // `npm test` (E2E_RETRIES=1) runs a failed test once more, as Playwright's own CI template does: on two loaded
  // cores a one-off race should not cost a whole run. The list reporter still names every test that needed it
  // ("flaky"), so a retry is seen, not hidden; `npm run e2e` alone retries nothing.
  retries: Number(process.env.E2E_RETRIES ?? 0),
  expect: { timeout: 10_000 },
  // The HTML report (playwright-report/) for a person to open; `npm test` makes none (E2E_HTML_REPORT=off: CI
  // keeps no files, and it cost 1.5 CPU-s over e2e/counter.spec.ts's 11 tests, 55.5-56.0 against 57.0-57.5).
  reporter:
    process.env.E2E_HTML_REPORT === 'off'
      ? [['list']]
      : [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    // A trace of every test, kept when it fails; `npm test` records none (E2E_TRACE=off: about 7 % of the
    // end-to-end run's CPU, and CI keeps no files): rerun a failing spec alone for its trace.
    trace: process.env.E2E_TRACE === 'off' ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: chromium && fs.existsSync(chromium) ? chromium : undefined,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
});
