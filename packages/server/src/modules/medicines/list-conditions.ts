import { type RawBuilder, sql } from 'kysely';

// The Medicines list's conditions on the catalogue, in SQL both engines speak (list.ts, the stock sort).

const flag = (on: boolean) => sql.lit(on ? 1 : 0);

/** `alias`.is_active as the filter asks (a literal, as partial indexes name it); null: every medicine. */
export function activeCondition(alias: string, active: 'true' | 'false' | 'all'): RawBuilder<boolean> | null {
  return active === 'all'
    ? null
    : sql<boolean>`${sql.ref(`${alias}.is_active`)} = ${flag(active === 'true')}`;
}

/** The list filters on the catalogue's own columns but is_active, as conditions on medicines `m`. */
export function catalogueConditions(f: {
  category?: string | undefined;
  requires_prescription?: boolean | undefined;
  is_controlled?: boolean | undefined;
}): RawBuilder<boolean>[] {
  const out: RawBuilder<boolean>[] = [];
  if (f.category !== undefined) out.push(sql<boolean>`m.category = ${f.category}`);
  if (f.requires_prescription !== undefined)
    out.push(sql<boolean>`m.requires_prescription = ${flag(f.requires_prescription)}`);
  if (f.is_controlled !== undefined) out.push(sql<boolean>`m.is_controlled = ${flag(f.is_controlled)}`);
  return out;
}

export const and = (conditions: Array<RawBuilder<boolean> | null>) => {
  const present = conditions.filter((c): c is RawBuilder<boolean> => c !== null);
  return present.length ? sql`AND ${sql.join(present, sql` AND `)}` : sql``;
};
