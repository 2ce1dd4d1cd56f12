import { localDate } from '@pharmacy/contracts/time';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import { NotFound } from '../../lib/errors';

const timezoneOf = prepared((db, p: { id: string }) =>
  db.selectFrom('branches').select('timezone').where('id', '=', p.id),
);

/**
 * The branch's IANA time zone: the one lookup behind every "today at the branch", report window and printed
 * date. An unknown branch is a 404 (NotFound), never a silent UTC: a document or a report for a branch that
 * does not exist is a wrong request, and a UTC date would print the wrong day without a word.
 */
export async function branchTimeZone(db: Db, branchId: string): Promise<string> {
  const branch = await timezoneOf.first(db, { id: branchId });
  if (!branch) throw new NotFound('Branch', branchId);
  return branch.timezone;
}

/** Today's date in the branch's time zone: the day that decides what is expired. */
export async function branchToday(db: Db, branchId: string): Promise<string> {
  return localDate(await branchTimeZone(db, branchId));
}
