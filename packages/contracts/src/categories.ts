import { z } from 'zod';

/** A category slug in a path or a request: normalised by the service (lowercase, dashes). */
export const CategorySlugParam = z.object({ slug: z.string().trim().min(1).max(64) });

export const Category = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  medicine_count: z.number().int().describe('medicines (active or not) filed under this category'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Category = z.infer<typeof Category>;

export const CategoryList = z.object({ items: z.array(Category) });

const CategoryName = z
  .string({ message: 'must be a string' })
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(100, { message: 'must be at most 100 characters' });
const CategorySlugInput = z
  .string({ message: 'must be a string' })
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(64, { message: 'must be at most 64 characters' });

export const CreateCategoryRequest = z
  .object({ name: CategoryName, slug: CategorySlugInput.optional() })
  .strict();

export const UpdateCategoryRequest = z
  .object({ name: CategoryName, slug: CategorySlugInput })
  .partial()
  .strict()
  .refine((v) => v.name !== undefined || v.slug !== undefined, {
    message: 'No fields to update: give name or slug',
  });
