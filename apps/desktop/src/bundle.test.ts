import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { builtinModules } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleDesktop, COMMON_OPTIONS, NATIVE_EXTERNALS } from '../scripts/bundle';

/** `@scope/pkg/sub` -> `@scope/pkg`, `pkg/sub` -> `pkg`. */
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'till-bundle-'));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

describe('desktop bundle', () => {
  it('builds main, the server process and a sandbox-safe preload that requires nothing but electron', async () => {
    await bundleDesktop(out);
    expect(fs.existsSync(path.join(out, 'main.cjs'))).toBe(true);
    expect(fs.existsSync(path.join(out, 'server.cjs'))).toBe(true);
    const preload = fs.readFileSync(path.join(out, 'preload.cjs'), 'utf8');
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(preload).toContain('till:app-info');
  });

  it('keeps the server out of the main process: main requires only electron and Node built-ins', () => {
    const main = fs.readFileSync(path.join(out, 'main.cjs'), 'utf8');
    const builtins = new Set(builtinModules);
    const required = [...main.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1] ?? '');
    expect(
      required.filter((name) => name !== 'electron' && !name.startsWith('node:') && !builtins.has(name)),
    ).toEqual([]);
    expect(main).toContain('utilityProcess');
    expect(main).not.toContain('better-sqlite3');
    // The whole server is in server.cjs (megabytes); main is the thin shell.
    expect(fs.statSync(path.join(out, 'main.cjs')).size).toBeLessThan(100_000);
  });

  it.each(['main.cjs', 'server.cjs'])('ships every module %s requires at run time', (file) => {
    const main = fs.readFileSync(path.join(out, file), 'utf8');
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8'));
    const shipped = new Set([...Object.keys(pkg.dependencies ?? {}), 'electron']);
    // Required inside try/catch by the AWS SDK, which falls back when it is absent; pg requires pg-native only
    // for pg.native, which nothing uses (and a till never opens PostgreSQL).
    const optional = new Set(['@aws-sdk/signature-v4-crt', 'pg-native']);
    const builtins = new Set(builtinModules);
    const missing = [...main.matchAll(/require\("([^".][^"]*)"\)/g)]
      .map((m) => m[1] ?? '')
      .filter((name) => !name.startsWith('node:') && !builtins.has(name) && !optional.has(name))
      .filter((name) => !shipped.has(packageName(name)));
    // A native module added to NATIVE_EXTERNALS must also be a dependency of apps/desktop.
    expect([...new Set(missing)]).toEqual([]);
  });

  it('boots the server from plain JavaScript, without TypeScript at run time', async () => {
    // Same options as main.cjs, minus the Electron entry: proves the server package bundles.
    await build({
      ...COMMON_OPTIONS,
      entryPoints: [path.resolve(import.meta.dirname, 'boot.ts')],
      outfile: path.join(out, 'boot.cjs'),
      external: NATIVE_EXTERNALS,
      sourcemap: false,
      logLevel: 'error',
    });
    const ui = path.join(out, 'ui');
    fs.mkdirSync(ui);
    fs.writeFileSync(path.join(ui, 'index.html'), '<title>bundled</title>');
    const script = `
      const { bootTill } = require(${JSON.stringify(path.join(out, 'boot.cjs'))});
      bootTill({ dataDir: ${JSON.stringify(path.join(out, 'data'))}, staticDir: ${JSON.stringify(ui)}, port: 0, logLevel: 'silent' })
        .then(async (till) => {
          const page = await (await fetch(till.url)).text();
          const health = await (await fetch(till.origin + '/health')).json();
          await till.close();
          console.log(JSON.stringify({ page, health: health.status }));
        })
        .catch((err) => { console.error(err); process.exit(1); });`;
    // Run from the repository so the native modules resolve from node_modules, as in the package.
    const output = execFileSync(process.execPath, ['-e', script], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: { ...process.env, NODE_PATH: path.resolve(import.meta.dirname, '../../../node_modules') },
      encoding: 'utf8',
    });
    expect(JSON.parse(output.trim().split('\n').at(-1) ?? '{}')).toEqual({
      page: '<title>bundled</title>',
      health: 'ok',
    });
  });
});
