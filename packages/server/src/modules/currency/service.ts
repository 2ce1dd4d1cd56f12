import { paginate } from '../../db/paginate';
import type { Currency, ExchangeRate } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import type { CurrenciesTable, ExchangeRatesTable } from '../../db/schema';
import { recordChange, recordUpsert } from '../../db/changes';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { formatScaled, invertScaled, parseScaled, RATE_SCALE } from '../../lib/decimal';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { getSettings } from '../settings/service';

/** The registry a fresh database starts with; admins add or deactivate currencies afterwards. */
export const DEFAULT_CURRENCIES: Array<Pick<Currency, 'code' | 'name' | 'symbol' | 'exponent'>> = [
  { code: 'USD', name: 'US Dollar', symbol: '$', exponent: 2 },
  { code: 'EUR', name: 'Euro', symbol: '€', exponent: 2 },
  { code: 'GBP', name: 'Pound Sterling', symbol: '£', exponent: 2 },
  { code: 'TZS', name: 'Tanzanian Shilling', symbol: 'TSh', exponent: 2 },
  { code: 'KES', name: 'Kenyan Shilling', symbol: 'KSh', exponent: 2 },
  { code: 'UGX', name: 'Ugandan Shilling', symbol: 'USh', exponent: 0 },
  { code: 'SAR', name: 'Saudi Riyal', symbol: '﷼', exponent: 2 },
  { code: 'AED', name: 'UAE Dirham', symbol: 'AED', exponent: 2 },
  { code: 'TRY', name: 'Turkish Lira', symbol: '₺', exponent: 2 },
  { code: 'KWD', name: 'Kuwaiti Dinar', symbol: 'KD', exponent: 3 },
  { code: 'JPY', name: 'Yen', symbol: '¥', exponent: 0 },
];

export const toCurrency = (r: CurrenciesTable): Currency => ({
  code: r.code,
  name: r.name,
  symbol: r.symbol,
  exponent: r.exponent,
  is_active: r.is_active === 1,
});

export const toRate = (r: ExchangeRatesTable): ExchangeRate => ({
  ...r,
  rate: formatScaled(parseScaled(r.rate), RATE_SCALE, RATE_SCALE, true),
});

export async function listCurrencies(app: AppContext, includeInactive: boolean): Promise<Currency[]> {
  let q = app.db.selectFrom('currencies').selectAll().orderBy('code');
  if (!includeInactive) q = q.where('is_active', '=', 1);
  return (await q.execute()).map(toCurrency);
}

export async function getCurrency(db: Db, code: string): Promise<Currency> {
  const row = await db.selectFrom('currencies').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) throw new NotFound('Currency', code);
  return toCurrency(row);
}

/** The exponent of a currency, cached: every money conversion needs it. */
export async function currencyExponent(app: AppContext, code: string): Promise<number> {
  const key = `exponent:${code}`;
  const cached = app.cache.get(key);
  if (typeof cached === 'number') return cached;
  const { exponent } = await getCurrency(app.db, code);
  app.cache.set(key, exponent);
  return exponent;
}

/** The base currency's exponent: prices, balances and coupon values are minor units of it. */
export async function baseExponent(app: AppContext): Promise<number> {
  return currencyExponent(app, (await getSettings(app)).base_currency_code);
}

async function writeCurrency(trx: Db, row: CurrenciesTable): Promise<void> {
  await trx
    .insertInto('currencies')
    .values(row)
    .onConflict((oc) => oc.column('code').doUpdateSet(row))
    .execute();
  await recordChange(trx, {
    entity: 'currency',
    entityId: row.code,
    op: 'upsert',
    payload: row,
    branchId: null,
  });
}

export async function seedCurrencies(trx: Db): Promise<void> {
  const at = nowIso();
  for (const c of DEFAULT_CURRENCIES)
    await writeCurrency(trx, { ...c, is_active: 1, created_at: at, updated_at: at });
}

