import { parseArgs } from 'node:util';
import { configFromEnv } from './config';
import { requireSqlite } from './db/connection';
import { createServer } from './server';
import { DEMO_SIZES, type DemoSize, generateDemoCatalogue } from './modules/demo/generate';

/**
 * `npm run seed:demo -- --size large` or `-- --medicines 100000 --batches 300000 [--branches 15]
 * [--suppliers 300] [--seed 1] [--data-dir ./data]`: migrates and seeds DATA_DIR if needed, then bulk-loads a
 * demo catalogue into it.
 */
export async function seedDemoCli(argv = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      size: { type: 'string' },
      medicines: { type: 'string' },
      batches: { type: 'string' },
      branches: { type: 'string' },
      suppliers: { type: 'string' },
      seed: { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  const preset = values.size ?? 'small';
  if (!(preset in DEMO_SIZES)) throw new Error(`--size must be small, medium or large, not ${preset}`);
  const base = DEMO_SIZES[preset as keyof typeof DEMO_SIZES];
  const num = (v: string | undefined, fallback: number, name: string) => {
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, not ${v}`);
    return n;
  };
  const size: DemoSize = {
    medicines: num(values.medicines, base.medicines, 'medicines'),
    batches: num(values.batches, base.batches, 'batches'),
    branches: Math.max(1, num(values.branches, base.branches, 'branches')),
    suppliers: num(values.suppliers, base.suppliers, 'suppliers'),
    seed: num(values.seed, base.seed, 'seed'),
  };
  const config = configFromEnv({
    ...process.env,
    LOG_LEVEL: 'warn',
    ...(values['data-dir'] && { DATA_DIR: values['data-dir'] }),
  });
  const server = await createServer(config);
  try {
    const result = generateDemoCatalogue(requireSqlite(server, 'The demo catalogue generator'), size);
    console.log(
      `Demo catalogue in ${config.dataDir}: ${result.medicines} medicines, ${result.batches} batches over ${result.branches.length} branches in ${result.ms} ms.`,
    );
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '')) {
  seedDemoCli().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
