import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BootedTill, bootTill } from './boot';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDirs() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'till-boot-'));
  cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
  const staticDir = path.join(root, 'ui');
  fs.mkdirSync(staticDir);
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Till UI</title>');
  return { dataDir: path.join(root, 'userData', 'data'), staticDir };
}

async function boot(config: Parameters<typeof bootTill>[0]): Promise<BootedTill> {
  const till = await bootTill({ logLevel: 'silent', ...config });
  cleanups.push(() => till.close());
  return till;
}

describe('bootTill', () => {
  it('serves the API and the UI from one loopback origin, with a seeded database', async () => {
    const till = await boot({ ...tempDirs(), port: 0 });
    expect(till.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${till.origin}/health`)).status).toBe(200);
    const page = await fetch(`${till.origin}/back-office/users`);
    expect(await page.text()).toContain('Till UI');
    const login = await fetch(`${till.origin}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@pharmacy.local', password: 'Admin#12345' }),
    });
    expect(login.status).toBe(200);
    expect((await fetch(`${till.origin}/api/v1/nope`)).headers.get('content-type')).toContain('problem+json');
  });

  it('falls back to a free port when the fixed one is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const taken = (blocker.address() as net.AddressInfo).port;
    const till = await boot({ ...tempDirs(), port: taken });
    expect(till.port).not.toBe(taken);
    expect((await fetch(`${till.origin}/health`)).status).toBe(200);
  });

  it("gives the till's print worker the PRINT_* variables of its process, as any server reads them", async () => {
    const saved = process.env.PRINT_MAX_ATTEMPTS;
    process.env.PRINT_MAX_ATTEMPTS = '4';
    cleanups.push(() => {
      if (saved === undefined) delete process.env.PRINT_MAX_ATTEMPTS;
      else process.env.PRINT_MAX_ATTEMPTS = saved;
    });
    const till = await boot({ ...tempDirs(), port: 0 });
    const { printing } = till.server.context.config;
    expect(printing.ok && printing.options.maxAttempts).toBe(4);
  });

  it('refuses to start without a built UI', async () => {
    const { dataDir } = tempDirs();
    await expect(bootTill({ dataDir, staticDir: path.join(dataDir, 'missing') })).rejects.toThrow(
      /build:pos/,
    );
  });
});
