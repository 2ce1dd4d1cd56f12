import { ADMIN_ONLY, BRANCH_MANAGERS, OVERSEERS } from '@pharmacy/contracts/roles';
import {
  CreateUserRequest,
  Id,
  pageOf,
  ResetPasswordRequest,
  UpdateUserRequest,
  User,
  UserListQuery,
} from '@pharmacy/contracts';
import { z } from 'zod';
import { assertBranchAccess, scopeBranch } from '../../http/auth';
import { created, type ApiRouter } from '../../http/route';
import { actorOf, writeAudit } from '../audit/service';
import { unlockAccount } from '../../http/sign-in-throttle';
import { assertMayUnlock, createUser, getUser, listUsers, setPassword, updateUser } from './service';

const UserParams = z.object({ userId: Id });

export function userRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/users',
    tag: 'Users',
    summary: 'List users, sorted by name',
    description: 'Admin and auditor see every branch; a branch manager sees only their own branch.',
    roles: OVERSEERS,
    query: UserListQuery,
    responses: { 200: { description: 'A page of users', schema: pageOf(User) } },
    handler: ({ app, user, query }) =>
      listUsers(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'post',
    path: '/users',
    tag: 'Users',
    summary: 'Create a user',
    description:
      'Admin creates any user. A branch manager creates cashiers and pharmacists of their own branch only, never an admin (403). Email is unique (409).',
    roles: BRANCH_MANAGERS,
    body: CreateUserRequest,
    responses: {
      201: { description: 'The user', schema: User },
      403: { description: 'Role or branch not allowed' },
      404: { description: 'Unknown branch' },
      409: { description: 'Email exists' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createUser(app, user, actorOf(user, requestId), body, { mustChangePassword: true })),
  });

  r.route({
    method: 'get',
    path: '/users/:userId',
    tag: 'Users',
    summary: 'Read a user',
    roles: OVERSEERS,
    params: UserParams,
    responses: { 200: { description: 'The user', schema: User }, 404: { description: 'Unknown user' } },
    handler: async ({ app, user, params }) => {
      const found = await getUser(app.db, params.userId);
      assertBranchAccess(user, found.branch_id, 'user');
      return found;
    },
  });

  r.route({
    method: 'put',
    path: '/users/:userId',
    tag: 'Users',
    summary: 'Update a user: details, role, branch or is_active',
    description:
      'A change of role, branch or activity revokes the tokens issued before it. The last active admin cannot be demoted or deactivated (409).',
    roles: BRANCH_MANAGERS,
    params: UserParams,
    body: UpdateUserRequest,
    responses: {
      200: { description: 'The user', schema: User },
      403: { description: 'Another branch, or a role a branch manager cannot give' },
      404: { description: 'Unknown user' },
      409: { description: 'Email exists, last admin, or self-deactivation' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      updateUser(app, user, actorOf(user, requestId), params.userId, body),
  });

  r.route({
    method: 'post',
    path: '/users/:userId/reset-password',
    tag: 'Users',
    summary: "Reset a user's password",
    description:
      'Admin only. Audited as a reset; revokes the user’s tokens, and the user must choose a new password at next sign-in.',
    roles: ADMIN_ONLY,
    params: UserParams,
    body: ResetPasswordRequest,
    responses: {
      200: { description: 'The user', schema: User },
      400: { description: 'Too short or not confirmed' },
      404: { description: 'Unknown user' },
    },
    handler: async ({ app, user, params, body, requestId }) => {
      await getUser(app.db, params.userId);
      await setPassword(
        app,
        actorOf(user, requestId),
        params.userId,
        body.new_password,
        'user.password_reset',
      );
      return getUser(app.db, params.userId);
    },
  });

  r.route({
    method: 'post',
    path: '/users/:userId/unlock',
    tag: 'Users',
    summary: 'Let a locked-out user sign in again',
    description:
      "Clears the account's failed sign-in attempts, so a user locked out by wrong passwords (429 LOGIN_THROTTLED) signs in again before the window ends. Only the account's own count is cleared: the count of failures from a client address across accounts (central) is never lifted by an unlock. Roles: admin; a branch_manager only for the cashiers and pharmacists of their own branch (anyone else, an organisation-wide account included: 403 ROLE_NOT_GRANTABLE). Audited as user.unlock. Unlocking an account that is not locked is harmless.",
    roles: BRANCH_MANAGERS,
    params: UserParams,
    responses: {
      200: { description: 'The user', schema: User },
      403: { description: 'Role or branch not allowed' },
      404: { description: 'Unknown user' },
    },
    handler: async ({ app, user, params, requestId }) => {
      const found = await getUser(app.db, params.userId);
      assertMayUnlock(user, found);
      // The account's failures only: a client address's count across accounts (central) stays.
      unlockAccount(app, found.email);
      await writeAudit(app.db, actorOf(user, requestId), {
        action: 'user.unlock',
        entity: 'user',
        entityId: found.id,
        branchId: found.branch_id,
        after: { email: found.email },
      });
      return found;
    },
  });
}