export async function createCurrency(
  app: AppContext,
  actor: Actor,
  input: { code: string; name: string; symbol: string; exponent: number; is_active: boolean },
): Promise<Currency> {
  const existing = await app.db
    .selectFrom('currencies')
    .select('code')
    .where('code', '=', input.code)
    .executeTakeFirst();
  if (existing) throw new Conflict(`Currency ${input.code} already exists.`, 'DUPLICATE');
  const at = nowIso();
  const row: CurrenciesTable = {
    ...input,
    is_active: input.is_active ? 1 : 0,
    created_at: at,
    updated_at: at,
  };
  await app.db.transaction().execute(async (trx) => {
    await writeCurrency(trx, row);
    await writeAudit(trx, actor, {
      action: 'currency.create',
      entity: 'currency',
      entityId: row.code,
      branchId: null,
      after: row,
    });
  });
  return toCurrency(row);
}

export async function updateCurrency(
  app: AppContext,
  actor: Actor,
  code: string,
  patch: Partial<{ name: string; symbol: string; exponent: number; is_active: boolean }>,
): Promise<Currency> {
  const before = await app.db
    .selectFrom('currencies')
    .selectAll()
    .where('code', '=', code)
    .executeTakeFirst();
  if (!before) throw new NotFound('Currency', code);
  const settings = await getSettings(app);
  if (patch.is_active === false && code === settings.base_currency_code) {
    throw new Conflict(`${code} is the base currency and cannot be deactivated.`, 'BASE_CURRENCY');
  }
  if (patch.exponent !== undefined && patch.exponent !== before.exponent) {
    // Amounts are stored in minor units of their currency: changing the exponent would rescale history.
    const used = await app.db
      .selectFrom('branches')
      .select('id')
      .where('currency_code', '=', code)
      .executeTakeFirst();
    if (used || code === settings.base_currency_code) {
      throw new Conflict(`The exponent of ${code} cannot change while it is in use.`, 'CURRENCY_IN_USE');
    }
  }
  const row: CurrenciesTable = {
    ...before,
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.symbol !== undefined && { symbol: patch.symbol }),
    ...(patch.exponent !== undefined && { exponent: patch.exponent }),
    ...(patch.is_active !== undefined && { is_active: patch.is_active ? 1 : 0 }),
    updated_at: nowIso(),
  };
  await app.db.transaction().execute(async (trx) => {
    await writeCurrency(trx, row);
    await writeAudit(trx, actor, {
      action: 'currency.update',
      entity: 'currency',
      entityId: code,
      branchId: null,
      before,
      after: row,
    });
  });
  app.cache.delete(`exponent:${code}`);
  return toCurrency(row);
}

async function requireActive(db: Db, code: string, field: string): Promise<void> {
  const row = await db
    .selectFrom('currencies')
    .select('is_active')
    .where('code', '=', code)
    .executeTakeFirst();
  if (!row?.is_active)
    throw new Invalid(`${field} ${code} is not an active currency.`, [
      { path: field, message: 'unknown or inactive currency' },
    ]);
}

export async function createRate(
  app: AppContext,
  actor: Actor,
  input: { from_code: string; to_code?: string; rate: string; effective_at?: string; source: string },
): Promise<ExchangeRate> {
  const to = input.to_code ?? (await getSettings(app)).base_currency_code;
  if (to === input.from_code)
    throw new Invalid('from_code and to_code must differ.', [
      { path: 'to_code', message: 'same as from_code' },
    ]);
  await requireActive(app.db, input.from_code, 'from_code');
  await requireActive(app.db, to, 'to_code');
  const at = nowIso();
  const row: ExchangeRatesTable = {
    id: newId(),
    from_code: input.from_code,
    to_code: to,
    rate: formatScaled(parseScaled(input.rate)),
    effective_at: input.effective_at ? new Date(input.effective_at).toISOString() : at,
    source: input.source,
    created_by: actor.userId ?? 'system',
    created_at: at,
  };
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('exchange_rates').values(row).execute();
    await recordUpsert(trx, 'exchange_rate', row, null);
    await writeAudit(trx, actor, {
      action: 'exchange_rate.create',
      entity: 'exchange_rate',
      entityId: row.id,
      branchId: null,
      after: row,
    });
  });
  return toRate(row);
}

export async function listRates(
  app: AppContext,
  f: { from_code?: string; to_code?: string; page: number; page_size: number },
) {
  let q = app.db.selectFrom('exchange_rates');
  if (f.from_code) q = q.where('from_code', '=', f.from_code);
  if (f.to_code) q = q.where('to_code', '=', f.to_code);
  const found = await paginate(q, f, (q) =>
    q.selectAll().orderBy('effective_at', 'desc').orderBy('id', 'desc'),
  );
  return { ...found, items: found.items.map(toRate) };
}

