import { RegisterError, signInAtCentral } from '@pharmacy/sync';
import type { AppContext } from '../../app-context';
import type { AuthUser } from '../../http/auth';
import { AppError, ServiceUnavailable } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { HASH_NOT_SERVED } from './served';

/**
 * The disconnecting admin's password, checked while the till is still connected (issue 26, leftover 5): a
 * connected till holds no verifier for an organisation-wide account (H1), so once disconnected only branch
 * staff could sign in. The admin confirms their password on the Disconnect dialog; the till checks it (its own
 * verifier, or head office's sign-in) and answers the verifier to keep: null when the till holds one already.
 */
export async function verifierToKeep(
  app: AppContext,
  centralUrl: string,
  user: AuthUser,
  password: string,
): Promise<string | null> {
  const row = await app.db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash'])
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  const held = row.password_hash !== HASH_NOT_SERVED;
  const ok = held
    ? await verifyPassword(row.password_hash, password)
    : await signedInAtCentral(centralUrl, row.id, row.email, password);
  if (!ok)
    throw new AppError(400, 'WRONG_PASSWORD', 'The password is not correct.', [
      { path: 'password', message: 'incorrect' },
    ]);
  return held ? null : hashPassword(password);
}

async function signedInAtCentral(centralUrl: string, userId: string, email: string, password: string) {
  try {
    const answer = await signInAtCentral(centralUrl, email, password);
    return answer.ok && answer.body.user_id === userId;
  } catch (err) {
    if (err instanceof RegisterError)
      throw new ServiceUnavailable(
        'Head office does not answer, so this till cannot check your password. Try again when it is reachable.',
        'TILL_OFFLINE',
      );
    throw err;
  }
}

/** Stores the verifier on this till only: a user row is head office's, and this change is never sent. */
export async function keepVerifier(app: AppContext, userId: string, verifier: string | null): Promise<void> {
  if (!verifier) return;
  await app.db
    .updateTable('users')
    .set({ password_hash: verifier })
    .where('id', '=', userId)
    .where('password_hash', '=', HASH_NOT_SERVED)
    .execute();
}
