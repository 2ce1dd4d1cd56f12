import path from 'node:path';
import {
  app,
  BrowserWindow,
  type IpcMainInvokeEvent,
  ipcMain,
  session,
  shell,
  type WebContents,
} from 'electron';
import { discoverDevices } from '@pharmacy/server';
import { type BootedTill, bootTill, DEFAULT_TILL_PORT, type TillConfig } from './boot';
import { IPC, type IpcChannel } from './ipc';
import type { IpcHandlers } from './preload-api';
import {
  createWindowOptions,
  DEFAULT_EXTERNAL_HOSTS,
  isAllowedExternalUrl,
  isAllowedNavigation,
  validateIpcSender,
  withContentSecurityPolicy,
} from './security';

/**
 * The thin Electron entry: one instance, the server in-process, one hardened window. Everything
 * worth testing lives in boot.ts and security.ts.
 */

let till: BootedTill | undefined;
let win: BrowserWindow | undefined;

function uiDir(): string {
  return app.isPackaged ? path.join(process.resourcesPath, 'pos') : path.resolve(__dirname, '../../pos/dist');
}

function harden(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!till || !isAllowedNavigation(url, till.origin)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!till || !isAllowedNavigation(url, till.origin)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url, DEFAULT_EXTERNAL_HOSTS)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

function handle<C extends IpcChannel>(channel: C, handler: IpcHandlers[C]): void {
  ipcMain.handle(channel, (event: IpcMainInvokeEvent, ...args: unknown[]) => {
    const frame = event.senderFrame;
    const sender = frame ? { url: frame.url, isMainFrame: frame.parent === null } : null;
    if (!till || !validateIpcSender(sender, till.origin)) {
      throw new Error(`Refused IPC ${channel} from ${frame?.url ?? 'an unknown frame'}`);
    }
    return (handler as (...a: unknown[]) => unknown)(...args);
  });
}

function registerIpc(): void {
  handle(IPC.appInfo, () => ({
    version: app.getVersion(),
    platform: process.platform,
    electron: process.versions.electron ?? '',
  }));
  handle(IPC.setKiosk, (on) => {
    win?.setKiosk(on === true);
    return win?.isKiosk() ?? false;
  });
  // What the machine has attached, from the same discovery as GET /printing/devices (never throws).
  handle(IPC.listPrinters, async () => {
    const found = await discoverDevices();
    const hex = (n: number) => n.toString(16).padStart(4, '0');
    return [
      ...found.usb.map((d) => ({
        id: `usb:${hex(d.vendor_id)}:${hex(d.product_id)}`,
        name: [d.manufacturer, d.product].filter(Boolean).join(' ') || `USB printer ${d.address}`,
        status: 'unknown' as const,
      })),
      ...found.serial.map((d) => ({ id: `serial:${d.path}`, name: d.path, status: 'unknown' as const })),
    ];
  });
  handle(IPC.listScanners, async () => {
    const found = await discoverDevices();
    return [
      { id: 'wedge', name: 'Keyboard (USB HID) scanners', kind: 'wedge' as const },
      ...found.serial.map((d) => ({
        id: d.path,
        name: d.manufacturer ? `${d.path} (${d.manufacturer})` : d.path,
        kind: 'serial' as const,
      })),
    ];
  });
}

async function start(): Promise<void> {
  app.on('web-contents-created', (_event, contents) => harden(contents));
  await app.whenReady();

  const port = process.env.TILL_PORT ? Number(process.env.TILL_PORT) : DEFAULT_TILL_PORT;
  till = await bootTill({
    dataDir: path.join(app.getPath('userData'), 'data'),
    staticDir: uiDir(),
    port,
    // Validated by the server's config parser, which names LOG_LEVEL when the value is wrong.
    logLevel: (process.env.LOG_LEVEL as TillConfig['logLevel']) || 'info',
  });

  const appOrigin = till.origin;
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.url, details.responseHeaders, appOrigin) });
  });
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  registerIpc();

  win = new BrowserWindow(createWindowOptions(path.join(__dirname, 'preload.cjs')));
  win.once('ready-to-show', () => win?.show());
  win.on('closed', () => {
    win = undefined;
  });
  await win.loadURL(till.url);
}

// Every renderer sandboxed, whatever a window's own options say.
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  let stopping = false;
  app.on('before-quit', (event) => {
    if (!till || stopping) return;
    // Close the database cleanly before the process ends (WAL checkpoint, no torn writes).
    event.preventDefault();
    stopping = true;
    till.close().finally(() => app.quit());
  });
  start().catch((err: unknown) => {
    console.error(err);
    app.exit(1);
  });
}