export interface ResolvedRate {
  from_code: string;
  to_code: string;
  scaled: bigint;
  effective_at: string | null;
  rate_id: string | null;
  derived: 'identity' | 'direct' | 'inverse';
}

/** The rate in force for a pair at a time: the latest filed at or before it, directly or as the inverse pair. */
export async function resolveRate(db: Db, from: string, to: string, at: string): Promise<ResolvedRate> {
  if (from === to)
    return {
      from_code: from,
      to_code: to,
      scaled: parseScaled('1'),
      effective_at: null,
      rate_id: null,
      derived: 'identity',
    };
  const latest = (a: string, b: string) =>
    db
      .selectFrom('exchange_rates')
      .selectAll()
      .where('from_code', '=', a)
      .where('to_code', '=', b)
      .where('effective_at', '<=', at)
      .orderBy('effective_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  const [direct, inverse] = await Promise.all([latest(from, to), latest(to, from)]);
  const pick = direct && (!inverse || direct.effective_at >= inverse.effective_at) ? direct : inverse;
  if (!pick) throw new NotFound(`An exchange rate from ${from} to ${to} effective at ${at}`);
  const scaled = parseScaled(pick.rate);
  return pick === direct
    ? {
        from_code: from,
        to_code: to,
        scaled,
        effective_at: pick.effective_at,
        rate_id: pick.id,
        derived: 'direct',
      }
    : {
        from_code: from,
        to_code: to,
        scaled: invertScaled(scaled),
        effective_at: pick.effective_at,
        rate_id: pick.id,
        derived: 'inverse',
      };
}

export const presentRate = (r: ResolvedRate) => ({
  from_code: r.from_code,
  to_code: r.to_code,
  rate: formatScaled(r.scaled, RATE_SCALE, RATE_SCALE, true),
  effective_at: r.effective_at,
  rate_id: r.rate_id,
  derived: r.derived,
});

export async function checkRate(
  app: AppContext,
  input: { from_code: string; to_code?: string; rate: string; at?: string },
) {
  const settings = await getSettings(app);
  const to = input.to_code ?? settings.base_currency_code;
  const at = input.at ? new Date(input.at).toISOString() : nowIso();
  const effective = await resolveRate(app.db, input.from_code, to, at);
  const proposed = parseScaled(input.rate);
  const diff = proposed > effective.scaled ? proposed - effective.scaled : effective.scaled - proposed;
  // deviation in percent, scaled by 10^RATE_SCALE
  const deviation = (diff * 100n * 10n ** BigInt(RATE_SCALE)) / effective.scaled;
  const tolerance = parseScaled(String(settings.fx_tolerance_pct));
  return {
    within_tolerance: deviation <= tolerance,
    proposed_rate: formatScaled(proposed, RATE_SCALE, RATE_SCALE, true),
    effective_rate: formatScaled(effective.scaled, RATE_SCALE, RATE_SCALE, true),
    deviation_pct: formatScaled(deviation, RATE_SCALE, 4),
    tolerance_pct: formatScaled(tolerance, RATE_SCALE, 4),
    from_code: input.from_code,
    to_code: to,
  };
}

export async function currencyOverview(app: AppContext) {
  const settings = await getSettings(app);
  const [base, active, branches, latest] = await Promise.all([
    getCurrency(app.db, settings.base_currency_code),
    listCurrencies(app, false),
    app.db
      .selectFrom('branches')
      .select(['id as branch_id', 'name as branch_name', 'currency_code'])
      .orderBy('name')
      .execute(),
    app.db
      .selectFrom('exchange_rates as r')
      .selectAll('r')
      .where(({ eb, selectFrom }) =>
        eb(
          'r.id',
          '=',
          selectFrom('exchange_rates as r2')
            .select('r2.id')
            .whereRef('r2.from_code', '=', 'r.from_code')
            .whereRef('r2.to_code', '=', 'r.to_code')
            .where('r2.effective_at', '<=', nowIso())
            .orderBy('r2.effective_at', 'desc')
            .orderBy('r2.id', 'desc')
            .limit(1),
        ),
      )
      .orderBy('r.from_code')
      .execute(),
  ]);
  return { base_currency: base, active_currencies: active, branches, latest_rates: latest.map(toRate) };
}
