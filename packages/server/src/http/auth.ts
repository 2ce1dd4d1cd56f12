import type { Request } from 'express';
import { jwtVerify, SignJWT } from 'jose';
import { BRANCH_BOUND_ROLES, type Role } from '@pharmacy/contracts';
import type { AppContext } from '../app-context';
import { rawQuery } from '../db/raw-query';
import { newId } from '../lib/ids';
import { isoAt, nowIso } from '../lib/time';
import { Forbidden, Unauthorized } from '../lib/errors';

export interface AuthUser {
  id: string;
  role: Role;
  branchId: string;
  email: string;
  fullName: string;
  /** The sign-in session the token belongs to (refresh and sign-out act on it); none for the system's reads. */
  sessionId?: string;
  /** The generation of the session the token was issued in (a refresh needs the newest). */
  sessionGeneration?: number;
}

interface Claims {
  sub: string;
  tv: number;
  exp: number;
  /** Session id and generation: a refresh bumps the generation, so the token it replaced stops working. */
  sid: string;
  gen: number;
}

interface UserAuthRow {
  id: string;
  role: Role;
  branch_id: string;
  email: string;
  full_name: string;
  is_active: number;
  token_version: number;
  must_change_password: number;
  session_generation: number | null;
  session_refreshed_at: string | null;
  session_expires_at: string | null;
  session_revoked_at: string | null;
}

const ISSUER = 'pharmacy-till';
const AUDIENCE = 'pharmacy-api';

type TokenUser = { id: string; role: string; branch_id: string; token_version: number };
interface Session {
  id: string;
  generation: number;
  expiresAt: string;
}

