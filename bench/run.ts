import { runFoundationBench } from './foundation';
import { runSellingBench } from './selling';

/** `npm run bench`: every area's benchmark in one run. BENCH_SECONDS shortens each load (CI smoke uses 1). */
await runFoundationBench();
await runSellingBench();
if (process.env.BENCH_BACKOFFICE === '1') await (await import('./backoffice')).runBackofficeBench();
