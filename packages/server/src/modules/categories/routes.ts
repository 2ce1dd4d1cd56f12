import { CATALOGUE_EDITORS } from '@pharmacy/contracts/roles';
import {
  Category,
  CategoryList,
  CategorySlugParam,
  CreateCategoryRequest,
  UpdateCategoryRequest,
} from '@pharmacy/contracts';
import { created, noContent, type ApiRouter } from '../../http/route';
import { actorOf } from '../audit/service';
import { createCategory, deleteCategory, listCategories, updateCategory } from './service';

/**
 * Writes are for admin and inventory_manager, as the spec's role table says. The spec's 403 wording also names
 * branch_manager; we follow the role table: the catalogue is owned centrally, so branch managers read only.
 */
const WRITERS = CATALOGUE_EDITORS;

export function categoryRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/categories',
    tag: 'Categories',
    summary: 'List categories with their medicine counts, sorted by name',
    description: 'medicine_count counts every medicine filed under the category, active or not.',
    roles: 'any',
    responses: { 200: { description: 'All categories', schema: CategoryList } },
    handler: async ({ app }) => ({ items: await listCategories(app.db) }),
  });

  r.route({
    method: 'post',
    path: '/categories',
    tag: 'Categories',
    summary: 'Create a category',
    description:
      'The slug is derived from the name when absent (lowercase a-z, 0-9 and dashes, accents dropped); a given slug is normalised the same way. It must contain a letter or digit (400). Slug and name (case-insensitive) are each unique (409). Roles: admin, inventory_manager (branch managers are refused although the spec’s 403 wording names them).',
    roles: WRITERS,
    body: CreateCategoryRequest,
    responses: {
      201: { description: 'The category', schema: Category },
      400: { description: 'Invalid body, or no letter or digit in the slug' },
      409: { description: 'Slug or name exists' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createCategory(app, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'put',
    path: '/categories/:slug',
    tag: 'Categories',
    summary: 'Rename a category or change its slug',
    description:
      'Give name, slug or both. A changed slug is applied to every medicine of the category in the same transaction (each medicine replicates).',
    roles: WRITERS,
    params: CategorySlugParam,
    body: UpdateCategoryRequest,
    responses: {
      200: { description: 'The category', schema: Category },
      400: { description: 'Invalid body, nothing to update, or no letter or digit in the slug' },
      404: { description: 'Unknown category' },
      409: { description: 'Slug or name clash' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      updateCategory(app, actorOf(user, requestId), params.slug, body),
  });

  r.route({
    method: 'delete',
    path: '/categories/:slug',
    tag: 'Categories',
    summary: 'Delete an unused category',
    description: 'Refused with 409 CATEGORY_IN_USE while any medicine (active or not) is filed under it.',
    roles: WRITERS,
    params: CategorySlugParam,
    responses: {
      204: { description: 'Deleted' },
      404: { description: 'Unknown category' },
      409: { description: 'Medicines use it' },
    },
    handler: async ({ app, user, params, requestId }) => {
      await deleteCategory(app, actorOf(user, requestId), params.slug);
      return noContent();
    },
  });
}
