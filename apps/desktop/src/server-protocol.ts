import type { PrinterDevices } from '@pharmacy/contracts';

/** How the till's server starts (boot.ts's bootTill). */
export interface TillConfig {
  /** The till's database, JWT secret and backups; Electron's userData in the desktop app. */
  dataDir: string;
  /** The built UI (apps/pos/dist, or resources/pos when packaged). */
  staticDir: string;
  /** Fixed, so the window's origin (and what the UI keeps in storage) survives restarts. */
  port?: number;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

/** The till's fixed loopback port, so the window's origin (and what the UI keeps in storage) survives restarts. */
export const DEFAULT_TILL_PORT = 47_810;

/**
 * The messages between the main process and the server's utility process (server-process.ts), shared by
 * both sides so a renamed field is a type error on each. Main starts it with `boot`; the server answers
 * `ready` (or `failed`), answers each `discover` with `devices` of the same id, and on `shutdown` closes the
 * HTTP server, the print worker and the database, says `closed` and exits 0.
 */
export type ToServer =
  | { type: 'boot'; config: TillConfig }
  | { type: 'discover'; id: number }
  | { type: 'shutdown' };

export type FromServer =
  | { type: 'ready'; origin: string; url: string; port: number }
  | { type: 'failed'; message: string }
  | { type: 'devices'; id: number; devices: PrinterDevices }
  | { type: 'closed' };

/** The parent's end of the channel: what Electron's `process.parentPort` offers a utility process. */
export interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}
