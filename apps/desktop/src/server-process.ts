import { discoverDevices } from '@pharmacy/server';
import { type BootedTill, bootTill } from './boot';
import type { FromServer, ParentPortLike, TillConfig, ToServer } from './server-protocol';

/**
 * The till's server in an Electron utility process: SQLite, argon2, the print worker and device discovery
 * run here, so none of them ever blocks the window's main process. Speaks only through
 * `process.parentPort` (server-protocol.ts). Bundled as dist/server.cjs.
 */
export function serveParent(port: ParentPortLike, exit: (code: number) => void): void {
  let booting: Promise<BootedTill | undefined> | undefined;
  let closing: Promise<void> | undefined;
  const post = (message: FromServer) => port.postMessage(message);

  const boot = (config: TillConfig) =>
    bootTill(config).then(
      (till) => {
        if (!closing) post({ type: 'ready', origin: till.origin, url: till.url, port: till.port });
        return till;
      },
      (err: unknown) => {
        post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
        exit(1);
        return undefined;
      },
    );

  // Waits for a boot under way, then closes the HTTP server, the print worker and the database.
  const shutdown = () =>
    (booting ?? Promise.resolve(undefined))
      .then((till) => till?.close())
      .then(
        () => {
          post({ type: 'closed' });
          exit(0);
        },
        (err: unknown) => {
          console.error('till server: close failed', err);
          exit(1);
        },
      );

  port.on('message', ({ data }) => {
    const message = data as ToServer;
    switch (message?.type) {
      case 'boot':
        if (!booting && !closing) booting = boot(message.config);
        return;
      case 'discover':
        // discoverDevices never throws: what it cannot list is in its warnings.
        void discoverDevices().then((devices) => post({ type: 'devices', id: message.id, devices }));
        return;
      case 'shutdown':
        closing ??= shutdown();
        return;
    }
  });
}

const parentPort = process.parentPort as ParentPortLike | undefined;
if (parentPort) serveParent(parentPort, (code) => process.exit(code));
