import { z } from 'zod';

/**
 * Tuning of the print worker (modules/printing/worker.ts), part of the server's configuration (config.printing):
 * configFromEnv reads it from the PRINT_* variables, a test gives its server numbers of its own. Invalid values
 * are caught at start, naming the variable, but never stop the server: the worker does not start (jobs stay
 * queued, and visible) and the set-up actions and the status route use the defaults.
 */
export interface PrintingOptions {
  /** PRINT_WORKER=off disables the worker (jobs then stay queued). */
  worker: boolean;
  /** Attempts before a job is `failed`. */
  maxAttempts: number;
  /** backoffDelay base and cap between attempts. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Fallback poll: the worker is woken on every enqueue, so this only catches retries and other processes. */
  pollMs: number;
  /** Connect / write timeout of a print attempt. */
  transportTimeoutMs: number;
  /** Timeout of a DLE EOT status read (the status route and the check before printing). */
  statusTimeoutMs: number;
}

/** The environment variable of each setting: read by printingFromEnv, named by every error message. */
export const PRINTING_ENV = {
  worker: 'PRINT_WORKER',
  maxAttempts: 'PRINT_MAX_ATTEMPTS',
  retryBaseMs: 'PRINT_RETRY_BASE_MS',
  retryMaxMs: 'PRINT_RETRY_MAX_MS',
  pollMs: 'PRINT_POLL_MS',
  transportTimeoutMs: 'PRINT_TIMEOUT_MS',
  statusTimeoutMs: 'PRINT_STATUS_TIMEOUT_MS',
} as const satisfies Record<keyof PrintingOptions, string>;

const Ms = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const Checked = z.object({
  worker: z.enum(['on', 'off']).default('on'),
  maxAttempts: Ms(1, 100).default(8),
  retryBaseMs: Ms(1, 3_600_000).default(2_000),
  retryMaxMs: Ms(1, 86_400_000).default(300_000),
  pollMs: Ms(10, 3_600_000).default(2_000),
  transportTimeoutMs: Ms(50, 120_000).default(5_000),
  statusTimeoutMs: Ms(50, 60_000).default(1_500),
});

/**
 * The settings as given, each unset for its default: the variables' text, or numbers from a test. Only their
 * shape is checked here; printingConfig checks the values.
 */
const Given = z.union([z.string(), z.number()]).optional();
export const PrintingInput = z.object({
  worker: z.string().optional(),
  maxAttempts: Given,
  retryBaseMs: Given,
  retryMaxMs: Given,
  pollMs: Given,
  transportTimeoutMs: Given,
  statusTimeoutMs: Given,
});
export type PrintingInput = z.input<typeof PrintingInput>;

/** The checked settings, or why they are not valid (the server starts all the same, see above). */
export type PrintingConfig = { ok: true; options: PrintingOptions } | { ok: false; problem: string };

const PRINTING_DEFAULTS: PrintingOptions = toOptions(Checked.parse({}));

/**
 * The options the set-up actions and the status route time out by: the configured ones, or the defaults when
 * those are not valid (the worker has not started then).
 */
export const timeoutsOf = (printing: PrintingConfig): PrintingOptions =>
  printing.ok ? printing.options : PRINTING_DEFAULTS;

function toOptions(e: z.output<typeof Checked>): PrintingOptions {
  return {
    worker: e.worker === 'on',
    maxAttempts: e.maxAttempts,
    retryBaseMs: e.retryBaseMs,
    retryMaxMs: Math.max(e.retryMaxMs, e.retryBaseMs),
    pollMs: e.pollMs,
    transportTimeoutMs: e.transportTimeoutMs,
    statusTimeoutMs: e.statusTimeoutMs,
  };
}

/** Checks the settings; an empty text counts as unset, as an empty variable does. */
export function printingConfig(input: PrintingInput = {}): PrintingConfig {
  const given = Object.fromEntries(
    Object.entries(input).map(([name, value]) => [name, value === '' ? undefined : value]),
  );
  const parsed = Checked.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const key = i.path.join('.');
      return `${PRINTING_ENV[key as keyof PrintingOptions] ?? key}: ${i.message}`;
    });
    return { ok: false, problem: `Invalid printing configuration:\n  ${lines.join('\n  ')}` };
  }
  return { ok: true, options: toOptions(parsed.data) };
}

/** The PRINT_* variables of an environment, as the settings' input (unset ones left out). */
export function printingFromEnv(env: NodeJS.ProcessEnv): PrintingInput {
  const input: Record<string, string> = {};
  for (const [key, name] of Object.entries(PRINTING_ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') input[key] = value;
  }
  return input;
}
