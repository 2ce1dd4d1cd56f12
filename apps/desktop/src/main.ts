import path from 'node:path';
import {
  app,
  BrowserWindow,
  type IpcMainInvokeEvent,
  ipcMain,
  session,
  shell,
  utilityProcess,
  type WebContents,
} from 'electron';
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
import { type ServerChild, type ServerHost, startServer } from './server-host';
import { DEFAULT_TILL_PORT, type TillConfig } from './server-protocol';

/**
 * The thin Electron entry: one instance, one hardened window, and the server (SQLite, argon2, the print
 * worker, device discovery) in a utility process (server-process.ts, dist/server.cjs), so none of them ever
 * blocks this process. Everything worth testing lives in server-host.ts, boot.ts and security.ts.
 */

let till: ServerHost | undefined;
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
    const found = (await till?.discover()) ?? { usb: [], serial: [], warnings: [] };
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
    const found = (await till?.discover()) ?? { usb: [], serial: [], warnings: [] };
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

/** Forks the server's utility process, boots it and waits for its origin. */
function forkServer(config: TillConfig): Promise<ServerHost> {
  const proc = utilityProcess.fork(path.join(__dirname, 'server.cjs'), [], {
    serviceName: 'Pharmacy till server',
    stdio: 'inherit',
  });
  const child: ServerChild = {
    postMessage: (message) => proc.postMessage(message),
    onMessage: (listener) => proc.on('message', listener),
    onExit: (listener) => proc.on('exit', listener),
    kill: () => void proc.kill(),
  };
  return startServer(child, config);
}

async function start(): Promise<void> {
  app.on('web-contents-created', (_event, contents) => harden(contents));
  await app.whenReady();

  const port = process.env.TILL_PORT ? Number(process.env.TILL_PORT) : DEFAULT_TILL_PORT;
  till = await forkServer({
    dataDir: path.join(app.getPath('userData'), 'data'),
    staticDir: uiDir(),
    port,
    // Validated by the server's config parser, which names LOG_LEVEL when the value is wrong.
    logLevel: (process.env.LOG_LEVEL as TillConfig['logLevel']) || 'info',
  });
  till.onUnexpectedExit((code) => {
    console.error(`The till server stopped unexpectedly (code ${code}); closing the till.`);
    app.exit(1);
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
    // The server closes its database cleanly before the app ends (WAL checkpoint, no torn writes); a server
    // that has not exited after SHUTDOWN_TIMEOUT_MS is killed (SQLite's WAL recovers at the next start).
    event.preventDefault();
    stopping = true;
    till
      .shutdown()
      .then((how) => how !== 'closed' && console.error(`The till server ${how} on quit`))
      .finally(() => app.quit());
  });
  start().catch((err: unknown) => {
    console.error(err);
    app.exit(1);
  });
}
