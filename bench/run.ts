import { runFoundationBench } from './foundation';

/** `npm run bench`: every area's benchmark in one run. BENCH_SECONDS shortens each load (CI smoke uses 1). */
await runFoundationBench();
