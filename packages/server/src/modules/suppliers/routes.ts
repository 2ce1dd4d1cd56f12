import { STOCK_MANAGERS } from '@pharmacy/contracts/roles';
import {
  CreateSupplierRequest,
  pageOf,
  Supplier,
  SupplierListQuery,
  SupplierParams,
  UpdateSupplierRequest,
} from '@pharmacy/contracts';
import { created, noContent, type ApiRouter } from '../../http/route';
import { actorOf } from '../audit/service';
import {
  createSupplier,
  deactivateSupplier,
  getSupplierRow,
  listSuppliers,
  toSupplier,
  updateSupplier,
} from './service';

const WRITERS = STOCK_MANAGERS;

export function supplierRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/suppliers',
    tag: 'Suppliers',
    summary: 'List suppliers, 20 per page, sorted by name unless asked otherwise',
    description:
      'search matches part of the name or the tax number; is_active is true (default), false or all. page_size defaults to 20 (at most 200). sort: name (default, case-insensitive), lead_time_days, reliability_score or created_at; order asc (default) or desc; ties by name (created_at: by creation order).',
    roles: 'any',
    query: SupplierListQuery,
    responses: { 200: { description: 'A page of suppliers', schema: pageOf(Supplier) } },
    handler: ({ app, query }) => listSuppliers(app, query),
  });

  r.route({
    method: 'post',
    path: '/suppliers',
    tag: 'Suppliers',
    summary: 'Create a supplier',
    description:
      'Defaults: supplier_type distributor, lead_time_days 7, reliability_score 100 (0-100). Contact fields: contact_person, phone, email, address, notes. Two active suppliers cannot share a tax number (409).',
    roles: WRITERS,
    body: CreateSupplierRequest,
    responses: {
      201: { description: 'The supplier', schema: Supplier },
      409: { description: 'Tax number used by an active supplier' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createSupplier(app, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'get',
    path: '/suppliers/:supplierId',
    tag: 'Suppliers',
    summary: 'Read a supplier',
    roles: 'any',
    params: SupplierParams,
    responses: {
      200: { description: 'The supplier', schema: Supplier },
      404: { description: 'Unknown supplier' },
    },
    handler: async ({ app, params }) => toSupplier(await getSupplierRow(app.db, params.supplierId)),
  });

  r.route({
    method: 'put',
    path: '/suppliers/:supplierId',
    tag: 'Suppliers',
    summary: 'Update a supplier',
    description:
      'Allow-list: name, tax_number, supplier_type, lead_time_days, reliability_score, contact_person, phone, email, address, notes, is_active (true reactivates). Any other field, or none, is a 400.',
    roles: WRITERS,
    params: SupplierParams,
    body: UpdateSupplierRequest,
    responses: {
      200: { description: 'The supplier', schema: Supplier },
      404: { description: 'Unknown supplier' },
      409: { description: 'Tax number used by an active supplier' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      updateSupplier(app, actorOf(user, requestId), params.supplierId, body),
  });

  r.route({
    method: 'delete',
    path: '/suppliers/:supplierId',
    tag: 'Suppliers',
    summary: 'Deactivate a supplier',
    description: 'Soft delete: is_active becomes false, the record stays; 204.',
    roles: WRITERS,
    params: SupplierParams,
    responses: { 204: { description: 'Deactivated' }, 404: { description: 'Unknown supplier' } },
    handler: async ({ app, user, params, requestId }) => {
      await deactivateSupplier(app, actorOf(user, requestId), params.supplierId);
      return noContent();
    },
  });
}
