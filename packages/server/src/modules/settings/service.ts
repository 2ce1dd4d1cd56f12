import { Settings, type TaxPolicy, type UpdateSettingsRequest, vatRateOf } from '@pharmacy/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordChange } from '../../db/changes';
import { Conflict, Invalid } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';

const KEY = 'organisation';
const CACHE_KEY = 'settings';

interface CachedSettings {
  value: Settings;
  updated_at: string | null;
}

async function load(app: AppContext): Promise<CachedSettings> {
  const cached = app.cache.get(CACHE_KEY) as CachedSettings | undefined;
  if (cached) return cached;
  const row = await app.db.selectFrom('settings').selectAll().where('key', '=', KEY).executeTakeFirst();
  // Parsing through the schema fills defaults for fields added after the row was written.
  const value = Settings.parse(row ? JSON.parse(row.value) : {});
  const entry = { value, updated_at: row?.updated_at ?? null };
  app.cache.set(CACHE_KEY, entry);
  return entry;
}

export async function getSettings(app: AppContext): Promise<Settings> {
  return (await load(app)).value;
}

export async function getSettingsWithTimestamp(app: AppContext) {
  const { value, updated_at } = await load(app);
  return { ...value, updated_at };
}

/** Any write to the settings row (a PUT here, or a change applied by sync) must call this. */
export const invalidateSettings = (app: AppContext): void => {
  app.cache.delete(CACHE_KEY);
};

export async function writeSettingsRow(trx: Db, value: Settings, userId: string | null): Promise<string> {
  const at = nowIso();
  const json = JSON.stringify(value);
  await trx
    .insertInto('settings')
    .values({ key: KEY, value: json, updated_at: at, updated_by: userId })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: at, updated_by: userId }))
    .execute();
  await recordChange(trx, {
    entity: 'settings',
    entityId: KEY,
    op: 'upsert',
    payload: value,
    branchId: null,
  });
  return at;
}

/** A VAT category the tax policy drops must not be the category of an active medicine: it could not be sold. */
async function assertVatCategoriesUnused(trx: Db, before: TaxPolicy, next: TaxPolicy): Promise<void> {
  const dropped = Object.keys(before.vat_rates).filter((c) => vatRateOf(next, c) === undefined);
  if (dropped.length === 0) return;
  const used = await trx
    .selectFrom('medicines')
    .select(['vat_category', (eb) => eb.fn.countAll<number>().as('n')])
    .where('vat_category', 'in', dropped)
    .where('is_active', '=', 1)
    .groupBy('vat_category')
    .execute();
  if (used.length === 0) return;
  const list = used
    .map((u) => `${u.vat_category} (${u.n} medicine${Number(u.n) === 1 ? '' : 's'})`)
    .join(', ');
  throw new Conflict(
    `The tax policy cannot drop a VAT category that active medicines use: ${list}; move them to another category first.`,
    'VAT_CATEGORY_IN_USE',
  );
}

export async function updateSettings(
  app: AppContext,
  actor: Actor,
  patch: z.output<typeof UpdateSettingsRequest>,
) {
  const before = await getSettings(app);
  const next = Settings.parse({ ...before, ...patch });
  if (patch.base_currency_code) {
    const currency = await app.db
      .selectFrom('currencies')
      .select(['code', 'is_active'])
      .where('code', '=', patch.base_currency_code)
      .executeTakeFirst();
    if (!currency?.is_active) {
      throw new Invalid(
        `base_currency_code ${patch.base_currency_code} is not an active currency in the registry.`,
        [{ path: 'base_currency_code', message: 'unknown or inactive currency' }],
      );
    }
  }
  await app.db.transaction().execute(async (trx) => {
    await assertVatCategoriesUnused(trx, before.tax_policy, next.tax_policy);
    await writeSettingsRow(trx, next, actor.userId);
    await writeAudit(trx, actor, {
      action: 'settings.update',
      entity: 'settings',
      entityId: KEY,
      branchId: null,
      before,
      after: next,
    });
  });
  invalidateSettings(app);
  return getSettingsWithTimestamp(app);
}
