import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IPC } from './ipc';
import { contentSecurityPolicy } from './security';

/**
 * Runs the real Electron entry against a stand-in for the `electron` module (there is no
 * Electron binary here): it must fork the real server into its own process (the stand-in's
 * utilityProcess.fork runs server-process.ts in a Node child process), open one hardened window on
 * it, guard navigation, new windows, webviews, permissions and every IPC channel, and on quit have
 * the server close its database and exit.
 */
type Listener = (...args: unknown[]) => unknown;

const fake = vi.hoisted(() => {
  const appListeners = new Map<string, Listener[]>();
  const state = {
    userData: '',
    windows: [] as { options: Record<string, unknown>; url?: string; kiosk: boolean }[],
    handlers: new Map<string, Listener>(),
    headersListener: undefined as Listener | undefined,
    permissionHandler: undefined as Listener | undefined,
    appListeners,
    quit: 0,
    forked: [] as { modulePath: string; serviceName?: string; pid?: number; exitCode?: number | null }[],
  };
  class BrowserWindow {
    options: Record<string, unknown>;
    url?: string;
    kiosk = false;
    constructor(options: Record<string, unknown>) {
      this.options = options;
      state.windows.push(this);
    }
    once() {}
    on() {}
    show() {}
    isMinimized() {
      return false;
    }
    focus() {}
    setKiosk(on: boolean) {
      this.kiosk = on;
    }
    isKiosk() {
      return this.kiosk;
    }
    async loadURL(url: string) {
      this.url = url;
    }
  }
  const electron = {
    app: {
      isPackaged: true,
      enableSandbox: () => {},
      requestSingleInstanceLock: () => true,
      on: (name: string, fn: Listener) => appListeners.set(name, [...(appListeners.get(name) ?? []), fn]),
      whenReady: async () => {},
      getPath: () => state.userData,
      getVersion: () => '0.1.0-test',
      quit: () => {
        state.quit += 1;
      },
      exit: (code: number) => {
        throw new Error(`app.exit(${code})`);
      },
    },
    BrowserWindow,
    ipcMain: { handle: (channel: string, fn: Listener) => state.handlers.set(channel, fn) },
    session: {
      defaultSession: {
        webRequest: {
          onHeadersReceived: (fn: Listener) => {
            state.headersListener = fn;
          },
        },
        setPermissionRequestHandler: (fn: Listener) => {
          state.permissionHandler = fn;
        },
      },
    },
    shell: { openExternal: vi.fn(async () => {}) },
  };
  return { state, electron };
});

vi.mock('electron', async () => {
  const { fork } = await import('node:child_process');
  const here = import.meta.dirname;
  // Electron's utilityProcess, played by a Node child process running the entry's source; the shim gives
  // it the `process.parentPort` a utility process has.
  const utilityProcess = {
    fork(modulePath: string, _args: string[], options: { serviceName?: string } = {}) {
      const proc = fork(`${here}/server-process.ts`, [], {
        execArgv: ['--import', 'tsx', '--require', `${here}/testing/parent-port-shim.cjs`],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const record: (typeof fake.state.forked)[number] = { modulePath, pid: proc.pid, ...options };
      proc.once('exit', (code) => {
        record.exitCode = code;
      });
      fake.state.forked.push(record);
      return {
        pid: proc.pid,
        postMessage: (message: unknown) => proc.send(message as object),
        on(event: string, listener: Listener) {
          if (event === 'message') proc.on('message', listener);
          if (event === 'exit') proc.on('exit', (code) => listener(code ?? -1));
          return this;
        },
        kill: () => proc.kill(),
      };
    },
  };
  const electron = { ...fake.electron, utilityProcess };
  return { ...electron, default: electron };
});

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'till-main-'));
const { state } = fake;

function fakeContents() {
  const on = new Map<string, Listener>();
  let openHandler: Listener | undefined;
  return {
    on: (name: string, fn: Listener) => on.set(name, fn),
    setWindowOpenHandler: (fn: Listener) => {
      openHandler = fn;
    },
    emit(name: string, url?: string) {
      const event = {
        defaultPrevented: false,
        preventDefault() {
          this.defaultPrevented = true;
        },
      };
      on.get(name)?.(event, url);
      return event.defaultPrevented;
    },
    open: (url: string) => openHandler?.({ url }),
  };
}

function invoke(channel: string, frame: { url: string; parent: unknown } | null, ...args: unknown[]) {
  const handler = state.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return handler({ senderFrame: frame }, ...args);
}

let origin = '';

