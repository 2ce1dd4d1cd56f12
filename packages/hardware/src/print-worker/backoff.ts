export interface BackoffOptions {
  /** Delay before the first retry. Default 2 s. */
  baseMs?: number;
  /** Cap. Default 5 min. */
  maxMs?: number;
  /** Share of the delay that is randomised, 0..1. Default 0.5. */
  jitter?: number;
  /** Injected for deterministic tests. */
  random?: () => number;
}

/**
 * Milliseconds to wait before retry number `attempt` (0-based): base * 2^attempt, capped, with the top
 * `jitter` share randomised so tills that lost the same printer do not retry in lockstep.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const baseMs = options.baseMs ?? 2_000;
  const maxMs = options.maxMs ?? 300_000;
  const jitter = Math.min(1, Math.max(0, options.jitter ?? 0.5));
  const random = options.random ?? Math.random;
  const exponent = Math.min(Math.max(0, Math.floor(attempt)), 30);
  const ceiling = Math.min(maxMs, baseMs * 2 ** exponent);
  return Math.round(ceiling * (1 - jitter) + ceiling * jitter * random());
}
