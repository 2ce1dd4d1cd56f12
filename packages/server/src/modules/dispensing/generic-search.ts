import { baseExponent } from '../currency/service';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { Invalid } from '../../lib/errors';
import { formatMinor } from '../../lib/money';
import { getMedicineRow } from '../medicines/service';
import { branchStock } from '../stock/ledger';

/**
 * Substitutes: active medicines with the same generic name, strength and form (case-insensitive, trimmed), with
 * sellable stock in the branch (active, unexpired batches), cheapest first, then by name; the medicine asked
 * about is excluded.
 */
export async function genericSearch(
  app: AppContext,
  branchId: string,
  q: { medicine_id?: string; generic_name?: string; strength?: string; form?: string; limit: number },
) {
  let generic = q.generic_name;
  let strength = q.strength;
  let form = q.form;
  if (q.medicine_id) {
    const m = await getMedicineRow(app.db, q.medicine_id);
    generic = m.generic_name;
    strength ??= m.strength;
    form ??= m.form;
  }
  if (!generic?.trim())
    throw new Invalid('This medicine has no generic name recorded, so no substitute can be matched.', [
      { path: 'medicine_id', message: 'no generic name' },
    ]);
  const norm = (s: string) => s.trim().toLowerCase();
  let query = app.db
    .selectFrom('medicines')
    .selectAll()
    .where('is_active', '=', sql.lit(1))
    .where((eb) => eb(eb.fn('lower', [eb.fn('trim', ['generic_name'])]), '=', norm(generic!)));
  if (strength !== undefined)
    query = query.where((eb) => eb(eb.fn('lower', [eb.fn('trim', ['strength'])]), '=', norm(strength!)));
  if (form !== undefined)
    query = query.where((eb) => eb(eb.fn('lower', [eb.fn('trim', ['form'])]), '=', norm(form!)));
  if (q.medicine_id) query = query.where('id', '!=', q.medicine_id);
  const candidates = await query.execute();
  const stock = await branchStock(
    app.db,
    branchId,
    candidates.map((c) => c.id),
  );
  const exponent = await baseExponent(app);
  const items = candidates
    .filter((c) => (stock.get(c.id) ?? 0) > 0)
    .sort(
      (a, b) => a.selling_price - b.selling_price || a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
    )
    .slice(0, q.limit)
    .map((c) => ({
      medicine_id: c.id,
      name: c.name,
      generic_name: c.generic_name,
      strength: c.strength,
      form: c.form,
      selling_price: formatMinor(c.selling_price, exponent),
      stock_quantity: stock.get(c.id) ?? 0,
      requires_prescription: c.requires_prescription === 1,
      is_controlled: c.is_controlled === 1,
    }));
  return {
    branch_id: branchId,
    generic_name: generic,
    strength: strength ?? null,
    form: form ?? null,
    items,
  };
}
