import type { AppInfo, PrinterInfo, ScannerInfo, TillApi } from '@pharmacy/contracts/till-api';
import type { IPC } from './ipc';

export type { AppInfo, PrinterInfo, ScannerInfo, TillApi };

/** What the main process answers on each channel, given the renderer's arguments. */
export interface IpcHandlers {
  [IPC.appInfo]: () => AppInfo;
  [IPC.setKiosk]: (on: unknown) => boolean;
  [IPC.listPrinters]: () => Promise<PrinterInfo[]>;
  [IPC.listScanners]: () => Promise<ScannerInfo[]>;
}
