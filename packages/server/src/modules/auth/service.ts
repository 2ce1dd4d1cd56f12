import type { LoginResponse } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import { type AuthUser, assertTillBranch, issueToken, refreshToken } from '../../http/auth';
import { Forbidden, Invalid, ServiceUnavailable, Unauthorized } from '../../lib/errors';
import { burnVerify, verifyPassword } from '../../lib/passwords';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { getSettings } from '../settings/service';
import { setPassword } from '../users/service';
import { HASH_NOT_SERVED } from '../sync/served';
import type { CentralAnswer } from '@pharmacy/sync';
import { keepCentralSession } from '../sync/central-session';
import { changedAtCentral, signedInAtCentral } from './at-central';
import { LoginAttempt } from '../../http/sign-in-throttle';

/**
 * Checks an email and password as sign-in does (counted by the sign-in throttle, a failure audited as
 * auth.login_failed): the user, head office's refusal or answer for an account it checked there, and the
 * email as stored. Throws 401
 * INVALID_CREDENTIALS for a wrong email or password, 429 LOGIN_THROTTLED past the limit.
 */
export async function checkCredentials(
  app: AppContext,
  input: { email: string; password: string },
  clientAddress: string,
  requestId: string,
) {
  const { login_throttle: limits } = await getSettings(app);
  const email = input.email.trim().toLowerCase();
  const attempt = LoginAttempt.reserve(app, limits, clientAddress, email);

  const user = await app.db
    .selectFrom('users as u')
    .innerJoin('branches as b', 'b.id', 'u.branch_id')
    .selectAll('u')
    .select('b.name as branch_name')
    .where('u.email', '=', email)
    .executeTakeFirst();
  let ok = false;
  let centralRefusal: Forbidden | undefined;
  let centralAnswer: CentralAnswer | undefined;
  // A till holds no verifier for an organisation-wide account (H1): head office checks it while connected.
  if (user?.password_hash === HASH_NOT_SERVED)
    ({
      ok,
      refusal: centralRefusal,
      answer: centralAnswer,
    } = await signedInAtCentral(app, user.id, email, input.password));
  else if (user) ok = await verifyPassword(user.password_hash, input.password);
  else await burnVerify(input.password);
  if (!user || !ok) {
    const entry = {
      entity: 'user',
      entityId: user?.id ?? null,
      branchId: user?.branch_id ?? null,
    };
    const actor = { userId: user?.id ?? null, requestId };
    await writeAudit(app.db, actor, {
      ...entry,
      action: 'auth.login_failed',
      after: { email, client_address: clientAddress },
    });
    // The failure that starts a lockout is recorded once: the attempts it then refuses never reach here.
    const lockedOut = attempt.lockedOut();
    if (lockedOut.length > 0)
      await writeAudit(app.db, actor, {
        ...entry,
        action: 'auth.login_locked',
        after: {
          email,
          client_address: clientAddress,
          locked: lockedOut,
          window_minutes: limits.window_minutes,
        },
      });
    throw new Unauthorized('Invalid email or password.', 'INVALID_CREDENTIALS');
  }
  attempt.succeeded();
  return { user, centralRefusal, centralAnswer, email };
}

