import type { AppContext } from '../app-context';
import { TooManyRequests } from '../lib/errors';
import { type SlidingWindow, slidingWindowOf } from '../lib/sliding-window';

/**
 * The sign-in throttle: failed passwords counted per account (and, on central, per client address). Below the
 * areas, beside the bearer-token check: sign-in (auth), a witness's sign-in at a count (stock-counts) and a
 * manager's unlock (users) all use it.
 */

interface Limits {
  max_failures_per_account: number;
  max_failures_per_address: number;
  window_minutes: number;
}

interface Counter {
  kind: 'account' | 'address';
  key: string;
  max: number;
}

const throttleOf = (app: AppContext): SlidingWindow => slidingWindowOf(app.cache, 'login-failures');
export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;

/**
 * What a sign-in attempt counts against: always its account; on central also its client address across
 * accounts (password spraying from one machine). A till counts accounts only: every client of a till is the
 * till itself (127.0.0.1), so an address limit there let one person's wrong guesses lock out every colleague.
 */
function countersOf(app: AppContext, limits: Limits, clientAddress: string, email: string): Counter[] {
  const account: Counter = { kind: 'account', key: accountKey(email), max: limits.max_failures_per_account };
  if (app.config.mode !== 'central') return [account];
  return [
    account,
    { kind: 'address', key: `address:${clientAddress}`, max: limits.max_failures_per_address },
  ];
}

/**
 * A sign-in attempt, counted before its password is checked: parallel attempts each see the ones before them,
 * so at most the limit of passwords is ever checked in a window. The outcome then keeps the count (a failure)
 * or takes it back (the right password).
 */
export class LoginAttempt {
  private readonly at = Date.now();

  private constructor(
    private readonly app: AppContext,
    private readonly counters: Counter[],
    private readonly windowMs: number,
  ) {}

  /** Reserves an attempt, or throws 429 LOGIN_THROTTLED when a counter is at its limit. */
  static reserve(app: AppContext, limits: Limits, clientAddress: string, email: string): LoginAttempt {
    const counters = countersOf(app, limits, clientAddress, email);
    const windowMs = limits.window_minutes * 60_000;
    const throttle = throttleOf(app);
    const wait = Math.max(0, ...counters.map((c) => throttle.retryAfter(c.key, c.max, windowMs)));
    if (wait > 0)
      throw new TooManyRequests(
        `Too many failed sign-in attempts; try again in ${wait} seconds.`,
        wait,
        'LOGIN_THROTTLED',
      );
    const attempt = new LoginAttempt(app, counters, windowMs);
    for (const c of counters) throttle.hit(c.key, attempt.at);
    return attempt;
  }

  /** The password was right: the attempt counts for nothing, and the account's earlier failures are forgiven. */
  succeeded(): void {
    const throttle = throttleOf(this.app);
    for (const c of this.counters)
      if (c.kind === 'account') throttle.clear(c.key);
      else throttle.release(c.key, this.at);
  }

  /** The counters this failure brought to their limit: the failure that starts a lockout. */
  lockedOut(): Array<'account' | 'address'> {
    const throttle = throttleOf(this.app);
    return this.counters
      .filter((c) => throttle.retryAfter(c.key, c.max, this.windowMs) > 0)
      .map((c) => c.kind);
  }
}

/** Lets a locked-out account sign in again before its window ends (a manager's unlock). */
export function unlockAccount(app: AppContext, email: string): void {
  throttleOf(app).clear(accountKey(email));
}
