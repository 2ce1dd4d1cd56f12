/**
 * Every IPC channel between the till window and the main process, shared by main.ts and
 * preload.ts, so a renamed channel is a type error on both sides rather than a silent no-op.
 */
export const IPC = {
  appInfo: 'till:app-info',
  setKiosk: 'till:set-kiosk',
  listPrinters: 'till:printers:list',
  listScanners: 'till:scanners:list',
} as const satisfies Record<string, `till:${string}`>;

export type IpcChannel = (typeof IPC)[keyof typeof IPC];
