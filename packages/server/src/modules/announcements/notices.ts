import type { CounterNotice } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { AuthUser } from '../../http/auth';
import { NotFound } from '../../lib/errors';
import { nowIso } from '../../lib/time';

/** At most this many of each kind: the counter shows a banner, not a reading list. */
const SHOWN = 5;

/**
 * What the counter shows on Sell until the signed-in person acknowledges it (issue 29): head office's
 * announcements, and recalls of batches the caller's branch still holds (a recalled batch is never sold; the
 * banner tells the counter to take it off the shelf). Newest first, recalls before announcements.
 */
export async function counterNotices(app: AppContext, user: AuthUser): Promise<{ items: CounterNotice[] }> {
  const acknowledged = (kind: 'announcement' | 'recall') =>
    app.db
      .selectFrom('notice_acknowledgements')
      .select('notice_id')
      .where('user_id', '=', user.id)
      .where('notice_kind', '=', kind);
  const recalls = await app.db
    .selectFrom('batches as b')
    .innerJoin('medicines as m', 'm.id', 'b.medicine_id')
    .select(['b.id', 'b.batch_number', 'b.expiry_date', 'b.qty_on_hand', 'b.updated_at', 'm.name'])
    .where('b.branch_id', '=', user.branchId)
    .where('b.regulator_status', '=', 'recalled')
    .where('b.qty_on_hand', '>', 0)
    .where('b.id', 'not in', acknowledged('recall'))
    .orderBy('b.updated_at', 'desc')
    .limit(SHOWN)
    .execute();
  const announcements = await app.db
    .selectFrom('changelog_entries')
    .select(['id', 'title', 'body', 'created_at'])
    .where('kind', '=', 'announcement')
    .where('id', 'not in', acknowledged('announcement'))
    .orderBy('created_at', 'desc')
    .limit(SHOWN)
    .execute();
  return {
    items: [
      ...recalls.map((b) => ({
        kind: 'recall' as const,
        id: b.id,
        title: `Recall: ${b.name}, batch ${b.batch_number}`,
        body: `Head office recalled this batch (expiry ${b.expiry_date}); ${b.qty_on_hand} on hand. Take it off the shelf: it cannot be sold.`,
        at: b.updated_at,
      })),
      ...announcements.map((a) => ({
        kind: 'announcement' as const,
        id: a.id,
        title: a.title,
        body: a.body,
        at: a.created_at,
      })),
    ],
  };
}

/** The caller has read a notice: it no longer shows for them (at this till; others still see it). */
export async function acknowledgeNotice(
  app: AppContext,
  user: AuthUser,
  notice: { kind: 'announcement' | 'recall'; id: string },
): Promise<void> {
  const exists =
    notice.kind === 'recall'
      ? await app.db
          .selectFrom('batches')
          .select('id')
          .where('id', '=', notice.id)
          .where('branch_id', '=', user.branchId)
          .executeTakeFirst()
      : await app.db
          .selectFrom('changelog_entries')
          .select('id')
          .where('id', '=', notice.id)
          .executeTakeFirst();
  if (!exists) throw new NotFound(notice.kind === 'recall' ? 'Batch' : 'Announcement', notice.id);
  await app.db
    .insertInto('notice_acknowledgements')
    .values({ user_id: user.id, notice_kind: notice.kind, notice_id: notice.id, acknowledged_at: nowIso() })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
