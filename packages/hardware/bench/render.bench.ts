/**
 * Render timing for an 80 mm, 50-line receipt (budget: under 5 ms each).
 * Run: npx tsx packages/hardware/bench/render.bench.ts
 */
import { performance } from 'node:perf_hooks';
import { buildSaleReceipt } from '../src/receipt/sale-receipt';
import { renderEscPos } from '../src/render/escpos-renderer';
import { renderText } from '../src/render/text-renderer';
import { sampleSaleInput } from '../src/receipt/sample-documents';

const BUDGET_MS = 5;
const WARMUP = 50;
const RUNS = 500;

function measure(name: string, work: () => unknown): number {
  for (let i = 0; i < WARMUP; i++) work();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(RUNS / 2)] ?? Number.NaN;
  const p95 = samples[Math.floor(RUNS * 0.95)] ?? Number.NaN;
  console.log(`${name.padEnd(34)} median ${median.toFixed(3)} ms  p95 ${p95.toFixed(3)} ms`);
  return p95;
}

const input = sampleSaleInput(50);
const receipt = buildSaleReceipt(input, { timeZone: 'Asia/Riyadh' });
const bytes = renderEscPos(receipt, { paper: '80mm', openDrawer: true });
console.log(`receipt: 50 lines, ${bytes.length} ESC/POS bytes`);

const worst = Math.max(
  measure('buildSaleReceipt', () => buildSaleReceipt(input, { timeZone: 'Asia/Riyadh' })),
  measure('renderEscPos 80mm epson', () => renderEscPos(receipt, { paper: '80mm', openDrawer: true })),
  measure('renderEscPos 80mm star', () => renderEscPos(receipt, { paper: '80mm', commandSet: 'star' })),
  measure('renderText 80mm', () => renderText(receipt, { paper: '80mm' })),
  measure('build + renderEscPos 80mm', () =>
    renderEscPos(buildSaleReceipt(input, { timeZone: 'Asia/Riyadh' }), { paper: '80mm' }),
  ),
);
console.log(
  `worst p95 ${worst.toFixed(3)} ms (budget ${BUDGET_MS} ms): ${worst < BUDGET_MS ? 'OK' : 'OVER BUDGET'}`,
);
