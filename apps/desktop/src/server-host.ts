import type { PrinterDevices } from '@pharmacy/contracts';
import type { FromServer, TillConfig, ToServer } from './server-protocol';

/**
 * The main process's side of the server's utility process: boots it, waits for its origin, asks it for the
 * attached devices, and shuts it down on quit. Imports no server code, so the main bundle stays a thin shell.
 */

/** A started server process: Electron's UtilityProcess in the app, a Node child process in the tests. */
export interface ServerChild {
  postMessage(message: ToServer): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number) => void): void;
  kill(): void;
}

export interface ServerHost {
  origin: string;
  url: string;
  port: number;
  /** Serial ports and USB printers, from the server's discovery (never rejects: warnings say what failed). */
  discover(): Promise<PrinterDevices>;
  /**
   * Asks the server to close its HTTP server, print worker and database and waits for it to exit: 'closed'
   * when it exited 0 after closing, 'failed' when it exited otherwise, 'killed' when it had not exited within
   * `timeoutMs` and was killed.
   */
  shutdown(timeoutMs?: number): Promise<'closed' | 'failed' | 'killed'>;
  /** Called when the server exits without being asked to (a crash). */
  onUnexpectedExit(listener: (code: number) => void): void;
}

export const BOOT_TIMEOUT_MS = 60_000;
export const SHUTDOWN_TIMEOUT_MS = 10_000;
const DISCOVER_TIMEOUT_MS = 15_000;

const noDevices = (warning: string): PrinterDevices => ({ serial: [], usb: [], warnings: [warning] });

export function startServer(
  child: ServerChild,
  config: TillConfig,
  bootTimeoutMs = BOOT_TIMEOUT_MS,
): Promise<ServerHost> {
  let exitCode: number | undefined;
  let stopping = false;
  let nextId = 0;
  const pending = new Map<number, (devices: PrinterDevices) => void>();
  const exitWaiters: Array<(code: number) => void> = [];
  const unexpected: Array<(code: number) => void> = [];

  return new Promise<ServerHost>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`The till server did not start within ${bootTimeoutMs / 1000} s`));
      child.kill();
    }, bootTimeoutMs);
    let host: ServerHost | undefined;

    child.onExit((code) => {
      exitCode = code;
      clearTimeout(timer);
      for (const answer of pending.values()) answer(noDevices('The till server stopped'));
      pending.clear();
      for (const waiter of exitWaiters.splice(0)) waiter(code);
      if (!host) reject(new Error(`The till server exited (code ${code}) before it was ready`));
      else if (!stopping) for (const listener of unexpected) listener(code);
    });

    child.onMessage((raw) => {
      const message = raw as FromServer;
      switch (message?.type) {
        case 'ready':
          clearTimeout(timer);
          host = hostOf(message);
          resolve(host);
          return;
        case 'failed':
          clearTimeout(timer);
          reject(new Error(message.message));
          return;
        case 'devices':
          pending.get(message.id)?.(message.devices);
          pending.delete(message.id);
          return;
        case 'closed':
          return;
      }
    });

    child.postMessage({ type: 'boot', config });
  });

  function hostOf(ready: Extract<FromServer, { type: 'ready' }>): ServerHost {
    return {
      origin: ready.origin,
      url: ready.url,
      port: ready.port,
      discover() {
        if (exitCode !== undefined) return Promise.resolve(noDevices('The till server is not running'));
        const id = ++nextId;
        return new Promise<PrinterDevices>((resolve) => {
          const timer = setTimeout(() => {
            pending.delete(id);
            resolve(noDevices('The till server did not answer in time'));
          }, DISCOVER_TIMEOUT_MS);
          pending.set(id, (devices) => {
            clearTimeout(timer);
            resolve(devices);
          });
          child.postMessage({ type: 'discover', id });
        });
      },
      async shutdown(timeoutMs = SHUTDOWN_TIMEOUT_MS) {
        stopping = true;
        const exited =
          exitCode !== undefined
            ? Promise.resolve(exitCode)
            : new Promise<number>((resolve) => exitWaiters.push(resolve));
        if (exitCode === undefined) child.postMessage({ type: 'shutdown' });
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), timeoutMs);
        });
        const code = await Promise.race([exited, late]);
        clearTimeout(timer);
        if (code === 'late') {
          child.kill();
          return 'killed';
        }
        // Exit code 0 only follows a completed close (server-process.ts exits 1 when closing failed).
        return code === 0 ? 'closed' : 'failed';
      },
      onUnexpectedExit(listener) {
        unexpected.push(listener);
      },
    };
  }
}
