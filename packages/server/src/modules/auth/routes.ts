import {
  ChangePasswordRequest,
  ChangePasswordResponse,
  LoginRequest,
  LoginResponse,
  Me,
} from '@pharmacy/contracts';
import { z } from 'zod';
import { endSession } from '../../http/auth';
import { type ApiRouter, noContent } from '../../http/route';
import { actorOf, writeAudit } from '../audit/service';
import { getUser } from '../users/service';
import { changePassword, login, refresh } from './service';
import { forgetCentralSession } from '../sync/central-session';

export function authRoutes(r: ApiRouter): void {
  r.publicRoute({
    method: 'post',
    path: '/auth/login',
    tag: 'Auth',
    summary: 'Sign in and receive a bearer token',
    description:
      'Public. 400 without email and password; 401 for a wrong email or password; 403 for a deactivated account (told only once the password is right); on a till that knows its branch (from its sync snapshot), 403 OTHER_BRANCH_TILL for a branch-bound user (cashier, pharmacist, branch_manager) of another branch, e.g. one moved away: they sign in at a till of their branch (organisation-wide roles are not refused; every authenticated request on that till refuses them the same way); 429 LOGIN_THROTTLED with Retry-After once an account (max_failures_per_account) or, on central only, a client address across accounts (max_failures_per_address) has too many recent failures in settings.login_throttle.window_minutes. An attempt is counted before its password is checked, so parallel attempts never check more passwords than the limit; the right password takes its attempt back and forgives the account’s failures. A till counts accounts only: all its clients share 127.0.0.1, and one person’s wrong guesses must not lock out colleagues. A manager lets a locked-out account sign in again with POST /users/{userId}/unlock. The audit trail records every sign-in (auth.login), wrong email or password (auth.login_failed) right password refused with 403 (auth.login_refused, with the reason code), and the failure that starts a lockout (auth.login_locked: address, account or both). The token is an HS256 JWT that expires after JWT_TTL_SECONDS (default 1 hour); renew it with /auth/refresh.',
    body: LoginRequest,
    responses: {
      200: { description: 'Signed in', schema: LoginResponse },
      401: { description: 'Invalid email or password' },
      403: { description: 'Account inactive, or a branch-bound user at a till of another branch' },
      429: { description: 'Too many attempts' },
    },
    handler: ({ app, body, req, requestId }) => login(app, body, req.ip ?? 'unknown', requestId),
  });

  r.route({
    method: 'get',
    path: '/auth/me',
    tag: 'Auth',
    summary: 'The signed-in user',
    description:
      'must_change_password is true for a seeded default password, a new account an admin or manager created, or after an admin reset: the UI asks for a new one, and until then every route but this one, change-password and logout answers 403 PASSWORD_CHANGE_REQUIRED.',
    roles: 'any',
    passwordChangePending: 'allowed',
    responses: { 200: { description: 'The user', schema: Me } },
    handler: ({ app, user }) => getUser(app.db, user.id),
  });

  r.route({
    method: 'post',
    path: '/auth/change-password',
    tag: 'Auth',
    summary: "Change the caller's password",
    description:
      'Needs the current password (400 WRONG_PASSWORD when it is not right); the new one has at least 8 characters and differs from it. Every token issued before is revoked; the answer carries a fresh one. Allowed while a password change is pending (that is what it is for).',
    roles: 'any',
    passwordChangePending: 'allowed',
    body: ChangePasswordRequest,
    responses: { 200: { description: 'Changed', schema: ChangePasswordResponse } },
    handler: ({ app, user, body, requestId }) => changePassword(app, user, actorOf(user, requestId), body),
  });

  r.route({
    method: 'post',
    path: '/auth/refresh',
    tag: 'Auth',
    summary: 'Exchange a still-valid token for a fresh one',
    description:
      'Keeps a till signed in through a shift without long-lived tokens. The token it replaces stops working (401 TOKEN_REVOKED), and no token outlives its session: settings.session_max_hours (default 12) after sign-in, or sign-out, refresh answers 401 SESSION_EXPIRED and only a fresh sign-in helps.',
    roles: 'any',
    responses: {
      200: {
        description: 'A fresh token',
        schema: z.object({
          access_token: z.string(),
          token_type: z.literal('bearer'),
          expires_in: z.number().int(),
        }),
      },
    },
    handler: ({ app, user }) => refresh(app, user),
  });

  r.route({
    method: 'post',
    path: '/auth/logout',
    tag: 'Auth',
    summary: 'Sign out: end this session',
    description:
      'Ends the session of the token sent: none of its tokens works any more (401 TOKEN_REVOKED), other sessions of the user (other tills) go on. Allowed while a password change is pending. Audited as auth.logout.',
    roles: 'any',
    passwordChangePending: 'allowed',
    responses: { 204: { description: 'Signed out' } },
    handler: async ({ app, user, requestId }) => {
      await endSession(app, user);
      forgetCentralSession(app, user.sessionId);
      await writeAudit(app.db, actorOf(user, requestId), {
        action: 'auth.logout',
        entity: 'user',
        entityId: user.id,
        branchId: user.branchId,
      });
      return noContent();
    },
  });
}
