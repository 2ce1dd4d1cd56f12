import { runCatalogueBench } from './catalogue';
import { runFoundationBench } from './foundation';
import { runSellingBench } from './selling';

/**
 * `npm run bench`: every area's benchmark in one run. BENCH_SECONDS shortens each load and
 * BENCH_CATALOGUE=small shrinks the generated catalogue; BENCH_ROUNDS sets how many rounds compare a load with
 * its floor (`npm run bench:smoke`, run by `npm test`, takes 1-second loads, one round and the small catalogue:
 * it checks the benchmarks still run, prints figures and never asserts them). The sync and back-office benchmarks need minutes of data
 * generation: `npm run bench:sync`, `BENCH_BACKOFFICE=1 npm run bench`.
 */
await runFoundationBench();
await runCatalogueBench();
await runSellingBench();
if (process.env.BENCH_BACKOFFICE === '1') await (await import('./backoffice')).runBackofficeBench();
