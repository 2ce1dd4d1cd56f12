import { sql } from 'kysely';
import { BRANCH_BOUND_ROLES, type Role, type User } from '@pharmacy/contracts';
import { MANAGER_GRANTS } from '@pharmacy/contracts/roles';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import type { UsersTable } from '../../db/schema';
import { recordUpsert } from '../../db/changes';
import { containsPattern, likePattern } from '../../db/like';
import { pageAnswer, pageWindow } from '../../db/paginate';
import { prepared, preparedShapes } from '../../db/prepared';
import type { AuthUser } from '../../http/auth';
import { Conflict, Forbidden, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { assertPasswordAcceptable, hashPassword } from '../../lib/passwords';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';

/** Roles a branch manager may give: never admin, never an organisation-wide role. */

function selectUsers(db: Db) {
  return db
    .selectFrom('users as u')
    .innerJoin('branches as b', 'b.id', 'u.branch_id')
    .selectAll('u')
    .select('b.name as branch_name');
}

type UserRow = UsersTable & { branch_name: string };

export const toUser = (r: UserRow): User => ({
  id: r.id,
  branch_id: r.branch_id,
  branch_name: r.branch_name,
  email: r.email,
  full_name: r.full_name,
  phone: r.phone,
  role: r.role as Role,
  is_active: r.is_active === 1,
  must_change_password: r.must_change_password === 1,
  last_login_at: r.last_login_at,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const userById = prepared((db, p: { id: string }) => selectUsers(db).where('u.id', '=', p.id));

export async function getUser(db: Db, id: string): Promise<User> {
  const row = await userById.first(db, { id });
  if (!row) throw new NotFound('User', id);
  return toUser(row);
}

interface UserFilter {
  branch_id?: string;
  role?: Role;
  is_active?: number;
  pattern?: string;
}

const filterShape = (f: UserFilter) =>
  `${f.branch_id === undefined ? '' : 'b'}${f.role === undefined ? '' : 'r'}${f.is_active === undefined ? '' : 'a'}${f.pattern === undefined ? '' : 's'}`;

function filteredUsers(db: Db, p: UserFilter, given: UserFilter) {
  let q = selectUsers(db);
  if (given.branch_id !== undefined) q = q.where('u.branch_id', '=', p.branch_id!);
  if (given.role !== undefined) q = q.where('u.role', '=', p.role!);
  if (given.is_active !== undefined) q = q.where('u.is_active', '=', p.is_active!);
  if (given.pattern !== undefined) {
    const pattern = p.pattern;
    q = q.where((eb) => eb.or([likePattern('u.full_name', pattern), likePattern('u.email', pattern)]));
  }
  return q;
}

const countUsers = preparedShapes(filterShape, (db, p: UserFilter, given) =>
  filteredUsers(db, p, given)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total')),
);

/** A page with the filter's total on every row: one query instead of two (an organisation has few users). */
const pageOfUsers = preparedShapes(
  (f: UserFilter & { page_size: number; offset: number }) => `${filterShape(f)}:${f.page_size}`,
  (db, p, given) =>
    filteredUsers(db, p, given)
      .select(sql<number>`count(*) OVER ()`.as('total'))
      .orderBy('u.full_name')
      .limit(given.page_size)
      .offset(p.offset),
);

export async function listUsers(
  app: AppContext,
  f: {
    branch_id?: string;
    role?: Role;
    is_active?: boolean;
    search?: string;
    page: number;
    page_size: number;
  },
) {
  const filter: UserFilter = {
    branch_id: f.branch_id,
    role: f.role,
    is_active: f.is_active === undefined ? undefined : Number(f.is_active),
    pattern: f.search ? containsPattern(f.search) : undefined,
  };
  const { offset } = pageWindow(f);
  const rows = await pageOfUsers.all(app.db, { ...filter, page_size: f.page_size, offset });
  // Past the last page there is no row to carry the total.
  const total = rows[0]?.total ?? (offset > 0 ? ((await countUsers.all(app.db, filter))[0]?.total ?? 0) : 0);
  return pageAnswer(f, rows.map(toUser), total);
}

/**
 * The tills a user's row replicates to: a branch-bound user's own branch (so a cashier can sign in offline
 * there), every till for an organisation-wide role (admin, auditor...), which may sign in anywhere.
 */
export const userScope = (row: Pick<UsersTable, 'role' | 'branch_id'>): string | null =>
  BRANCH_BOUND_ROLES.includes(row.role as Role) ? row.branch_id : null;

export async function writeUser(trx: Db, row: UsersTable): Promise<void> {
  await trx
    .insertInto('users')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
  await recordUpsert(trx, 'user', row, userScope(row));
}

/** The branch's name and code: words a password of its staff must not be built on. */
async function branchNames(db: Db, branchId: string): Promise<string[]> {
  const branch = await db
    .selectFrom('branches')
    .select(['name', 'code'])
    .where('id', '=', branchId)
    .executeTakeFirst();
  return branch ? [branch.name, branch.code] : [];
}

/** A user record for the audit trail: never the password hash. */
const auditView = ({ password_hash: _, ...rest }: UsersTable) => rest;

/**
 * Who a branch manager may unlock (issue 26 M2): only branch-bound users of their own branch with a role below
 * theirs (cashier, pharmacist), never an organisation-wide account that merely carries their branch id, nor
 * another manager. An admin unlocks anyone.
 */
export function assertMayUnlock(caller: AuthUser, target: { role: Role; branch_id: string }): void {
  if (caller.role !== 'branch_manager') return;
  if (target.branch_id !== caller.branchId || !(MANAGER_GRANTS as readonly Role[]).includes(target.role))
    throw new Forbidden(
      `Branch managers unlock only the ${MANAGER_GRANTS.join(' and ')} accounts of their own branch; ask an administrator.`,
      'ROLE_NOT_GRANTABLE',
    );
}

function assertManagerMayGrant(caller: AuthUser, role: Role, branchId: string) {
  if (caller.role !== 'branch_manager') return;
  if (branchId !== caller.branchId) {
    throw new Forbidden('Branch managers manage only the users of their own branch.', 'OTHER_BRANCH');
  }
  if (!(MANAGER_GRANTS as readonly Role[]).includes(role)) {
    throw new Forbidden(
      `Branch managers may only give the roles ${MANAGER_GRANTS.join(' and ')}.`,
      'ROLE_NOT_GRANTABLE',
    );
  }
}

async function assertActiveBranch(db: Db, branchId: string) {
  const branch = await db
    .selectFrom('branches')
    .select(['id', 'is_active'])
    .where('id', '=', branchId)
    .executeTakeFirst();
  if (!branch) throw new NotFound('Branch', branchId);
  if (!branch.is_active)
    throw new Invalid(`Branch ${branchId} is inactive.`, [{ path: 'branch_id', message: 'inactive branch' }]);
}

async function assertEmailFree(db: Db, email: string, exceptId?: string) {
  const clash = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (clash && clash.id !== exceptId)
    throw new Conflict(`A user with email ${email} already exists.`, 'DUPLICATE');
}

export interface CreateUserInput {
  email: string;
  password: string;
  full_name: string;
  phone: string;
  role: Role;
  branch_id: string;
}

export async function createUser(
  app: AppContext,
  caller: AuthUser | null,
  actor: Actor,
  input: CreateUserInput,
  options: { mustChangePassword?: boolean; trx?: Db } = {},
): Promise<User> {
  if (caller) {
    assertManagerMayGrant(caller, input.role, input.branch_id);
    // Seeds (no caller) take the operator's configured passwords; the flag then asks for a change if default.
    assertPasswordAcceptable(
      input.password,
      input.email,
      'password',
      await branchNames(app.db, input.branch_id),
    );
  }
  const db = options.trx ?? app.db;
  await assertActiveBranch(db, input.branch_id);
  await assertEmailFree(db, input.email);
  const at = nowIso();
  const row: UsersTable = {
    id: newId(),
    branch_id: input.branch_id,
    email: input.email,
    password_hash: await hashPassword(input.password),
    full_name: input.full_name,
    phone: input.phone,
    role: input.role,
    is_active: 1,
    token_version: 0,
    must_change_password: options.mustChangePassword ? 1 : 0,
    last_login_at: null,
    created_at: at,
    updated_at: at,
  };
  const write = async (t: Db) => {
    await writeUser(t, row);
    await writeAudit(t, actor, {
      action: 'user.create',
      entity: 'user',
      entityId: row.id,
      branchId: row.branch_id,
      after: auditView(row),
    });
  };
  if (options.trx) await write(options.trx);
  else await app.db.transaction().execute(write);
  return getUser(db, row.id);
}

async function getRow(db: Db, id: string): Promise<UsersTable> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('User', id);
  return row;
}

async function assertNotLastAdmin(db: Db, row: UsersTable) {
  if (row.role !== 'admin' || !row.is_active) return;
  const { n } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('is_active', '=', 1)
    .executeTakeFirstOrThrow();
  if (n <= 1) throw new Conflict('This is the last active admin; make another admin first.', 'LAST_ADMIN');
}

export interface UpdateUserInput {
  email?: string;
  full_name?: string;
  phone?: string;
  role?: Role;
  branch_id?: string;
  is_active?: boolean;
}

export async function updateUser(
  app: AppContext,
  caller: AuthUser,
  actor: Actor,
  id: string,
  patch: UpdateUserInput,
): Promise<User> {
  const before = await getRow(app.db, id);
  if (caller.role === 'branch_manager') {
    assertManagerMayGrant(caller, before.role as Role, before.branch_id);
    assertManagerMayGrant(caller, patch.role ?? (before.role as Role), patch.branch_id ?? before.branch_id);
  }
  if (patch.branch_id && patch.branch_id !== before.branch_id)
    await assertActiveBranch(app.db, patch.branch_id);
  if (patch.email) await assertEmailFree(app.db, patch.email, id);
  const demotes = (patch.role && patch.role !== 'admin') || patch.is_active === false;
  if (demotes) await assertNotLastAdmin(app.db, before);
  if (id === caller.id && patch.is_active === false)
    throw new Conflict('You cannot deactivate your own account.', 'SELF_DEACTIVATION');

  // A change of role, branch or activity revokes the tokens already issued.
  const revokes =
    (patch.role !== undefined && patch.role !== before.role) ||
    (patch.branch_id !== undefined && patch.branch_id !== before.branch_id) ||
    (patch.is_active !== undefined && (patch.is_active ? 1 : 0) !== before.is_active);
  const row: UsersTable = {
    ...before,
    ...(patch.email !== undefined && { email: patch.email }),
    ...(patch.full_name !== undefined && { full_name: patch.full_name }),
    ...(patch.phone !== undefined && { phone: patch.phone }),
    ...(patch.role !== undefined && { role: patch.role }),
    ...(patch.branch_id !== undefined && { branch_id: patch.branch_id }),
    ...(patch.is_active !== undefined && { is_active: patch.is_active ? 1 : 0 }),
    token_version: before.token_version + (revokes ? 1 : 0),
    updated_at: nowIso(),
  };
  await app.db.transaction().execute(async (trx) => {
    await writeUser(trx, row);
    // A user's row pulls only to the tills of its scope (userScope): when a move or a role change narrows
    // the scope, the tills that leave it get the new row too, or they keep the old one (old role, old
    // token_version), sign the user in, and never hear of a later deactivation or password reset. With the
    // new row they revoke the tokens issued there and refuse the next sign-in (403 OTHER_BRANCH_TILL).
    const [was, now] = [userScope(before), userScope(row)];
    if (now !== null && was !== now) await recordUpsert(trx, 'user', row, was);
    await writeAudit(trx, actor, {
      action: 'user.update',
      entity: 'user',
      entityId: id,
      branchId: row.branch_id,
      before: auditView(before),
      after: auditView(row),
    });
  });
  return getUser(app.db, id);
}

/** Sets a new password and revokes every token issued before; `action` tells a reset from a self-service change. */
export async function setPassword(
  app: AppContext,
  actor: Actor,
  id: string,
  password: string,
  action: 'user.password_reset' | 'user.password_change',
): Promise<UsersTable> {
  const before = await getRow(app.db, id);
  assertPasswordAcceptable(
    password,
    before.email,
    'new_password',
    await branchNames(app.db, before.branch_id),
  );
  const at = nowIso();
  const row: UsersTable = {
    ...before,
    password_hash: await hashPassword(password),
    token_version: before.token_version + 1,
    // After an admin reset the user must choose their own password; after a change they have.
    must_change_password: action === 'user.password_reset' ? 1 : 0,
    updated_at: at,
  };
  await app.db.transaction().execute(async (trx) => {
    await writeUser(trx, row);
    await writeAudit(trx, actor, {
      action,
      entity: 'user',
      entityId: id,
      branchId: row.branch_id,
      after: { changed_at: at },
    });
  });
  return row;
}
