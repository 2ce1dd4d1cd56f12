import { type CentralAnswer, refreshAtCentral, signInAtCentral } from '@pharmacy/sync';
import type { AppContext } from '../../app-context';
import type { AuthUser } from '../../http/auth';
import { connectedCentral } from './runtime';

/**
 * The person's sign-in at head office, kept by a connected till for each of its own sign-in sessions, so a
 * change to a record head office owns is made there with that person's authority (sync/central-writes.ts).
 * Only in memory: a restart, or a sign-in while head office did not answer, leaves none (sign in again).
 */
interface CentralSession {
  token: string;
  renewAt: number;
}
interface Kept {
  session: Promise<CentralSession | null>;
  /** When the till's own session ends: the entry is dropped after it. */
  endsAt: number;
}
const kept = new WeakMap<AppContext, Map<string, Kept>>();
const keptOf = (app: AppContext) => {
  const sessions = kept.get(app) ?? new Map<string, Kept>();
  kept.set(app, sessions);
  return sessions;
};

const RENEW_BEFORE_END_MS = 60_000;
function asSession(answer: CentralAnswer): CentralSession | null {
  const token = answer.ok ? answer.body.access_token : undefined;
  if (typeof token !== 'string') return null;
  const seconds = Number(answer.ok ? answer.body.expires_in : 0) || 0;
  return { token, renewAt: Date.now() + seconds * 1000 - RENEW_BEFORE_END_MS };
}

/**
 * After a sign-in on a connected till (session `session` of this till): signs the person in at head office too,
 * in the background so a sign-in never waits for head office, or keeps head office's own answer when it
 * checked the password. Nothing on a till that is not connected.
 */
export function keepCentralSession(
  app: AppContext,
  session: { id: string; expiresAt: string },
  signIn: { email: string; password: string } | CentralAnswer,
): void {
  const central = connectedCentral(app);
  if (!central) return;
  const sessions = keptOf(app);
  for (const [id, entry] of sessions) if (entry.endsAt < Date.now()) sessions.delete(id);
  const answer =
    'ok' in signIn ? Promise.resolve(signIn) : signInAtCentral(central, signIn.email, signIn.password);
  sessions.set(session.id, {
    session: answer.then(asSession, () => null),
    endsAt: Date.parse(session.expiresAt),
  });
}

export const forgetCentralSession = (app: AppContext, sessionId: string | undefined): void => {
  if (sessionId) keptOf(app).delete(sessionId);
};

/**
 * The signed-in person's head office token on a connected till, renewed near its end: null when the till
 * keeps none for the session (signed in while head office did not answer, or head office ended it). Throws
 * RegisterError CENTRAL_UNREACHABLE when a renewal finds head office offline.
 */
export async function centralTokenFor(app: AppContext, user: AuthUser): Promise<string | null> {
  const central = connectedCentral(app);
  const entry = user.sessionId ? keptOf(app).get(user.sessionId) : undefined;
  const session = central && entry ? await entry.session : null;
  if (!central || !entry || !session) return null;
  if (Date.now() < session.renewAt) return session.token;
  // Renewed once for every request waiting on it (a second refresh of the same token is refused); when head
  // office does not answer, the old sign-in is kept for the next attempt.
  const renewal = refreshAtCentral(central, session.token).then(asSession);
  entry.session = renewal.catch(() => session);
  return (await renewal)?.token ?? null;
}
