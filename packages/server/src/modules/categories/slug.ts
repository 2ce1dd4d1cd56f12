import type { Db } from '../../db/connection';

/** "Pain & Fever Relief" -> "pain-fever-relief"; accents dropped; empty when nothing is left. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}

/** The category a medicine names, by slug or by anything that slugifies to it ("Pain Relief"); null if none. */
export async function findCategorySlug(db: Db, text: string): Promise<string | null> {
  const slug = slugify(text);
  if (!slug) return null;
  const row = await db.selectFrom('categories').select('slug').where('slug', '=', slug).executeTakeFirst();
  return row?.slug ?? null;
}
