import type { Category } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordChange, recordUpsert } from '../../db/changes';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { countMedicinesInCategory, touchMedicinesOfCategory } from '../medicines/service';
import type { CategoriesTable } from '../../db/tables/categories';
import { slugify } from '../../lib/slug';

function requireSlug(text: string, field: 'slug' | 'name'): string {
  const slug = slugify(text);
  if (!slug)
    throw new Invalid(
      field === 'slug'
        ? 'slug must contain at least one letter or digit (a-z, 0-9).'
        : 'No slug can be derived from this name (it has no letters or digits a-z, 0-9); give a slug.',
      [{ path: 'slug', message: 'must contain at least one letter or digit' }],
    );
  return slug;
}

const withCount = (db: Db) =>
  db
    .selectFrom('categories as c')
    .selectAll('c')
    .select(sql<number>`(SELECT count(*) FROM medicines m WHERE m.category = c.slug)`.as('medicine_count'));

const toCategory = (r: CategoriesTable & { medicine_count: number }): Category => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  medicine_count: Number(r.medicine_count),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export async function listCategories(db: Db): Promise<Category[]> {
  return (await withCount(db).orderBy('c.name').execute()).map(toCategory);
}

export async function getCategory(db: Db, slug: string): Promise<Category> {
  const row = await withCount(db).where('c.slug', '=', slug).executeTakeFirst();
  if (!row) throw new NotFound('Category', slug);
  return toCategory(row);
}

async function assertFree(db: Db, slug: string, name: string, exceptId?: string): Promise<void> {
  const clash = await db
    .selectFrom('categories')
    .select(['id', 'slug', 'name'])
    .where((eb) => eb.or([eb('slug', '=', slug), eb(sql`name`, '=', sql`${name} COLLATE NOCASE`)]))
    .execute();
  for (const c of clash) {
    if (c.id === exceptId) continue;
    if (c.slug === slug) throw new Conflict(`A category with slug ${slug} already exists.`, 'DUPLICATE_SLUG');
    throw new Conflict(`A category named ${c.name} already exists.`, 'DUPLICATE_NAME');
  }
}

async function writeCategory(trx: Db, row: CategoriesTable): Promise<void> {
  await trx
    .insertInto('categories')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
  await recordUpsert(trx, 'category', row, null);
}

export async function createCategory(
  app: AppContext,
  actor: Actor,
  input: { name: string; slug?: string },
  trx?: Db,
): Promise<Category> {
  const slug = requireSlug(input.slug ?? input.name, input.slug === undefined ? 'name' : 'slug');
  const at = nowIso();
  const row: CategoriesTable = { id: newId(), slug, name: input.name, created_at: at, updated_at: at };
  const write = async (t: Db) => {
    await assertFree(t, slug, input.name);
    await writeCategory(t, row);
    await writeAudit(t, actor, {
      action: 'category.create',
      entity: 'category',
      entityId: row.id,
      branchId: null,
      after: row,
    });
  };
  if (trx) await write(trx);
  else await app.db.transaction().execute(write);
  return getCategory(trx ?? app.db, slug);
}

/** Renames a category; a new slug is carried to every medicine filed under it in the same transaction. */
export async function updateCategory(
  app: AppContext,
  actor: Actor,
  slug: string,
  patch: { name?: string; slug?: string },
): Promise<Category> {
  const nextSlug = patch.slug === undefined ? undefined : requireSlug(patch.slug, 'slug');
  let result = slug;
  await app.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('categories').selectAll().where('slug', '=', slug).executeTakeFirst();
    if (!before) throw new NotFound('Category', slug);
    const row: CategoriesTable = {
      ...before,
      slug: nextSlug ?? before.slug,
      name: patch.name ?? before.name,
      updated_at: nowIso(),
    };
    await assertFree(trx, row.slug, row.name, before.id);
    // medicines.category references categories.slug ON UPDATE CASCADE: the rename reaches every medicine here.
    await trx.updateTable('categories').set(row).where('id', '=', before.id).execute();
    await recordUpsert(trx, 'category', row, null);
    const moved = row.slug !== before.slug ? await touchMedicinesOfCategory(trx, row.slug) : 0;
    await writeAudit(trx, actor, {
      action: 'category.update',
      entity: 'category',
      entityId: row.id,
      branchId: null,
      before,
      after: { ...row, medicines_updated: moved },
    });
    result = row.slug;
  });
  return getCategory(app.db, result);
}

export async function deleteCategory(app: AppContext, actor: Actor, slug: string): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('categories').selectAll().where('slug', '=', slug).executeTakeFirst();
    if (!before) throw new NotFound('Category', slug);
    const used = await countMedicinesInCategory(trx, slug);
    if (used > 0)
      throw new Conflict(
        `Category ${slug} is used by ${used} medicine${used === 1 ? '' : 's'}; move them to another category first.`,
        'CATEGORY_IN_USE',
      );
    await trx.deleteFrom('categories').where('id', '=', before.id).execute();
    await recordChange(trx, {
      entity: 'category',
      entityId: before.id,
      op: 'delete',
      payload: before,
      branchId: null,
    });
    await writeAudit(trx, actor, {
      action: 'category.delete',
      entity: 'category',
      entityId: before.id,
      branchId: null,
      before,
    });
  });
}
