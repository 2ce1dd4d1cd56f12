/**
 * What the desktop shell's preload exposes as `window.till` (TillApi in
 * apps/desktop/src/preload-api.ts). The UI never imports the desktop code; it reads the bridge
 * structurally and works without it in a plain browser.
 */
export interface TillBridge {
  appInfo(): Promise<{ version: string; platform: string; electron: string }>;
  setKiosk(on: boolean): Promise<boolean>;
  printers: { list(): Promise<{ id: string; name: string; status: string }[]> };
  scanners: { list(): Promise<{ id: string; name: string; kind: string }[]> };
}

export function tillBridge(): TillBridge | undefined {
  return (globalThis as { till?: TillBridge }).till;
}