/** A token of `session`: it expires after JWT_TTL_SECONDS, or when the session ends if that is sooner. */
async function signToken(app: AppContext, user: TokenUser, session: Session) {
  const sessionLeft = Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000);
  const expiresIn = Math.max(1, Math.min(app.config.jwtTtlSeconds, sessionLeft));
  const token = await new SignJWT({
    role: user.role,
    branch_id: user.branch_id,
    tv: user.token_version,
    sid: session.id,
    gen: session.generation,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${expiresIn}s`)
    .sign(app.jwtKey);
  return { token, expiresIn };
}

/**
 * Opens a sign-in session `hours` long (settings.session_max_hours) and its first token: a sign-in, or a
 * password change (which revokes every older token). Sessions that ended a day ago are cleaned up on the way.
 */
export async function issueToken(
  app: AppContext,
  user: TokenUser,
  hours: number,
): Promise<{ token: string; expiresIn: number; session: { id: string; expiresAt: string } }> {
  const now = Date.now();
  const session = { id: newId(), generation: 1, expiresAt: new Date(now + hours * 3_600_000).toISOString() };
  await app.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('auth_sessions')
      .where('expires_at', '<', new Date(now - 86_400_000).toISOString())
      .execute();
    await trx
      .insertInto('auth_sessions')
      .values({
        id: session.id,
        user_id: user.id,
        generation: 1,
        refreshed_at: null,
        started_at: isoAt(now),
        expires_at: session.expiresAt,
        revoked_at: null,
      })
      .execute();
  });
  return {
    ...(await signToken(app, user, session)),
    session: { id: session.id, expiresAt: session.expiresAt },
  };
}

/**
 * A fresh token of the caller's session; the token it replaces stops working. After the session's end (or its
 * sign-out) only a fresh sign-in helps: 401 SESSION_EXPIRED.
 */
export async function refreshToken(app: AppContext, caller: AuthUser, user: TokenUser) {
  const session = await app.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('auth_sessions')
      .selectAll()
      .where('id', '=', caller.sessionId ?? '')
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || row.expires_at <= nowIso())
      throw new Unauthorized('Your session has ended; sign in again.', 'SESSION_EXPIRED');
    if (row.generation !== caller.sessionGeneration)
      throw new Unauthorized('This token was replaced by a refreshed one; use the newest.', 'TOKEN_REVOKED');
    const generation = row.generation + 1;
    await trx
      .updateTable('auth_sessions')
      .set({ generation, refreshed_at: nowIso() })
      .where('id', '=', row.id)
      .execute();
    return { id: row.id, generation, expiresAt: row.expires_at };
  });
  return signToken(app, user, session);
}

/** Sign-out: ends the caller's session, so none of its tokens works any more. */
export async function endSession(app: AppContext, caller: AuthUser): Promise<void> {
  await app.db
    .updateTable('auth_sessions')
    .set({ revoked_at: nowIso() })
    .where('id', '=', caller.sessionId ?? '')
    .where('revoked_at', 'is', null)
    .execute();
}

/** Verified tokens, so a busy till does not re-verify the same signature on every request. */
const VERIFIED_CACHE_LIMIT = 2000;
const verifiedCache = new WeakMap<Uint8Array, Map<string, Claims>>();

async function verify(app: AppContext, token: string): Promise<Claims> {
  let cache = verifiedCache.get(app.jwtKey);
  if (!cache) {
    cache = new Map();
    verifiedCache.set(app.jwtKey, cache);
  }
  const hit = cache.get(token);
  if (hit && hit.exp * 1000 > Date.now()) return hit;
  try {
    const { payload } = await jwtVerify(token, app.jwtKey, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    if (
      typeof payload.sub !== 'string' ||
      typeof payload.tv !== 'number' ||
      typeof payload.exp !== 'number' ||
      typeof payload.sid !== 'string' ||
      typeof payload.gen !== 'number'
    ) {
      throw new Error('claims missing');
    }
    const claims: Claims = {
      sub: payload.sub,
      tv: payload.tv,
      exp: payload.exp,
      sid: payload.sid,
      gen: payload.gen,
    };
    if (cache.size >= VERIFIED_CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(token, claims);
    return claims;
  } catch {
    throw new Unauthorized('The bearer token is invalid or has expired; sign in again.', 'INVALID_TOKEN');
  }
}

/** The token's user and session; parameters: the session id, then the user id. */
const userAuthQuery =
  rawQuery<UserAuthRow>(`SELECT u.id, u.role, u.branch_id, u.email, u.full_name, u.is_active,
    u.token_version, u.must_change_password, s.generation AS session_generation,
    s.refreshed_at AS session_refreshed_at, s.expires_at AS session_expires_at, s.revoked_at AS session_revoked_at
  FROM users u LEFT JOIN auth_sessions s ON s.id = ? AND s.user_id = u.id WHERE u.id = ?`);

/**
 * The user and the token's session in one read (every authenticated request makes it): a cached statement on
 * SQLite (Kysely's compile and dispatch were a measurable share of a simple read), the pool on PostgreSQL.
 */
function loadUser(
  app: AppContext,
  claims: Claims,
): UserAuthRow | undefined | Promise<UserAuthRow | undefined> {
  return userAuthQuery.firstNow(app, [claims.sid, claims.sub]);
}

/**
 * Requests a client sent just before its refresh answered still carry the token it replaced: that token works
 * this long after the refresh (never for another refresh), so a till is not signed out mid-sale.
 */
const REPLACED_TOKEN_GRACE_MS = 30_000;
const inRefreshGrace = (row: UserAuthRow, claims: Claims) =>
  claims.gen === (row.session_generation ?? 0) - 1 &&
  Date.parse(row.session_refreshed_at ?? '') > Date.now() - REPLACED_TOKEN_GRACE_MS;

/** Why a token's session no longer lets it in, or undefined. */
function sessionRefusal(row: UserAuthRow, claims: Claims): Unauthorized | undefined {
  if (row.session_generation === null || row.session_revoked_at !== null)
    return new Unauthorized('You have signed out; sign in again.', 'TOKEN_REVOKED');
  if (row.session_generation !== claims.gen && !inRefreshGrace(row, claims))
    return new Unauthorized('This token was replaced by a refreshed one; use the newest.', 'TOKEN_REVOKED');
  if ((row.session_expires_at ?? '') <= nowIso())
    return new Unauthorized('Your session has ended; sign in again.', 'SESSION_EXPIRED');
  return undefined;
}

/**
 * Resolves the caller from the bearer token; a password change, reset, role change or deactivation revokes it.
 * Until a user replaces a seeded or admin-set password, only the routes that let them do so answer
 * (`passwordChangePending: 'allowed'`); every other one is 403 PASSWORD_CHANGE_REQUIRED.
 */
export async function authenticate(
  app: AppContext,
  req: Request,
  passwordChangePending: 'allowed' | 'refused' = 'refused',
): Promise<AuthUser> {
  const header = req.headers.authorization;
  if (!header) throw new Unauthorized();
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1])
    throw new Unauthorized('The Authorization header must be "Bearer <token>".', 'INVALID_TOKEN');
  const claims = await verify(app, match[1]);
  const row = await loadUser(app, claims);
  if (!row || row.token_version !== claims.tv) {
    throw new Unauthorized('This token has been revoked; sign in again.', 'TOKEN_REVOKED');
  }
  const ended = sessionRefusal(row, claims);
  if (ended) throw ended;
  if (!row.is_active) throw new Unauthorized('This account is deactivated.', 'ACCOUNT_INACTIVE');
  assertTillBranch(app, row);
  if (row.must_change_password === 1 && passwordChangePending === 'refused')
    throw new Forbidden(
      'Choose a new password first: this account still has a password someone else set (POST /api/v1/auth/change-password).',
      'PASSWORD_CHANGE_REQUIRED',
    );
  return {
    id: row.id,
    role: row.role,
    branchId: row.branch_id,
    email: row.email,
    fullName: row.full_name,
    sessionId: claims.sid,
    sessionGeneration: claims.gen,
  };
}

export const isBranchBound = (user: AuthUser): boolean => BRANCH_BOUND_ROLES.includes(user.role);

/**
 * On a till that knows its branch, refuses a branch-bound user of another branch (sign-in and every request):
 * a user moved away keeps a row on the old branch's tills (with the new branch_id) and must not work there.
 * Organisation-wide roles (admin, auditor, ...) are never refused.
 */
export function assertTillBranch(app: AppContext, user: { role: string; branch_id: string }): void {
  if (!BRANCH_BOUND_ROLES.includes(user.role as Role)) return;
  const branch = app.tillBranch();
  if (branch && branch !== user.branch_id)
    throw new Forbidden(
      'This till belongs to another branch; your account works only at the tills of its own branch: sign in at a till of your branch.',
      'OTHER_BRANCH_TILL',
    );
}

/**
 * The branch a list is scoped to: branch-bound roles always get their own branch whatever they asked for;
 * organisation-wide roles get the branch they asked for, or undefined for all branches.
 */
export function scopeBranch(user: AuthUser, requested: string | undefined): string | undefined {
  return isBranchBound(user) ? user.branchId : requested;
}

/** Refuses a branch-bound caller acting on another branch's record. */
export function assertBranchAccess(user: AuthUser, branchId: string, what = 'record'): void {
  if (isBranchBound(user) && user.branchId !== branchId) {
    throw new Forbidden(
      what === 'branch'
        ? 'That is not your branch; you can only act on your own branch.'
        : `This ${what} belongs to another branch; you can only act on your own branch.`,
      'OTHER_BRANCH',
    );
  }
}
