import type { IPC } from './ipc';

export interface AppInfo {
  version: string;
  platform: string;
  electron: string;
}

/** Hardware descriptions; packages/hardware fills them in behind the same calls. */
export interface PrinterInfo {
  id: string;
  name: string;
  status: 'ready' | 'offline' | 'unknown';
}
export interface ScannerInfo {
  id: string;
  name: string;
  kind: 'wedge' | 'serial';
}

/** The one object the preload exposes to the UI as `window.till`. */
export interface TillApi {
  appInfo(): Promise<AppInfo>;
  /** Full-screen, no window chrome; resolves with the state now in force. */
  setKiosk(on: boolean): Promise<boolean>;
  printers: { list(): Promise<PrinterInfo[]> };
  scanners: { list(): Promise<ScannerInfo[]> };
}

/** What the main process answers on each channel, given the renderer's arguments. */
export interface IpcHandlers {
  [IPC.appInfo]: () => AppInfo;
  [IPC.setKiosk]: (on: unknown) => boolean;
  [IPC.listPrinters]: () => PrinterInfo[];
  [IPC.listScanners]: () => ScannerInfo[];
}
