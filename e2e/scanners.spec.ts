import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Api } from './api';
import { startTill } from './fixtures';
import { adminSignedIn } from './printers-api';

const SOCAT = '/usr/bin/socat';
const BARCODE = '4000000000044';
const GS1 = '01050123456789001727123110LOT42';

async function ptyPair(): Promise<{ a: string; b: string; socat: ChildProcess; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'till-pty-'));
  const a = path.join(dir, 'a');
  const b = path.join(dir, 'b');
  const socat = spawn(SOCAT, [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !(fs.existsSync(a) && fs.existsSync(b)); i++)
    await new Promise((r) => setTimeout(r, 20));
  return { a, b, socat, dir };
}

test.skip(!fs.existsSync(SOCAT), 'needs Debian socat');

test('a serial scanner set up on the Scanners screen shows parsed scans and fills the cart', async ({
  page,
}) => {
  const pty = await ptyPair();
  // No SCANNER_PORTS: the scanner is set from the screen. A pty is allowed only under the operator's opt-in.
  const { till, child } = await startTill({ PRINTER_DEVICE_ALLOW: '/dev/pts/*' });
  try {
    const admin = await Api.admin(till);
    const supplier = await admin.supplier();
    await admin.medicine(supplier, { name: 'Scannol 5 mg', barcode: BARCODE, price: 2, stock: 5 });
    await admin.call('POST', '/sessions/open', { opening_float: 20 });
    await adminSignedIn(page, till.url);
    // The screen's "Last scans" listens from its first render: the test scan waits for that stream, not a clock
    // (the stream of this page, not of the Sell screen it replaces).
    const listening = page.waitForResponse(
      (res) =>
        res.url().includes('/api/v1/scanners/events') && res.frame().url().endsWith('/back-office/scanners'),
    );
    await page.goto(`${till.url}/back-office/scanners`);
    await expect(page.getByRole('heading', { name: 'Scanners', level: 1 })).toBeVisible();

    // A port that is not a serial device is refused with the reason.
    await page.getByRole('textbox', { name: 'Port' }).fill('/etc/passwd');
    await page.getByRole('button', { name: 'Save scanner' }).click();
    await expect(page.getByRole('alert')).toContainText('/etc/passwd');

    await page.getByRole('button', { name: 'Find scanners' }).click();
    await expect(page.getByRole('list', { name: 'Serial ports found' })).toBeAttached();
    await page.getByRole('textbox', { name: 'Port' }).fill(fs.realpathSync(pty.a));
    await page.getByLabel('Baud rate').selectOption('9600');
    await page.getByRole('button', { name: 'Save scanner' }).click();
    const row = page.getByRole('table', { name: 'Serial scanners' }).getByRole('row', { name: /\/dev\/pts/ });
    await expect(row).toContainText('Open');

    // Test scan: a GS1 DataMatrix code written at the far end shows with its fields.
    await listening;
    fs.writeFileSync(pty.b, `${GS1}\r\n`);
    const scans = page.getByRole('list', { name: 'Last scans' });
    await expect(scans).toContainText(GS1);
    await expect(scans).toContainText('05012345678900');
    await expect(scans).toContainText('LOT42');
    await expect(scans).toContainText('2027-12-31');
    await expect(scans).toContainText('serial scanner');
    await page.screenshot({ path: 'e2e/screenshots/scanners-01-test-scan.png', fullPage: true });

    // The stored setting, read back, then the same scanner fills a cart on the Sell screen.
    const overview = await admin.call<{ scanners: { path: string }[]; configured_by: string }>(
      'GET',
      '/scanners',
    );
    expect(overview).toMatchObject({ configured_by: 'till', scanners: [{ path: fs.realpathSync(pty.a) }] });
    const subscribed = page.waitForResponse((res) => res.url().includes('/api/v1/scanners/events'));
    await page.getByRole('link', { name: 'Sell' }).click();
    await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
    await subscribed;
    fs.writeFileSync(pty.b, `${BARCODE}\r\n`);
    await expect(page.getByRole('table', { name: 'Cart' })).toContainText('Scannol 5 mg');
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    pty.socat.kill();
    fs.rmSync(pty.dir, { recursive: true, force: true });
    fs.rmSync(till.dataDir, { recursive: true, force: true });
  }
});
