/**
 * `npm test` after the machine's set-up: every check, each step's log in .test-logs/<step>.log and
 * printed whole when the step ends, a line every minute saying what still runs, and each step's time at the end.
 *
 * The steps run in one lane. Two lanes side by side (the unit suites beside the UI build, end-to-end run and
 * bench smoke) were measured twice on this 2-core machine and gained nothing: the machine is CPU-bound (about
 * 24 min of CPU in a run, counted by cgroup), the SQLite suite took 669 s beside Chromium against about 150 s
 * alone, `npm test`
 * 765 s against 740-785 s in one lane, and a start-up test timed out at load average 13. Each step's CPU
 * seconds are printed beside its time, to see what a step costs.
 *
 *   npx tsx scripts/run-tests.ts [--only step,step]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

interface Step {
  name: string;
  script: string;
  env?: Record<string, string>;
}

const LANES: Step[][] = [
  [
    { name: 'lint', script: 'lint' },
    { name: 'typecheck', script: 'typecheck' },
    { name: 'unit (SQLite)', script: 'test:unit' },
    { name: 'unit (PostgreSQL 15)', script: 'test:pg15' },
    { name: 'UI build', script: 'build:pos' },
    {
      name: 'end-to-end',
      script: 'e2e',
      env: { E2E_TRACE: 'off', E2E_HTML_REPORT: 'off', E2E_RETRIES: '1' },
    },
    { name: 'benchmark smoke', script: 'bench:smoke' },
  ],
];

const ROOT = path.resolve(import.meta.dirname, '..');
const LOGS = path.join(ROOT, '.test-logs');
const HEARTBEAT_MS = 60_000;

interface Outcome {
  step: Step;
  ok: boolean;
  seconds: number;
  /** User plus system CPU seconds of the step's processes; NaN when they could not be read. */
  cpuSeconds: number;
}

/**
 * A step's processes are counted in a cpuacct cgroup of their own where the machine lets us make one (root on
 * cgroup v1): bash's `times` counts only the children each process waited for, and missed about 40 % of the
 * end-to-end run's CPU (Chromium's renderer and GPU processes). Elsewhere `times` is the fallback.
 */
const CPUACCT = '/sys/fs/cgroup/cpuacct';

function cpuGroup(step: Step): string | null {
  const dir = path.join(CPUACCT, `pharmacy-test-${process.pid}-${step.script.replace(/[^a-z0-9]+/gi, '-')}`);
  try {
    fs.mkdirSync(dir);
    return dir;
  } catch {
    return null;
  }
}

/** The cgroup's CPU in seconds, then the cgroup removed (its processes have all exited). */
function cpuOfGroup(dir: string): number {
  try {
    return Number(fs.readFileSync(path.join(dir, 'cpuacct.usage'), 'utf8')) / 1e9;
  } catch {
    return Number.NaN;
  } finally {
    // Left behind if a process of the step outlived it (a leaked server): harmless, and seen in `ls`.
    try {
      fs.rmdirSync(dir);
    } catch {}
  }
}

const running = new Map<string, number>();
const started = performance.now();
const elapsed = (since: number) => (performance.now() - since) / 1000;

function logFile(step: Step): string {
  return path.join(LOGS, `${step.script.replace(/[^a-z0-9]+/gi, '-')}.log`);
}

/** Reads the children's line of bash's `times` ("0m12.5s 0m3.1s") as seconds of CPU. */
function cpuOf(timesFile: string): number {
  const line = fs.existsSync(timesFile) ? (fs.readFileSync(timesFile, 'utf8').split('\n')[1] ?? '') : '';
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)];
  if (parts.length !== 2) return Number.NaN;
  return parts.reduce((sum, [, m, sec]) => sum + Number(m) * 60 + Number(sec), 0);
}

/** Runs `npm run <script>` with its output in its log file; prints the log once it ends. */
function runStep(step: Step): Promise<Outcome> {
  const file = logFile(step);
  const out = fs.openSync(file, 'w');
  const since = performance.now();
  running.set(step.name, since);
  const times = `${file}.cpu`;
  const group = cpuGroup(step);
  // bash's `times` prints the CPU its waited-for children used: the step's own cost, whatever else runs.
  const child = spawn(
    'bash',
    [
      '-c',
      '[ -n "$3" ] && echo $$ > "$3/cgroup.procs"; npm run "$1"; rc=$?; times > "$2"; exit $rc',
      'bash',
      step.script,
      times,
      group ?? '',
    ],
    {
      cwd: ROOT,
      env: { ...process.env, ...step.env },
      stdio: ['ignore', out, out],
    },
  );
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      fs.closeSync(out);
      running.delete(step.name);
      const cpuSeconds = (group && cpuOfGroup(group)) || cpuOf(times);
      const outcome = { step, ok: code === 0, seconds: elapsed(since), cpuSeconds };
      const verdict = outcome.ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n===== ${step.name}: npm run ${step.script} =====\n`);
      process.stdout.write(fs.readFileSync(file, 'utf8'));
      process.stdout.write(`===== ${step.name} ${verdict} in ${outcome.seconds.toFixed(0)} s =====\n`);
      resolve(outcome);
    });
  });
}

async function runLane(lane: Step[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const step of lane) {
    const outcome = await runStep(step);
    outcomes.push(outcome);
    if (!outcome.ok) break;
  }
  return outcomes;
}

function heartbeat(): void {
  const now = [...running].map(([name, since]) => `${name} ${elapsed(since).toFixed(0)} s`).join(', ');
  process.stderr.write(`[${elapsed(started).toFixed(0)} s] running: ${now}\n`);
}

function only(): Set<string> | null {
  const at = process.argv.indexOf('--only');
  return at < 0 ? null : new Set((process.argv[at + 1] ?? '').split(','));
}

async function main(): Promise<number> {
  fs.mkdirSync(LOGS, { recursive: true });
  const chosen = only();
  const pick = (steps: Step[]) => steps.filter((s) => !chosen || chosen.has(s.script));
  const timer = setInterval(heartbeat, HEARTBEAT_MS);
  const outcomes = (await Promise.all(LANES.map((lane) => runLane(pick(lane))))).flat();
  clearInterval(timer);
  const planned = LANES.flat().length;
  process.stdout.write(`\nnpm test: ${elapsed(started).toFixed(0)} s in all\n`);
  for (const o of outcomes)
    process.stdout.write(
      `  ${o.ok ? 'passed' : 'FAILED'}  ${o.seconds.toFixed(0).padStart(4)} s  cpu ${o.cpuSeconds.toFixed(0).padStart(4)} s  ${o.step.name}\n`,
    );
  const skipped = chosen ? 0 : planned - outcomes.length;
  if (skipped) process.stdout.write(`  ${skipped} step(s) not run after a failure\n`);
  return outcomes.every((o) => o.ok) && skipped === 0 ? 0 : 1;
}

main().then((code) => process.exit(code));
