import { paginate } from '../../db/paginate';
import type { Branch } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import type { BranchesTable } from '../../db/schema';
import { recordUpsert } from '../../db/changes';
import { containsText } from '../../db/like';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { getSettings } from '../settings/service';

export const toBranch = (r: BranchesTable): Branch => ({
  ...r,
  is_active: r.is_active === 1,
  drawer_currencies: drawerCurrencies(r),
});

/** The foreign currencies a branch's drawers hold: change is given in them (issue 27.4). */
export function drawerCurrencies(r: Pick<BranchesTable, 'drawer_currencies'>): string[] {
  try {
    const list: unknown = JSON.parse(r.drawer_currencies ?? '[]');
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

export async function getBranchRow(db: Db, id: string): Promise<BranchesTable> {
  const row = await db.selectFrom('branches').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Branch', id);
  return row;
}

export const getBranch = async (app: AppContext, id: string): Promise<Branch> =>
  toBranch(await getBranchRow(app.db, id));

export async function listBranches(
  app: AppContext,
  f: { is_active?: boolean; search?: string; only?: string; page: number; page_size: number },
) {
  let q = app.db.selectFrom('branches');
  if (f.only) q = q.where('id', '=', f.only);
  if (f.is_active !== undefined) q = q.where('is_active', '=', f.is_active ? 1 : 0);
  if (f.search) {
    const search = f.search;
    q = q.where((eb) => eb.or([containsText('name', search), containsText('code', search)]));
  }
  const found = await paginate(q, f, (q) => q.selectAll().orderBy('name'));
  return { ...found, items: found.items.map(toBranch) };
}

async function assertUnique(db: Db, name: string | undefined, code: string | undefined, exceptId?: string) {
  if (name !== undefined) {
    const clash = await db
      .selectFrom('branches')
      .select('id')
      .where(({ eb, fn }) => eb(fn('lower', ['name']), '=', name.toLowerCase()))
      .executeTakeFirst();
    if (clash && clash.id !== exceptId)
      throw new Conflict(`A branch named "${name}" already exists.`, 'DUPLICATE');
  }
  if (code !== undefined) {
    const clash = await db.selectFrom('branches').select('id').where('code', '=', code).executeTakeFirst();
    if (clash && clash.id !== exceptId)
      throw new Conflict(`A branch with code ${code} already exists.`, 'DUPLICATE');
  }
}

async function assertCurrency(db: Db, code: string) {
  const row = await db
    .selectFrom('currencies')
    .select('is_active')
    .where('code', '=', code)
    .executeTakeFirst();
  if (!row?.is_active) {
    throw new Invalid(`currency_code ${code} is not an active currency.`, [
      { path: 'currency_code', message: 'unknown or inactive currency' },
    ]);
  }
}

/** The currencies a branch's drawers hold: each active in the registry (400 naming drawer_currencies). */
async function assertDrawerCurrencies(db: Db, codes: readonly string[]) {
  if (codes.length === 0) return;
  const rows = await db
    .selectFrom('currencies')
    .select(['code', 'is_active'])
    .where('code', 'in', [...codes])
    .execute();
  const refused = codes.filter((c) => !rows.some((r) => r.code === c && r.is_active));
  if (refused.length > 0)
    throw new Invalid(
      `The drawer can only hold active currencies: ${refused.join(', ')} ${refused.length === 1 ? 'is' : 'are'} not active (Back office → Currencies).`,
      [{ path: 'drawer_currencies', message: `${refused.join(', ')}: not an active currency` }],
    );
}

export async function writeBranch(trx: Db, row: BranchesTable): Promise<void> {
  await trx
    .insertInto('branches')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
  await recordUpsert(trx, 'branch', row, null);
}

export interface BranchInput {
  name: string;
  code: string;
  address: string;
  phone: string;
  vat_number: string;
  currency_code?: string;
  timezone?: string;
  is_active: boolean;
  drawer_currencies?: string[];
}

export async function createBranch(
  app: AppContext,
  actor: Actor,
  input: BranchInput,
  trx?: Db,
): Promise<Branch> {
  const settings = await getSettings(app);
  const db = trx ?? app.db;
  const currency = input.currency_code ?? settings.base_currency_code;
  await assertUnique(db, input.name, input.code);
  await assertCurrency(db, currency);
  const at = nowIso();
  const row: BranchesTable = {
    id: newId(),
    name: input.name,
    code: input.code,
    address: input.address,
    phone: input.phone,
    vat_number: input.vat_number,
    currency_code: currency,
    timezone: input.timezone ?? settings.timezone,
    is_active: input.is_active ? 1 : 0,
    created_at: at,
    updated_at: at,
    drawer_currencies: JSON.stringify(input.drawer_currencies ?? []),
  };
  const write = async (t: Db) => {
    await writeBranch(t, row);
    await writeAudit(t, actor, {
      action: 'branch.create',
      entity: 'branch',
      entityId: row.id,
      branchId: row.id,
      after: row,
    });
  };
  if (trx) await write(trx);
  else await app.db.transaction().execute(write);
  return toBranch(row);
}

export async function updateBranch(
  app: AppContext,
  actor: Actor,
  id: string,
  patch: Partial<Omit<BranchInput, 'is_active'>> & { is_active?: boolean },
): Promise<Branch> {
  const before = await getBranchRow(app.db, id);
  await assertUnique(app.db, patch.name, patch.code, id);
  if (patch.currency_code) await assertCurrency(app.db, patch.currency_code);
  if (patch.is_active === false && before.is_active) {
    const users = await app.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('branch_id', '=', id)
      .where('is_active', '=', 1)
      .executeTakeFirstOrThrow();
    if (users.n > 0) {
      throw new Conflict(
        `Branch ${before.name} still has ${users.n} active user(s); move or deactivate them first.`,
        'BRANCH_IN_USE',
      );
    }
  }
  const { is_active, drawer_currencies, ...rest } = patch;
  if (drawer_currencies) await assertDrawerCurrencies(app.db, drawer_currencies);
  const row: BranchesTable = {
    ...before,
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
    ...(drawer_currencies && { drawer_currencies: JSON.stringify([...new Set(drawer_currencies)]) }),
    ...(is_active !== undefined && { is_active: is_active ? 1 : 0 }),
    updated_at: nowIso(),
  };
  await app.db.transaction().execute(async (trx) => {
    await writeBranch(trx, row);
    await writeAudit(trx, actor, {
      action: 'branch.update',
      entity: 'branch',
      entityId: id,
      branchId: id,
      before,
      after: row,
    });
  });
  return toBranch(row);
}
