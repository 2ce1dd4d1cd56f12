import { z } from 'zod';

/**
 * Tuning of the print worker, read from the environment when the worker starts (tests shorten the backoff
 * with them). Invalid values fail fast, naming the variable.
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

const Ms = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const Env = z.object({
  PRINT_WORKER: z.enum(['on', 'off']).default('on'),
  PRINT_MAX_ATTEMPTS: Ms(1, 100).default(8),
  PRINT_RETRY_BASE_MS: Ms(1, 3_600_000).default(2_000),
  PRINT_RETRY_MAX_MS: Ms(1, 86_400_000).default(300_000),
  PRINT_POLL_MS: Ms(10, 3_600_000).default(2_000),
  PRINT_TIMEOUT_MS: Ms(50, 120_000).default(5_000),
  PRINT_STATUS_TIMEOUT_MS: Ms(50, 60_000).default(1_500),
});

export function printingOptions(env: NodeJS.ProcessEnv = process.env): PrintingOptions {
  const picked = Object.fromEntries(
    Object.keys(Env.shape).map((name) => [name, env[name] === '' ? undefined : env[name]]),
  );
  const parsed = Env.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid printing configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    worker: e.PRINT_WORKER === 'on',
    maxAttempts: e.PRINT_MAX_ATTEMPTS,
    retryBaseMs: e.PRINT_RETRY_BASE_MS,
    retryMaxMs: Math.max(e.PRINT_RETRY_MAX_MS, e.PRINT_RETRY_BASE_MS),
    pollMs: e.PRINT_POLL_MS,
    transportTimeoutMs: e.PRINT_TIMEOUT_MS,
    statusTimeoutMs: e.PRINT_STATUS_TIMEOUT_MS,
  };
}