export async function login(
  app: AppContext,
  input: { email: string; password: string },
  clientAddress: string,
  requestId: string,
): Promise<LoginResponse> {
  const { user, centralRefusal, centralAnswer, email } = await checkCredentials(
    app,
    input,
    clientAddress,
    requestId,
  );
  try {
    if (!user.is_active)
      throw new Forbidden('This account is deactivated; ask an administrator.', 'ACCOUNT_INACTIVE');
    // A till refuses a branch-bound user of another branch (403 OTHER_BRANCH_TILL), e.g. one moved away.
    assertTillBranch(app, user);
    if (centralRefusal) throw centralRefusal;
  } catch (refusal) {
    // The right password for an account that may not sign in here: worth an auditor's eye.
    if (refusal instanceof Forbidden)
      await writeAudit(
        app.db,
        { userId: user.id, requestId },
        {
          action: 'auth.login_refused',
          entity: 'user',
          entityId: user.id,
          branchId: user.branch_id,
          after: { reason: refusal.code, client_address: clientAddress },
        },
      );
    throw refusal;
  }

  // Last sign-in is local bookkeeping, not replicated: users are owned by central.
  const at = nowIso();
  await app.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ last_login_at: at }).where('id', '=', user.id).execute();
    await writeAudit(
      trx,
      { userId: user.id, requestId },
      {
        action: 'auth.login',
        entity: 'user',
        entityId: user.id,
        branchId: user.branch_id,
        after: { client_address: clientAddress },
      },
    );
  });
  const { token, expiresIn, session } = await issueToken(
    app,
    user,
    (await getSettings(app)).session_max_hours,
  );
  keepCentralSession(app, session, centralAnswer ?? { email, password: input.password });
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: expiresIn,
    user_id: user.id,
    role: user.role as LoginResponse['role'],
    branch_id: user.branch_id,
    branch_name: user.branch_name,
    full_name: user.full_name,
    must_change_password: user.must_change_password === 1,
  };
}

export async function changePassword(
  app: AppContext,
  caller: AuthUser,
  actor: Actor,
  input: { current_password: string; new_password: string },
) {
  if (
    input.new_password !== input.current_password &&
    (await changedAtCentral(app, { email: caller.email, ...input }))
  )
    return tokenAfterCentralChange(app, caller, input.new_password);
  const row = await app.db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', caller.id)
    .executeTakeFirstOrThrow();
  if (!(await verifyPassword(row.password_hash, input.current_password))) {
    throw new Invalid(
      'The current password is not correct.',
      [{ path: 'current_password', message: 'incorrect' }],
      'WRONG_PASSWORD',
    );
  }
  if (input.new_password === input.current_password) {
    throw new Invalid('The new password must differ from the current one.', [
      { path: 'new_password', message: 'same as the current password' },
    ]);
  }
  const updated = await setPassword(app, actor, caller.id, input.new_password, 'user.password_change');
  const { token, expiresIn } = await issueToken(app, updated, (await getSettings(app)).session_max_hours);
  return {
    changed_at: updated.updated_at,
    access_token: token,
    token_type: 'bearer' as const,
    expires_in: expiresIn,
  };
}

/**
 * After a change made at head office: a token from the record this till now holds (pulled with the change, so
 * older tokens are revoked); 503 when the pull did not bring it yet (the password is changed at head office).
 */
async function tokenAfterCentralChange(app: AppContext, caller: AuthUser, password: string) {
  const row = await app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', caller.id)
    .executeTakeFirstOrThrow();
  const pulled =
    row.password_hash === HASH_NOT_SERVED
      ? row.must_change_password === 0
      : await verifyPassword(row.password_hash, password);
  if (!pulled)
    throw new ServiceUnavailable(
      'Your password is changed at head office; this till takes it at its next sync. Sign in again in a minute.',
      'SYNC_PENDING',
    );
  const { token, expiresIn, session } = await issueToken(
    app,
    row,
    (await getSettings(app)).session_max_hours,
  );
  keepCentralSession(app, session, { email: row.email, password });
  return {
    changed_at: row.updated_at,
    access_token: token,
    token_type: 'bearer' as const,
    expires_in: expiresIn,
  };
}

export async function refresh(app: AppContext, caller: AuthUser) {
  const row = await app.db
    .selectFrom('users')
    .select(['id', 'role', 'branch_id', 'token_version'])
    .where('id', '=', caller.id)
    .executeTakeFirstOrThrow();
  const { token, expiresIn } = await refreshToken(app, caller, row);
  return { access_token: token, token_type: 'bearer' as const, expires_in: expiresIn };
}
