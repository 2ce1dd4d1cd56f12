import { createHash } from 'node:crypto';
import type { BooksComparison, BooksReport, BooksWarnings, DayBook } from '@pharmacy/contracts';
import type { CentralClient } from '@pharmacy/sync';
import { SyncHttpError, SyncNetworkError } from '@pharmacy/sync';
import type { AppContext } from '../../app-context';
import type { BooksChecksTable, SyncDevicesTable } from '../../db/tables/sync';
import { type AuthUser, scopeBranch } from '../../http/auth';
import { AppError } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { describeProblem } from '@pharmacy/contracts/plain-words';
import { reportTimeZone } from '../reports/window';
import { addDays, localDate } from '@pharmacy/contracts/time';
import { syncStatus } from '../sync/runtime';
import { tillBranch } from '../sync/till-identity';
import { compareBooks } from './compare';
import { dayBook } from './figures';

/**
 * Books that must agree: a till sends its figures of a day (on every sync cycle when they changed, and when
 * someone opens its Books screen); central computes its own with the same queries, compares, keeps the latest
 * comparison per till and day (books_checks) and answers it. Central's Books screen and dashboard read those.
 */

const comparisonOf = (
  row: BooksChecksTable | undefined,
  device: Pick<SyncDevicesTable, 'id' | 'name' | 'branch_id'>,
  day: string,
): BooksComparison =>
  row
    ? (JSON.parse(row.result) as BooksComparison)
    : {
        branch_id: device.branch_id,
        day,
        device_id: device.id,
        device_name: device.name,
        checked_at: null,
        reported: false,
        agree: true,
        kinds: [],
      };

/** Central: a till's figures against central's own, kept as that till's latest comparison of the day. */
export async function checkTillBooks(
  app: AppContext,
  device: SyncDevicesTable,
  book: DayBook,
): Promise<BooksComparison> {
  if (book.branch_id !== device.branch_id)
    throw new AppError(403, 'OTHER_BRANCH', 'A till reports the books of its own branch only.');
  const central = await dayBook(app, device.branch_id, book.day);
  const { agree, kinds } = compareBooks(book, central);
  const checkedAt = nowIso();
  const comparison: BooksComparison = {
    branch_id: device.branch_id,
    day: book.day,
    device_id: device.id,
    device_name: device.name,
    checked_at: checkedAt,
    reported: true,
    agree,
    kinds,
  };
  const row = {
    device_id: device.id,
    branch_id: device.branch_id,
    day: book.day,
    differs: agree ? 0 : 1,
    result: JSON.stringify(comparison),
    checked_at: checkedAt,
  };
  await app.db
    .insertInto('books_checks')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['device_id', 'day']).doUpdateSet({
        differs: row.differs,
        result: row.result,
        checked_at: row.checked_at,
      }),
    )
    .execute();
  return comparison;
}

/** The day asked for, or the branch's today. */
async function dayOf(app: AppContext, branchId: string, date: string | undefined): Promise<string> {
  return date ?? localDate(await reportTimeZone(app, branchId));
}

/** Central: each registered till of the branch (or of every branch) and its latest comparison of the day. */
async function centralReport(
  app: AppContext,
  branchId: string | undefined,
  date: string | undefined,
): Promise<BooksReport> {
  const day = date ?? localDate(await reportTimeZone(app, branchId));
  let devices = app.db
    .selectFrom('sync_devices')
    .select(['id', 'name', 'branch_id'])
    .where('status', '=', 'active');
  let checks = app.db.selectFrom('books_checks').selectAll().where('day', '=', day);
  if (branchId) {
    devices = devices.where('branch_id', '=', branchId);
    checks = checks.where('branch_id', '=', branchId);
  }
  const found = await devices.orderBy('branch_id').orderBy('name').execute();
  const byDevice = new Map((await checks.execute()).map((c) => [c.device_id, c]));
  return {
    mode: 'central',
    branch_id: branchId ?? null,
    day,
    comparisons: found.map((d) => comparisonOf(byDevice.get(d.id), d, day)),
    unavailable: found.length === 0 ? 'No till is registered for this branch.' : null,
    pending: 0,
  };
}

