/**
 * What the desktop shell's preload exposes to the UI as `window.till`: declared once, implemented by
 * apps/desktop (preload + main-process IPC handlers) and read by apps/pos, which also works without it in a
 * plain browser. Types only (the UI imports this file alone through `@pharmacy/contracts/till-api`).
 */
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

export interface TillApi {
  appInfo(): Promise<AppInfo>;
  /** Full-screen, no window chrome; resolves with the state now in force. */
  setKiosk(on: boolean): Promise<boolean>;
  printers: { list(): Promise<PrinterInfo[]> };
  scanners: { list(): Promise<ScannerInfo[]> };
}
