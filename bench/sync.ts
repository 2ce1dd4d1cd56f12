/**
 * npm run bench:sync [-- --sales 10000 --medicines 100000 --batches 300000]
 *
 * 1. Push: N offline till changes pushed to a central server (in batches of 200 over HTTP with the device
 *    token) and applied there. The heaviest till-owned entity available today is the sync test sale (one change
 *    = sale + lines + stock movements, per-device ICV); selling's real sale replaces it when it registers.
 * 2. Bootstrap: a till (a separate process, so its RSS is its own) bootstraps from a central snapshot of M
 *    medicines and B batches (the catalogue tables, registered here as medicine/batch entities until the
 *    catalogue module registers them), reporting time and peak RSS.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

process.env.PHARMACY_SYNC_TEST_ENTITIES = '1';
const { createServer, parseConfig } = await import('../packages/server/src/index');
const { getEntity, registerEntity } = await import('../packages/server/src/modules/sync/registry');
const { TillStore } = await import('../packages/server/src/modules/sync/till-store');
const { CentralClient } = await import('../packages/sync/src/index');

if (!getEntity('medicine'))
  registerEntity({
    entity: 'medicine',
    owner: 'central',
    scope: 'organisation',
    table: 'medicines',
    order: 60,
  });
if (!getEntity('batch'))
  registerEntity({ entity: 'batch', owner: 'central', scope: 'branch', table: 'batches', order: 70 });

const { values } = parseArgs({
  options: {
    sales: { type: 'string', default: '10000' },
    medicines: { type: 'string', default: '100000' },
    batches: { type: 'string', default: '300000' },
    'till-child': { type: 'string' },
  },
});

async function server(mode: 'central' | 'till', extra: Record<string, unknown> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pharmacy-bench-sync-${mode}-`));
  const s = await createServer(
    parseConfig({
      mode,
      port: 0,
      dataDir,
      logLevel: 'silent',
      jwtSecret: randomBytes(32).toString('hex'),
      seed: {},
      ...extra,
    }),
  );
  const { port } = await s.listen(0, '127.0.0.1');
  return { s, dataDir, url: `http://127.0.0.1:${port}` };
}

async function tillChild(arg: string): Promise<void> {
  const { url, deviceId, token } = JSON.parse(arg) as { url: string; deviceId: string; token: string };
  const till = await server('till');
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  const client = new CentralClient({ centralUrl: url, deviceId, deviceToken: token, appVersion: '0.1.0' });
  const { rows, revision } = await new TillStore(till.s.context).loadSnapshot(client.snapshot());
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const counts = till.s.sqlite
    .prepare('SELECT (SELECT count(*) FROM medicines) AS m, (SELECT count(*) FROM batches) AS b')
    .get();
  await till.s.close();
  fs.rmSync(till.dataDir, { recursive: true, force: true });
  console.log(
    JSON.stringify({ rows, revision, ms, peakRssMb: peak / 1048576, baselineMb: baseline / 1048576, counts }),
  );
}

async function main(): Promise<void> {
  const central = await server('central');
  const ctx = central.s.context;
  const login = (await (
    await fetch(`${central.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@pharmacy.local', password: 'Admin#12345' }),
    })
  ).json()) as { access_token: string };
  const reg = (await (
    await fetch(`${central.url}/api/v1/sync/devices/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.access_token}` },
      body: JSON.stringify({ name: 'Bench till' }),
    })
  ).json()) as { device_id: string; device_token: string; device: { branch_id: string } };
  const branchId = reg.device.branch_id;

  // 1. Push N offline sales.
  const n = Number(values.sales);
  const changes = Array.from({ length: n }, (_, i) => {
    const id = `01a2${String(i).padStart(28, '0')}`.replace(
      /^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/,
      '$1-$2-$3-$4-$5',
    );
    const lines = [
      { item: `med-${i % 500}`, qty: 1 + (i % 3), price_minor: 1250 },
      { item: `med-${(i * 7) % 500}`, qty: 1, price_minor: 480 },
      { item: `med-${(i * 13) % 500}`, qty: 2, price_minor: 3000 },
    ];
    return {
      client_mutation_id: `bench-${i}`,
      entity: 'test_sale',
      op: 'upsert' as const,
      entity_id: id,
      seq: i + 1,
      payload: {
        id,
        branch_id: branchId,
        device_key: reg.device_id,
        invoice_number: `BENCH-${String(i + 1).padStart(6, '0')}`,
        icv: i + 1,
        total_minor: lines.reduce((t, l) => t + l.qty * l.price_minor, 0),
        lines,
        sold_at: new Date().toISOString(),
        created_at: new Date().toISOString(),
      },
    };
  });
  const started = performance.now();
  let accepted = 0;
  for (let i = 0; i < changes.length; i += 200) {
    const res = await fetch(`${central.url}/api/v1/sync/push`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-device-token': reg.device_token,
        'x-app-version': '0.1.0',
      },
      body: JSON.stringify({ device_id: reg.device_id, changes: changes.slice(i, i + 200) }),
    });
    const body = (await res.json()) as { accepted: unknown[]; rejected: unknown[] };
    if (res.status !== 200 || body.rejected.length)
      throw new Error(`push ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    accepted += body.accepted.length;
  }
  const pushMs = performance.now() - started;
  console.log(
    `push: ${accepted} offline sales (3 lines + 3 stock movements each) applied on central in ${(pushMs / 1000).toFixed(2)} s (${Math.round(accepted / (pushMs / 1000))}/s; target 10,000 in < 20 s)`,
  );

  // 2. Snapshot bootstrap of a till from M medicines and B batches.
  const m = Number(values.medicines);
  const b = Number(values.batches);
  const t0 = performance.now();
  const insertM = ctx.sqlite.prepare(
    `INSERT INTO medicines (id, name, generic_name, barcode, barcode_key, form, strength, unit, selling_price, max_public_price, vat_category, regulator_registration_no, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'tablet', '500 mg', 'box', ?, ?, 'standard', ?, ?, ?)`,
  );
  const insertB = ctx.sqlite.prepare(
    `INSERT INTO batches (id, medicine_id, branch_id, batch_number, expiry_date, qty_received, qty_on_hand, unit_cost, received_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 100, 80, ?, ?, ?, ?)`,
  );
  const at = new Date().toISOString();
  ctx.sqlite.transaction(() => {
    for (let i = 0; i < m; i++) {
      const code = String(6_000_000_000_000 + i);
      insertM.run(
        `med-${i}`,
        `Medicine ${i} Paracetamol-codeine film-coated`,
        `Generic ${i % 5000}`,
        code,
        code,
        1000 + (i % 9000),
        20000,
        `REG-${i}`,
        at,
        at,
      );
    }
    for (let i = 0; i < b; i++)
      insertB.run(
        `bat-${i}`,
        `med-${i % m}`,
        branchId,
        `LOT-${i}`,
        `202${7 + (i % 3)}-0${1 + (i % 9)}-15`,
        350 + (i % 100),
        at,
        at,
        at,
      );
  })();
  console.log(
    `snapshot source: ${m} medicines + ${b} batches written to central in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      import.meta.filename,
      '--till-child',
      JSON.stringify({ url: central.url, deviceId: reg.device_id, token: reg.device_token }),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  await new Promise((resolve) => child.once('exit', resolve));
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as {
    rows: number;
    ms: number;
    peakRssMb: number;
    baselineMb: number;
    counts: { m: number; b: number };
  };
  console.log(
    `bootstrap: till loaded ${r.rows} rows (${r.counts.m} medicines, ${r.counts.b} batches) from central's NDJSON snapshot in ${(r.ms / 1000).toFixed(1)} s, till peak RSS ${r.peakRssMb.toFixed(0)} MB, of which ${r.baselineMb.toFixed(0)} MB before the download (server + tsx loaded) (target < 60 s, < 300 MB)`,
  );
  await central.s.close();
  fs.rmSync(central.dataDir, { recursive: true, force: true });
}

if (values['till-child']) await tillChild(values['till-child']);
else await main();
