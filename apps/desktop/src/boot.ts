import fs from 'node:fs';
import path from 'node:path';
import { createServer, type PharmacyServer, parseConfig, printingFromEnv } from '@pharmacy/server';
import { DEFAULT_TILL_PORT, type TillConfig } from './server-protocol';

export interface BootedTill {
  server: PharmacyServer;
  url: string;
  origin: string;
  port: number;
  close(): Promise<void>;
}

export { DEFAULT_TILL_PORT, type TillConfig };

function isAddressInUse(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === 'EADDRINUSE';
}

/**
 * Starts the server package in this process on loopback, serving the UI from the same origin.
 * If the fixed port is taken (a second install, a developer's server), a free one is used.
 */
export async function bootTill(config: TillConfig): Promise<BootedTill> {
  if (!fs.existsSync(path.join(config.staticDir, 'index.html'))) {
    throw new Error(`The till UI is missing: no index.html in ${config.staticDir}. Run npm run build:pos.`);
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const server = await createServer(
    parseConfig({
      host: '127.0.0.1',
      port: config.port ?? DEFAULT_TILL_PORT,
      dataDir: config.dataDir,
      mode: 'till',
      staticDir: config.staticDir,
      logLevel: config.logLevel ?? 'info',
      // Only `npm start` asks for the demo catalogue; a real till bootstraps its catalogue from central.
      demoCatalogue: process.env.PHARMACY_DEMO_CATALOGUE === 'true' ? 'true' : 'false',
      // The print worker's tuning, PRINT_* as on any server (README).
      printing: printingFromEnv(process.env),
      seed: {},
    }),
  );
  let port: number;
  try {
    ({ port } = await server.listen(config.port ?? DEFAULT_TILL_PORT, '127.0.0.1'));
  } catch (err) {
    if (!isAddressInUse(err) || config.port === 0) {
      await server.close();
      throw err;
    }
    server.context.log.warn({ port: config.port ?? DEFAULT_TILL_PORT }, 'till port in use; using a free one');
    ({ port } = await server.listen(0, '127.0.0.1'));
  }
  const origin = `http://127.0.0.1:${port}`;
  return { server, url: `${origin}/`, origin, port, close: () => server.close() };
}
