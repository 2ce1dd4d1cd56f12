import type { Request } from 'express';
import { jwtVerify, SignJWT } from 'jose';
import { BRANCH_BOUND_ROLES, type Role } from '@pharmacy/contracts';
import { credentialFile, readCredential } from '@pharmacy/sync';
import type { AppContext } from '../app-context';
import type { Sqlite } from '../db/connection';
import { Forbidden, Unauthorized } from './errors';

export interface AuthUser {
  id: string;
  role: Role;
  branchId: string;
  email: string;
  fullName: string;
}

interface Claims {
  sub: string;
  tv: number;
  exp: number;
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
}

const ISSUER = 'pharmacy-till';
const AUDIENCE = 'pharmacy-api';

export async function issueToken(
  app: AppContext,
  user: { id: string; role: string; branch_id: string; token_version: number },
): Promise<{ token: string; expiresIn: number }> {
  const expiresIn = app.config.jwtTtlSeconds;
  const token = await new SignJWT({ role: user.role, branch_id: user.branch_id, tv: user.token_version })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${expiresIn}s`)
    .sign(app.jwtKey);
  return { token, expiresIn };
}

/** Verified tokens, so a busy till does not re-verify the same signature on every request. */
const VERIFIED_CACHE_LIMIT = 2000;
const verifiedCache = new WeakMap<Uint8Array, Map<string, Claims>>();
const userStatements = new WeakMap<Sqlite, ReturnType<Sqlite['prepare']>>();

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
      typeof payload.exp !== 'number'
    ) {
      throw new Error('claims missing');
    }
    const claims: Claims = { sub: payload.sub, tv: payload.tv, exp: payload.exp };
    if (cache.size >= VERIFIED_CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(token, claims);
    return claims;
  } catch {
    throw new Unauthorized('The bearer token is invalid or has expired; sign in again.', 'INVALID_TOKEN');
  }
}

function loadUser(app: AppContext, id: string): UserAuthRow | undefined {
  let statement = userStatements.get(app.sqlite);
  if (!statement) {
    statement = app.sqlite.prepare(
      'SELECT id, role, branch_id, email, full_name, is_active, token_version, must_change_password FROM users WHERE id = ?',
    );
    userStatements.set(app.sqlite, statement);
  }
  return statement.get(id) as UserAuthRow | undefined;
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
  const row = loadUser(app, claims.sub);
  if (!row || row.token_version !== claims.tv) {
    throw new Unauthorized('This token has been revoked; sign in again.', 'TOKEN_REVOKED');
  }
  if (!row.is_active) throw new Unauthorized('This account is deactivated.', 'ACCOUNT_INACTIVE');
  assertTillBranch(app, row);
  if (row.must_change_password === 1 && passwordChangePending === 'refused')
    throw new Forbidden(
      'Choose a new password first: this account still has a password someone else set (POST /api/v1/auth/change-password).',
      'PASSWORD_CHANGE_REQUIRED',
    );
  return { id: row.id, role: row.role, branchId: row.branch_id, email: row.email, fullName: row.full_name };
}

export const isBranchBound = (user: AuthUser): boolean => BRANCH_BOUND_ROLES.includes(user.role);

/**
 * The branch this till belongs to, per server, kept in memory (authenticate runs on every request): set by the
 * snapshot swap from the header's branch_id, else read once from sync_meta. null: central, or a till that does
 * not know its branch (standalone, or not yet bootstrapped), where nobody is refused.
 */
const tillBranches = new WeakMap<AppContext, string | null>();

/** Called by the snapshot swap once committed; without a branch the next request reads it again. */
export function setTillBranch(app: AppContext, branchId: string | null | undefined): void {
  if (branchId) tillBranches.set(app, branchId);
  else tillBranches.delete(app);
}

function readTillBranch(app: AppContext): string | null {
  const meta = new Map(
    (
      app.sqlite
        .prepare("SELECT key, value FROM sync_meta WHERE key IN ('branch_id', 'bootstrapped')")
        .all() as Array<{ key: string; value: string }>
    ).map((r) => [r.key, r.value]),
  );
  const fromSnapshot = meta.get('branch_id');
  if (fromSnapshot) return fromSnapshot;
  // Bootstrapped from a snapshot without the field (an older central or app version): the branch the till
  // was registered for, if its credential file names it (and is the device this till syncs as).
  if (meta.get('bootstrapped') !== '1') return null;
  try {
    const { config } = app;
    const cred = readCredential(config.syncDeviceFile ?? credentialFile(config.dataDir));
    if (!cred?.branch_id || (config.syncDeviceId && config.syncDeviceId !== cred.device_id)) return null;
    return cred.branch_id;
  } catch {
    return null;
  }
}

export function tillBranch(app: AppContext): string | null {
  if (app.config.mode === 'central') return null;
  let branch = tillBranches.get(app);
  if (branch === undefined) {
    branch = readTillBranch(app);
    tillBranches.set(app, branch);
  }
  return branch;
}

/**
 * On a till that knows its branch, refuses a branch-bound user of another branch (sign-in and every request):
 * a user moved away keeps a row on the old branch's tills (with the new branch_id) and must not work there.
 * Organisation-wide roles (admin, auditor, ...) are never refused.
 */
export function assertTillBranch(app: AppContext, user: { role: string; branch_id: string }): void {
  if (!BRANCH_BOUND_ROLES.includes(user.role as Role)) return;
  const branch = tillBranch(app);
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
