import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseConfig } from '../packages/server/src/config';
import {
  DEMO_SIZES,
  DEMO_SYLLABLES,
  type DemoSize,
  ean13,
  generateDemoCatalogue,
} from '../packages/server/src/modules/demo/generate';
import { createServer } from '../packages/server/src/server';
import { benchAdminToken, load, type LoadResult, printTable, spawnTs, tempDataDir } from './lib';
import { runMedicinesListBench } from './medicines-list';
import { runStockSortBench } from './medicines-stock-sort';
import { requireSqlite } from '../packages/server/src/db/connection';

/**
 * Catalogue and stock: search-as-you-type and barcode lookup (1 and 10 connections), receiving a batch, and
 * the count sheet of a 20,000-batch branch, the Medicines table (medicines-list.ts) and the table sorted by
 * stock (medicines-stock-sort.ts), on a generated catalogue of 100,000 medicines and 300,000 batches (15
 * branches of 20,000). BENCH_SECONDS shortens each load; BENCH_CATALOGUE=small|medium for a quick smoke.
 */
export async function runCatalogueBench(
  seconds = Number(process.env.BENCH_SECONDS ?? 5),
  size: DemoSize = DEMO_SIZES[(process.env.BENCH_CATALOGUE as keyof typeof DEMO_SIZES) ?? 'large'] ??
    DEMO_SIZES.large,
): Promise<LoadResult[]> {
  const dataDir = tempDataDir('catalogue');
  const genStarted = performance.now();
  const seeder = await createServer(parseConfig({ dataDir, logLevel: 'silent', seed: {} }));
  const generated = generateDemoCatalogue(requireSqlite(seeder, 'The demo catalogue'), size);
  await seeder.close();
  console.log(
    `generated ${generated.medicines} medicines and ${generated.batches} batches over ${generated.branches.length} branches in ${Math.round(performance.now() - genStarted)} ms`,
  );
  const server = await spawnTs('apps/central/src/main.ts', { DATA_DIR: dataDir });
  try {
    const token = await benchAdminToken(server.url);
    const headers = { authorization: `Bearer ${token}` };
    const api = `${server.url}/api/v1`;

    // What people type: 2-5 letter prefixes of brand and generic names (the syllables the generator builds
    // brand names from), sometimes two words.
    const prefixes = DEMO_SYLLABLES.slice(0, 16);
    const words = [
      'para',
      'amox',
      'ibu',
      'metf',
      'amlo',
      'cipro',
      'omep',
      'salb',
      'ceti',
      'diclo',
      'azith',
      'artem',
    ];
    let i = 0;
    const nextSearch = () => {
      i++;
      const q =
        i % 3 === 0
          ? `${words[i % words.length]} ${prefixes[i % prefixes.length]}`
          : i % 2
            ? prefixes[i % prefixes.length]! + 'l'
            : words[i % words.length]!;
      return `/api/v1/medicines?search=${encodeURIComponent(q)}&page_size=20`;
    };
    const nextBarcode = () => {
      i++;
      const n = (i * 7919) % size.medicines;
      // every other scan arrives as a GTIN-14 with a leading zero
      const code = ean13(`62${String(n).padStart(10, '0')}`);
      return `/api/v1/medicines/barcode/${i % 2 ? code : `0${code}`}`;
    };
    const rows: LoadResult[] = [];
    // Reference: the cheapest authenticated read on the same machine at the same time (shared machines vary).
    const reference = await load('reference: GET /auth/me, 1 conn', {
      url: `${api}/auth/me`,
      headers,
      connections: 1,
      seconds,
    });
    for (const connections of [1, 10]) {
      rows.push(
        await load(`search-as-you-type, ${connections} conn`, {
          url: `${api}/medicines`,
          headers,
          connections,
          seconds,
          setupRequest: (req) => ({ ...req, path: nextSearch() }),
        }),
      );
      rows.push(
        await load(`barcode lookup, ${connections} conn`, {
          url: `${api}/medicines`,
          headers,
          connections,
          seconds,
          setupRequest: (req) => ({ ...req, path: nextBarcode() }),
        }),
      );
    }

    const medicine = (await (await fetch(`${api}/medicines?page_size=1`, { headers })).json()) as {
      items: Array<{ id: string }>;
    };
    const supplier = (await (await fetch(`${api}/suppliers?page_size=1`, { headers })).json()) as {
      items: Array<{ id: string }>;
    };
    const expiry = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
    let n = 0;
    for (const connections of [1, 10]) {
      rows.push(
        await load(`receive a batch (POST /purchases), ${connections} conn`, {
          url: `${api}/purchases`,
          method: 'POST',
          headers,
          connections,
          seconds,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({
              medicine_id: medicine.items[0]!.id,
              supplier_id: supplier.items[0]!.id,
              batch_number: `BENCH-${connections}-${n++}`,
              expiry_date: expiry,
              qty_received: 12,
              unit_cost: 1.25,
            }),
          }),
        }),
      );
    }
    printTable('Catalogue and stock on loopback', [reference, ...rows]);

    // The count sheet of the first branch (20,000 batches in the large catalogue), sequentially.
    const times: number[] = [];
    let lines = 0;
    for (let k = 0; k < 10; k++) {
      const started = performance.now();
      const res = await fetch(`${api}/stockcount?branch_id=${generated.branches[0]}`, { headers });
      const body = (await res.json()) as { total: number };
      times.push(performance.now() - started);
      lines = body.total;
    }
    times.sort((a, b) => a - b);
    console.table([
      {
        name: `GET /stockcount (${lines} batches)`,
        'median ms': Math.round(times[5]!),
        'max ms': Math.round(times.at(-1)!),
        target: '< 500 ms',
      },
    ]);
    const target = (name: string, got: number, want: number) =>
      console.log(`${got < want ? 'ok  ' : 'MISS'} ${name}: ${got} ms (target < ${want} ms)`);
    target('search p95 at 1 connection', rows[0]!.p95, 10);
    target('barcode p95 at 1 connection', rows[1]!.p95, 2);
    target('receive p99 at 1 connection', rows[4]!.p99, 15);
    target('count sheet median', Math.round(times[5]!), 500);
    // Issue 17: the back office's Medicines table read against the bare Express floor.
    await runMedicinesListBench(server.url, token, generated.branches[0]!, seconds);
    // Issue 30.6: the same table sorted by the branch's stock, one request at a time.
    await runStockSortBench(server.url, token, generated.branches[0]!, server.child.pid);
    return rows;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runCatalogueBench();
}
