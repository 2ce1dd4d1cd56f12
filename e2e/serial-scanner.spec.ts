import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Api } from './api';
import { signIn, startTill } from './fixtures';

const SOCAT = '/usr/bin/socat';
const CASHIER = {
  email: 'sera@pharmacy.local',
  password: 'Sera#2026-till!',
  full_name: 'Sera Scanner',
  role: 'cashier',
};
const BARCODE = '4000000000006';

/** Two linked pseudo-terminals: the till reads one end as its serial scanner, the test types at the other. */
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

test('a serial scanner on the till adds the scanned medicine to the cart', async ({ page }) => {
  const pty = await ptyPair();
  // A pty is /dev/pts/N: a scanner port only under the operator's opt-in, and named by its real path.
  const { till, child } = await startTill({
    SCANNER_PORTS: fs.realpathSync(pty.a),
    PRINTER_DEVICE_ALLOW: '/dev/pts/*',
  });
  try {
    const admin = await Api.admin(till);
    await admin.createUser(CASHIER);
    const supplier = await admin.supplier();
    await admin.medicine(supplier, {
      name: 'Stripplast',
      generic_name: 'Adhesive bandage',
      barcode: BARCODE,
      price: 2.4,
      stock: 5,
    });
    const cashier = await Api.login(till, CASHIER);
    await cashier.call('POST', '/sessions/open', { opening_float: 20 });

    const subscribed = page.waitForResponse((res) => res.url().includes('/api/v1/scanners/events'));
    await page.goto(till.url);
    await signIn(page, CASHIER);
    await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
    await subscribed;

    fs.writeFileSync(pty.b, `${BARCODE}\r\n`);
    await expect(page.getByRole('table', { name: 'Cart' })).toContainText('Stripplast');
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    pty.socat.kill();
    fs.rmSync(pty.dir, { recursive: true, force: true });
    fs.rmSync(till.dataDir, { recursive: true, force: true });
  }
});
