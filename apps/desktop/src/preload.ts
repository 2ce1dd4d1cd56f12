import { contextBridge, ipcRenderer } from 'electron';
import { IPC } from './ipc';
import type { TillApi } from './preload-api';

/** Runs sandboxed: only `electron` may be required, so esbuild inlines ./ipc. */
const till = {
  appInfo: () => ipcRenderer.invoke(IPC.appInfo),
  setKiosk: (on: boolean) => ipcRenderer.invoke(IPC.setKiosk, on === true),
  printers: { list: () => ipcRenderer.invoke(IPC.listPrinters) },
  scanners: { list: () => ipcRenderer.invoke(IPC.listScanners) },
} satisfies TillApi;

contextBridge.exposeInMainWorld('till', till);