/** Why a till cannot compare now, in words. */
function unreachable(err: unknown): string {
  if (err instanceof SyncNetworkError) return 'Head office cannot be reached; compare again when online.';
  if (err instanceof SyncHttpError)
    return `Head office refused the comparison: ${describeProblem({ status: err.status, code: err.code, detail: err.detail })}`;
  throw err;
}

/** A till: its own figures, sent to central, which answers the comparison. */
async function tillReport(
  app: AppContext,
  client: CentralClient | null,
  date: string | undefined,
): Promise<BooksReport> {
  const branchId = tillBranch(app);
  if (!branchId || !client)
    return {
      mode: 'till',
      branch_id: branchId,
      day: date ?? localDate(await reportTimeZone(app, undefined)),
      comparisons: [],
      unavailable: 'This till is not connected to head office: there are no books to compare.',
      pending: 0,
    };
  const day = await dayOf(app, branchId, date);
  const book = await dayBook(app, branchId, day);
  const base = { mode: 'till' as const, branch_id: branchId, day, pending: (await syncStatus(app)).pending };
  try {
    return { ...base, comparisons: [await client.books<BooksComparison>(book)], unavailable: null };
  } catch (err) {
    return { ...base, comparisons: [], unavailable: unreachable(err) };
  }
}

export async function booksReport(
  app: AppContext,
  client: CentralClient | null,
  branchId: string | undefined,
  date: string | undefined,
): Promise<BooksReport> {
  if (app.config.mode !== 'central') return tillReport(app, client, date);
  return centralReport(app, branchId, date);
}

/** Central: the tills whose books differed from central's at their latest check in the last week. */
export async function booksWarnings(app: AppContext, user: AuthUser): Promise<BooksWarnings> {
  if (app.config.mode !== 'central') return { items: [] };
  let q = app.db
    .selectFrom('books_checks as k')
    .innerJoin('branches as b', 'b.id', 'k.branch_id')
    .leftJoin('sync_devices as d', 'd.id', 'k.device_id')
    .select([
      'k.branch_id',
      'b.name as branch_name',
      'k.day',
      'k.device_id',
      'd.name as device_name',
      'k.checked_at',
    ])
    .where('k.differs', '=', 1)
    .where('k.day', '>=', addDays(nowIso().slice(0, 10), -7));
  const branchId = scopeBranch(user, undefined);
  if (branchId) q = q.where('k.branch_id', '=', branchId);
  const items = await q.orderBy('k.day', 'desc').orderBy('b.name').limit(50).execute();
  return { items };
}

/** Per till and day: the hash of the figures last sent, and whether head office then agreed with them. */
const sent = new WeakMap<AppContext, Map<string, { hash: string; agree: boolean }>>();

/**
 * A till's heartbeat of its books (after each sync cycle): today's and yesterday's figures, sent when they
 * changed since last sent, or while head office's last answer said they differ: head office's side can change
 * without the till's (a rejected sale retried and landed, a review item resolved there), and its comparison
 * then follows without anyone opening a screen.
 */
export async function reportBooks(app: AppContext, client: CentralClient): Promise<void> {
  const branchId = tillBranch(app);
  if (!branchId) return;
  const today = localDate(await reportTimeZone(app, branchId));
  const last = sent.get(app) ?? new Map<string, { hash: string; agree: boolean }>();
  sent.set(app, last);
  for (const day of [addDays(today, -1), today]) {
    const book = await dayBook(app, branchId, day);
    const hash = createHash('sha256').update(JSON.stringify(book)).digest('hex');
    const before = last.get(day);
    if (before?.hash === hash && before.agree) continue;
    const answer = await client.books<BooksComparison>(book);
    last.set(day, { hash, agree: answer.agree });
  }
}
