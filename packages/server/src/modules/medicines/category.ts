import type { Db } from '../../db/connection';
import { slugify } from '../../lib/slug';

/** The category a medicine names, by slug or by anything that slugifies to it ("Pain Relief"); null if none. */
export async function findCategorySlug(db: Db, text: string): Promise<string | null> {
  const slug = slugify(text);
  if (!slug) return null;
  const row = await db.selectFrom('categories').select('slug').where('slug', '=', slug).executeTakeFirst();
  return row?.slug ?? null;
}
