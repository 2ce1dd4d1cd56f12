import { PHARMACIST_ROLES, type Role } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { AuthUser } from '../../http/auth';
import { Forbidden } from '../../lib/errors';
import { burnVerify, verifyPassword } from '../../lib/passwords';
import { LoginAttempt } from '../../http/sign-in-throttle';
import { getSettings } from '../settings/service';

export interface Witness {
  id: string;
  full_name: string;
}

/**
 * The second person who witnesses a controlled medicine's count discrepancy, signing with their own email and
 * password: an active pharmacist or admin, not the counter, of the counted branch (an admin of any). Wrong
 * credentials count against the witness's account as a failed sign-in does (429 past the limit). Refusals are
 * 403 (never 401: the counter's own session stays valid).
 */
export async function verifyWitness(
  app: AppContext,
  counter: AuthUser,
  branchId: string,
  given: { email: string; password: string },
  clientAddress: string,
): Promise<Witness> {
  const { login_throttle: limits } = await getSettings(app);
  const email = given.email.trim().toLowerCase();
  const attempt = LoginAttempt.reserve(app, limits, clientAddress, email);
  const row = await app.db
    .selectFrom('users')
    .select(['id', 'full_name', 'password_hash', 'role', 'branch_id', 'is_active'])
    .where('email', '=', email)
    .executeTakeFirst();
  let ok = false;
  if (row) ok = await verifyPassword(row.password_hash, given.password);
  else await burnVerify(given.password);
  if (!row || !ok) throw new Forbidden("The witness's email or password is wrong.", 'WITNESS_INVALID');
  attempt.succeeded();
  if (!row.is_active || !PHARMACIST_ROLES.includes(row.role as Role))
    throw new Forbidden(
      `${row.full_name} cannot witness a controlled medicine count: a pharmacist or admin must.`,
      'WITNESS_INVALID',
    );
  if (row.id === counter.id)
    throw new Forbidden('The witness must be a second person, not the one who counted.', 'WITNESS_INVALID');
  if (row.role !== 'admin' && row.branch_id !== branchId)
    throw new Forbidden(
      `${row.full_name} works at another branch and cannot witness this count.`,
      'WITNESS_INVALID',
    );
  return { id: row.id, full_name: row.full_name };
}
