import { pathToFileURL } from 'node:url';
import { benchAdminToken, load, type LoadResult, median, printTable, spawnTs } from './lib';

/**
 * Issue 17: the back office's Medicines table read, `GET /medicines?page=N&page_size=50` with the branch's
 * stock, against a bare Express constant route measured in the same run, 10 connections, alternating over
 * BENCH_ROUNDS (3) rounds; the target is a ratio >= 0.4. Pages cycle over the first 40 (the first 2,000 names,
 * what people page through); a second figure spreads the pages over the whole catalogue (deep OFFSETs).
 *
 * Runs inside `npm run bench` on the catalogue bench's generated data; alone on a seeded data folder with
 * `BENCH_DATA_DIR=./data tsx bench/medicines-list.ts` (e.g. after `npm run seed:demo -- --size large`);
 * `BENCH_FRESH=1` turns the server's page cache off, so every page is built afresh (as after a sale);
 * `BENCH_FRESH=cold` also its rows' cached text (as after a catalogue edit).
 */
export async function runMedicinesListBench(
  serverUrl: string,
  token: string,
  branchId: string,
  seconds = Number(process.env.BENCH_SECONDS ?? 5),
): Promise<{ ratio: number; rows: LoadResult[] }> {
  const floor = await spawnTs('bench/floor-server.ts', {});
  try {
    const headers = { authorization: `Bearer ${token}` };
    const api = `${serverUrl}/api/v1`;
    const first = (await (
      await fetch(`${api}/medicines?page_size=50&branch_id=${branchId}`, { headers })
    ).json()) as {
      total: number;
    };
    const lastPage = Math.max(1, Math.ceil(first.total / 50));
    let i = 0;
    const shallow = () =>
      `/api/v1/medicines?page=${(i++ % Math.min(40, lastPage)) + 1}&page_size=50&branch_id=${branchId}`;
    const deep = () =>
      `/api/v1/medicines?page=${((i++ * 7919) % lastPage) + 1}&page_size=50&branch_id=${branchId}`;
    const rows: LoadResult[] = [];
    const ratios: number[] = [];
    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    for (let round = 1; round <= rounds; round++) {
      const f = await load(`floor: bare Express constant (round ${round})`, {
        url: `${floor.url}/floor`,
        seconds,
      });
      const list = await load(`GET /medicines?page=1..40&page_size=50, branch stock (round ${round})`, {
        url: `${api}/medicines`,
        headers,
        seconds,
        setupRequest: (req) => ({ ...req, path: shallow() }),
      });
      rows.push(f, list);
      ratios.push(list.rps / f.rps);
    }
    rows.push(
      await load(`GET /medicines, pages 1..${lastPage} spread (deep offsets)`, {
        url: `${api}/medicines`,
        headers,
        seconds,
        setupRequest: (req) => ({ ...req, path: deep() }),
      }),
    );
    printTable(`Medicines table read (${first.total} active medicines), 10 connections on loopback`, rows);
    const ratio = median(ratios);
    console.log(
      `${ratio >= 0.4 ? 'ok  ' : 'MISS'} medicines page / floor = ${ratio.toFixed(2)}, median of rounds ${ratios.map((r) => r.toFixed(2)).join(', ')} (target >= 0.4)`,
    );
    return { ratio, rows };
  } finally {
    await floor.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dataDir = process.env.BENCH_DATA_DIR;
  if (!dataDir)
    throw new Error('Set BENCH_DATA_DIR to a seeded data folder (npm run seed:demo -- --size large).');
  // BENCH_FRESH=1: every page built afresh (the server's page cache off), the cost of a page after any write.
  const server = await spawnTs('apps/central/src/main.ts', {
    DATA_DIR: dataDir,
    ...(process.env.BENCH_FRESH === '1' && { PHARMACY_LIST_PAGE_CACHE: 'off' }),
    ...(process.env.BENCH_FRESH === 'cold' && { PHARMACY_LIST_PAGE_CACHE: 'cold' }),
  });
  try {
    const token = await benchAdminToken(server.url);
    const branches = (await (
      await fetch(`${server.url}/api/v1/branches?page_size=2`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { items: Array<{ id: string }> };
    await runMedicinesListBench(server.url, token, branches.items.at(-1)!.id);
  } finally {
    await server.stop();
  }
}
