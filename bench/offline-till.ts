/**
 * A real till for the sync benches (bench/sync.ts, bench/ingest.ts): a till server in this process, registered
 * on central, bootstrapped from central's snapshot, then selling offline through the selling service exactly as
 * POST /sales does (1-3 lines, FEFO movements, fiscal chain) while nothing is pushed.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { BENCH_ADMIN, tempDataDir } from './lib';

const { createServer, parseConfig } = await import('../packages/server/src/index');
const { TillStore } = await import('../packages/server/src/modules/sync/till-store');
const { CentralClient } = await import('../packages/sync/src/index');
const { CreateSaleRequest } = await import('../packages/contracts/src/index');
const { createSale } = await import('../packages/server/src/modules/sales/service');
const { openSession } = await import('../packages/server/src/modules/sessions/service');
const { SYSTEM } = await import('../packages/server/src/modules/audit/service');

type Server = Awaited<ReturnType<typeof createServer>>;
export type SellingUser = Parameters<typeof createSale>[1];

export interface OfflineTill {
  server: Server;
  client: InstanceType<typeof CentralClient>;
  store: InstanceType<typeof TillStore>;
  close(): Promise<void>;
}

/** A till registered on central as `device`, its data loaded from central's snapshot. */
export async function bootstrappedTill(
  centralUrl: string,
  device: { id: string; token: string },
): Promise<OfflineTill> {
  const dataDir = tempDataDir('till');
  const server = await createServer(
    parseConfig({
      mode: 'till',
      port: 0,
      dataDir,
      logLevel: 'silent',
      jwtSecret: randomBytes(32).toString('hex'),
      seed: { adminPassword: BENCH_ADMIN.password },
    }),
  );
  const client = new CentralClient({
    centralUrl,
    deviceId: device.id,
    deviceToken: device.token,
    appVersion: '0.1.0',
  });
  const store = new TillStore(server.context);
  await store.loadSnapshot(client.snapshot());
  return {
    server,
    client,
    store,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens `user`'s cash session and makes `count` sales of 1-3 lines over `medicineIds` (varied by `seed`). */
export async function sellOffline(
  till: OfflineTill,
  user: SellingUser,
  medicineIds: string[],
  count: number,
  seed = 0,
): Promise<void> {
  const ctx = till.server.context;
  await openSession(ctx, user, SYSTEM, { opening_float: 0, notes: '' });
  for (let i = 0; i < count; i++) {
    const lines = 1 + (i % 3);
    await createSale(
      ctx,
      user,
      SYSTEM,
      CreateSaleRequest.parse({
        items: Array.from({ length: lines }, (_, l) => ({
          medicine_id: medicineIds[(i * 7 + l * 13 + seed) % medicineIds.length],
          quantity: 1 + ((i + l) % 2),
        })),
        // A round note whatever the basket: confirmed, as a cashier would confirm cash far above the total.
        payment_lines: [{ method: 'cash', amount: 200 }],
        confirm_large_cash: true,
      }),
    );
  }
}
