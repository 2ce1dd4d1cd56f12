import { ROLES, type Role } from '@pharmacy/contracts';
import { ALL_STAFF, allows } from '@pharmacy/contracts/roles';

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
  const table = Object.fromEntries(ROLES.map((r) => [r, allows(allowed, r) ? ok : 403])) as Record<
    Caller,
    number
  >;
  return { ...table, anonymous: 401, ...overrides };
}

/** Every signed-in role gets `ok`. */
export const anyRole = (ok: number, overrides: Partial<Record<Caller, number>> = {}) =>
  only(ALL_STAFF, ok, overrides);
