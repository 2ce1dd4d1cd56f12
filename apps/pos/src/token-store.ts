/**
 * The bearer token lives in memory and in sessionStorage: a reload of the till window keeps the
 * cashier signed in, closing the window (or the browser tab) signs them out.
 */
export interface StoredToken {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** Epoch milliseconds when it was issued, to schedule the refresh at a fraction of its life. */
  issuedAt: number;
}

const KEY = 'pharmacy.till.token';
let current: StoredToken | null = null;

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function tokenFromResponse(
  response: { access_token: string; expires_in: number },
  now = Date.now(),
): StoredToken {
  return { token: response.access_token, issuedAt: now, expiresAt: now + response.expires_in * 1000 };
}

export function saveToken(token: StoredToken): void {
  current = token;
  storage()?.setItem(KEY, JSON.stringify(token));
}

export function clearToken(): void {
  current = null;
  storage()?.removeItem(KEY);
}

/** The token still valid at `now`, from memory or from sessionStorage after a reload. */
export function loadToken(now = Date.now()): StoredToken | null {
  if (!current) {
    try {
      const raw = storage()?.getItem(KEY);
      const parsed = raw ? (JSON.parse(raw) as Partial<StoredToken>) : null;
      if (
        parsed &&
        typeof parsed.token === 'string' &&
        typeof parsed.expiresAt === 'number' &&
        typeof parsed.issuedAt === 'number'
      ) {
        current = { token: parsed.token, expiresAt: parsed.expiresAt, issuedAt: parsed.issuedAt };
      }
    } catch {
      // A damaged entry is treated as no session.
    }
  }
  if (current && current.expiresAt <= now) clearToken();
  return current;
}

export const currentToken = (): string | null => loadToken()?.token ?? null;

/**
 * Milliseconds from `now` until the token should be refreshed: at 80 % of its life, but at least
 * 30 s before it expires, and never in the past.
 */
export function refreshDelay(token: StoredToken, now = Date.now()): number {
  const life = token.expiresAt - token.issuedAt;
  const at = Math.min(token.issuedAt + life * 0.8, token.expiresAt - 30_000);
  return Math.max(0, at - now);
}
