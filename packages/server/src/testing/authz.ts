import type { Role } from '@pharmacy/contracts';
import { ALL_STAFF } from '@pharmacy/contracts/roles';

export type Caller = Role | 'anonymous';

/**
 * One row of the authorization table: a route called with `body` (default none) by each caller, and the
 * status each must get. Unknown ids are random UUIDs, so an allowed caller typically gets 404 or 400, and a
 * refused one 403 (or 401 when anonymous): the order authenticate -> authorise -> validate is under test.
 */
export interface AuthzRow {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to /api/v1, with {name} placeholders filled from AuthzFixtures or a random UUID. */
  path: string;
  body?: unknown;
  expect: Record<Caller, number>;
  /** The route spends the caller's token (a refresh replaces it, sign-out ends it): each caller signs in afresh. */
  spendsToken?: true;
}

/** Expected statuses when `allowed` roles (plus admin) get `ok` and everybody else 403. */
export function only(
  allowed: readonly Role[],
  ok: number,
  overrides: Partial<Record<Caller, number>> = {},
): Record<Caller, number> {
  const roles: Role[] = ['admin', 'pharmacist', 'cashier', 'branch_manager', 'inventory_manager', 'auditor'];
  const table = Object.fromEntries(
    roles.map((r) => [r, r === 'admin' || allowed.includes(r) ? ok : 403]),
  ) as Record<Caller, number>;
  return { ...table, anonymous: 401, ...overrides };
}

/** Every signed-in role gets `ok`. */
export const anyRole = (ok: number, overrides: Partial<Record<Caller, number>> = {}) =>
  only(ALL_STAFF, ok, overrides);
