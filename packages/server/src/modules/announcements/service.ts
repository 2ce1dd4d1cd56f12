import type { ChangelogKind } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import { recordUpsert } from '../../db/changes';
import type { AuthUser } from '../../http/auth';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import type { ChangelogEntriesTable } from '../../db/tables/announcements';
import { paginate } from '../../db/paginate';

function entryQuery(app: AppContext) {
  return app.db
    .selectFrom('changelog_entries as c')
    .leftJoin('users as u', 'u.id', 'c.created_by')
    .selectAll('c')
    .select('u.full_name as created_by_name');
}

export async function listChangelog(
  app: AppContext,
  f: { kind?: ChangelogKind; page: number; page_size: number },
) {
  let q = entryQuery(app);
  if (f.kind) q = q.where('c.kind', '=', f.kind);
  return paginate(q, f, (q) => q.orderBy('c.created_at', 'desc').orderBy('c.id', 'desc'));
}

/** A release note or organisation notice: organisation-wide, replicated to every till, audited. */
export async function createChangelogEntry(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: { title: string; body: string; version: string | null; kind: ChangelogKind },
) {
  const row: ChangelogEntriesTable = { id: newId(), ...input, created_by: user.id, created_at: nowIso() };
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('changelog_entries').values(row).execute();
    await recordUpsert(trx, 'changelog_entry', row, null);
    await writeAudit(trx, actor, {
      action: 'changelog.create',
      entity: 'changelog_entry',
      entityId: row.id,
      branchId: null,
      after: row,
    });
  });
  return entryQuery(app).where('c.id', '=', row.id).executeTakeFirstOrThrow();
}
