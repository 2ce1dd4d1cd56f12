import { BRANCH_BOUND_ROLES, type Role } from '@pharmacy/contracts';

/** Who reads the feed: the device itself (its credential), or an admin's bearer token for that device. */
export interface FeedAudience {
  kind: 'device' | 'user';
  branchId: string;
}

type Payload = Record<string, unknown>;

/**
 * What a user row carries in place of its password hash when the reader may not have it: a till then has no
 * verifier for the account, and signs the person in through head office while it is connected.
 */
export const HASH_NOT_SERVED = '';

/**
 * A user row as pull and snapshot serve it (issue 26 H1): a till's device receives the password verifier only of
 * the people who sign in at its tills, the branch-bound staff (cashier, pharmacist, branch manager) of its own
 * branch; every other row (organisation-wide accounts, staff of another branch, anything an admin reads)
 * travels without it.
 */
function servedUser(payload: Payload, audience: FeedAudience): Payload {
  const staffOfTheTill =
    audience.kind === 'device' &&
    BRANCH_BOUND_ROLES.includes(payload.role as Role) &&
    payload.branch_id === audience.branchId;
  if (staffOfTheTill || !Object.hasOwn(payload, 'password_hash')) return payload;
  return { ...payload, password_hash: HASH_NOT_SERVED };
}

/** Entities whose rows are shaped for their reader (only users: their password hashes). */
const SERVED = new Map<string, (payload: Payload, audience: FeedAudience) => Payload>([['user', servedUser]]);

/** A row of `entity` as pull and snapshot serve it to `audience`. */
export const served = (entity: string, payload: Payload, audience: FeedAudience): Payload =>
  SERVED.get(entity)?.(payload, audience) ?? payload;
