import { type CentralAnswer, changePasswordAtCentral, RegisterError, signInAtCentral } from '@pharmacy/sync';
import type { AppContext } from '../../app-context';
import { AppError, type FieldError, Forbidden, ServiceUnavailable } from '../../lib/errors';
import { connectedCentral, tillReplicator } from '../sync/runtime';

/**
 * A connected till's account operations made at head office (issue 26 H1, C2): users are head office's, so a
 * password changes there, and an account the till holds no verifier for signs in there. When head office does
 * not answer the till says so in plain words and changes nothing.
 */
async function atCentral(
  app: AppContext,
  offline: string,
  work: (centralUrl: string) => Promise<CentralAnswer>,
): Promise<CentralAnswer | null> {
  const central = connectedCentral(app);
  if (!central) return null;
  try {
    return await work(central);
  } catch (err) {
    if (err instanceof RegisterError) throw new ServiceUnavailable(offline, 'TILL_OFFLINE');
    throw err;
  }
}

/**
 * Whether head office takes `password` for `email` as the user `userId`: false for a wrong one, and on a till
 * that is not connected (it has no way to check a password it holds no verifier for). Head office answers 403
 * only once the password is right (a deactivated account): that refusal comes back for the till to give after
 * its own checks.
 */
export async function signedInAtCentral(
  app: AppContext,
  userId: string,
  email: string,
  password: string,
): Promise<{ ok: boolean; refusal?: Forbidden; answer?: CentralAnswer }> {
  const answer = await atCentral(
    app,
    'This till is offline; this account signs in at a till only while the till is connected to head office.',
    (central) => signInAtCentral(central, email, password),
  );
  if (!answer) return { ok: false };
  if (answer.ok) return { ok: answer.body.user_id === userId, answer };
  if (answer.status !== 403) return { ok: false };
  const { code, detail } = answer.body as { code?: unknown; detail?: unknown };
  const words = typeof detail === 'string' ? detail : 'Head office refused the sign-in.';
  return { ok: true, refusal: new Forbidden(words, typeof code === 'string' ? code : 'FORBIDDEN') };
}

/**
 * On a connected till, changes the caller's password at head office and pulls the new record (with its
 * verifier, for the branch's staff) before answering: true; false on a till that is not connected (it changes
 * the password itself). Head office's refusal (wrong current password, a weak new one) is answered as it gave it.
 */
export async function changedAtCentral(
  app: AppContext,
  input: { email: string; current_password: string; new_password: string },
): Promise<boolean> {
  const answer = await atCentral(
    app,
    'This till is offline; your password can be changed when it is connected to head office. Your old password still works.',
    (central) => changePasswordAtCentral(central, input),
  );
  if (!answer) return false;
  if (!answer.ok) throw centralRefusal(answer);
  // The new record reaches this till by pull (the change is head office's); a failed pull leaves it to the next.
  await tillReplicator(app)
    ?.syncNow()
    .catch(() => undefined);
  return true;
}

/** Head office's refusal as this till's answer: its status, code, words and fields (a wrong sign-in is the current password). */
function centralRefusal(answer: Extract<CentralAnswer, { ok: false }>): AppError {
  const body = answer.body as { code?: unknown; detail?: unknown; errors?: unknown };
  const detail = typeof body.detail === 'string' ? body.detail : 'Head office refused the change.';
  if (answer.status === 401)
    return new AppError(400, 'WRONG_PASSWORD', 'The current password is not correct.', [
      { path: 'current_password', message: 'incorrect' },
    ]);
  const status = [400, 403, 409, 429].includes(answer.status) ? answer.status : 502;
  const errors = Array.isArray(body.errors) ? (body.errors as FieldError[]) : undefined;
  return new AppError(status, typeof body.code === 'string' ? body.code : 'CENTRAL_REFUSED', detail, errors);
}