beforeAll(async () => {
  state.userData = path.join(root, 'userData');
  fs.mkdirSync(path.join(root, 'resources/pos'), { recursive: true });
  fs.writeFileSync(path.join(root, 'resources/pos/index.html'), '<title>packaged till</title>');
  (process as { resourcesPath?: string }).resourcesPath = path.join(root, 'resources');
  process.env.TILL_PORT = '0';
  process.env.LOG_LEVEL = 'silent';
  await import('./main');
  // The server starts in its own process: on a loaded 2-core machine that has taken more than 15 s.
  await vi.waitFor(() => expect(state.windows[0]?.url).toBeTruthy(), { timeout: 50_000 });
  origin = new URL(state.windows[0]?.url ?? '').origin;
}, 60_000);

afterAll(async () => {
  delete process.env.TILL_PORT;
  delete process.env.LOG_LEVEL;
  fs.rmSync(root, { recursive: true, force: true });
});

describe('desktop main process', () => {
  it('boots the server in a utility process and opens one sandboxed window on it', async () => {
    expect(state.forked).toHaveLength(1);
    expect(state.forked[0]?.modulePath).toMatch(/server\.cjs$/);
    expect(state.forked[0]?.serviceName).toBe('Pharmacy till server');
    expect(state.forked[0]?.pid).not.toBe(process.pid);
    expect(state.windows).toHaveLength(1);
    const prefs = state.windows[0]?.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(String(prefs.preload)).toMatch(/preload\.cjs$/);
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${origin}/sell`)).text()).toContain('packaged till');
    expect(fs.existsSync(path.join(state.userData, 'data', 'pharmacy.db'))).toBe(true);
  });

  it('answers IPC only from the till top frame', async () => {
    const top = { url: `${origin}/sell`, parent: null };
    expect(await invoke(IPC.appInfo, top)).toMatchObject({ version: '0.1.0-test' });
    // Real discovery (the server's GET /printing/devices listing), never a hard-coded empty list.
    const printers = (await invoke(IPC.listPrinters, top)) as Array<{ id: string; status: string }>;
    for (const p of printers) expect(p.id).toMatch(/^(usb|serial):/);
    const scanners = (await invoke(IPC.listScanners, top)) as Array<{ id: string; kind: string }>;
    expect(scanners[0]).toMatchObject({ id: 'wedge', kind: 'wedge' });
    for (const s of scanners.slice(1)) expect(s.kind).toBe('serial');
    expect(await invoke(IPC.setKiosk, top, true)).toBe(true);
    expect(await invoke(IPC.setKiosk, top, 'yes')).toBe(false);
    expect(() => invoke(IPC.appInfo, { url: 'https://evil.example/', parent: null })).toThrow(/Refused/);
    expect(() => invoke(IPC.appInfo, { url: `${origin}/`, parent: {} })).toThrow(/Refused/);
    expect(() => invoke(IPC.appInfo, null)).toThrow(/Refused/);
    expect([...state.handlers.keys()].sort()).toEqual(Object.values(IPC).sort());
  });

  it('blocks foreign navigation, new windows and webviews', () => {
    const contents = fakeContents();
    for (const fn of state.appListeners.get('web-contents-created') ?? []) fn({}, contents);
    expect(contents.emit('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.emit('will-navigate', `${origin}/back-office`)).toBe(false);
    expect(contents.emit('will-redirect', 'http://127.0.0.1:1/')).toBe(true);
    expect(contents.emit('will-attach-webview')).toBe(true);
    expect(contents.open('https://evil.example/')).toEqual({ action: 'deny' });
    expect(fake.electron.shell.openExternal).not.toHaveBeenCalled();
  });

  it('adds the CSP to the app responses and refuses every permission', () => {
    let headers: Record<string, string[]> | undefined;
    state.headersListener?.(
      { url: `${origin}/`, responseHeaders: {} },
      (r: { responseHeaders: typeof headers }) => {
        headers = r.responseHeaders;
      },
    );
    expect(headers?.['Content-Security-Policy']).toEqual([contentSecurityPolicy()]);
    let granted: boolean | undefined;
    state.permissionHandler?.({}, 'media', (ok: boolean) => {
      granted = ok;
    });
    expect(granted).toBe(false);
  });

  it('on quit, has the server close its database and exit before the app quits', async () => {
    const db = path.join(state.userData, 'data', 'pharmacy.db');
    const event = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    for (const fn of state.appListeners.get('before-quit') ?? []) fn(event);
    expect(event.prevented).toBe(true);
    await vi.waitFor(() => expect(state.quit).toBeGreaterThan(0), { timeout: 15_000 });
    expect(state.forked[0]?.exitCode).toBe(0);
    expect(fs.existsSync(db)).toBe(true);
    expect(fs.existsSync(`${db}-wal`)).toBe(false);
    await expect(fetch(`${origin}/health`)).rejects.toThrow();
  });
});
