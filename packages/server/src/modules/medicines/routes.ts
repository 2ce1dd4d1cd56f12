import { CATALOGUE_EDITORS, CONTROLLED_REGISTRY_READERS } from '@pharmacy/contracts/roles';
import {
  BarcodeParams,
  BranchStockQuery,
  ControlledRegistryEntry,
  ControlledRegistryQuery,
  CreateMedicineRequest,
  Medicine,
  MedicineDetail,
  MedicineListQuery,
  MedicineParams,
  LedgerMovement,
  MovementListQuery,
  pageOf,
  UpdateMedicineRequest,
} from '@pharmacy/contracts';
import { type AuthUser, scopeBranch } from '../../http/auth';
import { created, noContent, type ApiRouter } from '../../http/route';
import { actorOf } from '../audit/service';
import { controlledRegistry, listMovementsWithBalance } from '../stock/queries';
import {
  createMedicine,
  deactivateMedicine,
  getMedicine,
  getMedicineDetail,
  getMedicineRow,
  updateMedicine,
} from './service';
import { findByBarcode, listMedicines } from './list';

/** The catalogue is owned centrally: admin and inventory managers edit it; everybody signed in reads it. */
const EDITORS = CATALOGUE_EDITORS;

/** Whose stock a medicine shows: a branch-bound caller always their own branch; others the asked or their own. */
export const stockBranch = (user: AuthUser, requested: string | undefined): string =>
  scopeBranch(user, requested) ?? user.branchId;

const BRANCH_NOTE =
  "stock_quantity is the caller's branch stock (organisation-wide roles may pass branch_id; branch-bound roles always get their own branch): the sum over active (not quarantined or recalled), unexpired batches.";

export function medicineRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/medicines',
    tag: 'Medicines',
    summary: 'List or search the catalogue',
    description: `Sorted by \`sort\` (name default, generic_name, category, selling_price, stock_quantity) and \`order\` (asc, desc), ties by name; with \`search\` and no sort the order is relevance (names that start with the text first). Without search, barcode, low_stock or out_of_stock the page is read in one statement that builds its JSON in SQLite, the total comes from a trigger-kept count, and a page is reused while the catalogue and the branch's batches are unchanged (trigger-set versions; at most 60 s, for the signed image URLs); sorting by stock_quantity reads each branch's stock kept per medicine in the writing transaction (medicine_stock) in its index order, never sorting the catalogue; low_stock and out_of_stock are read from the same index, which keeps each medicine's threshold beside its units (their total too, without a search); a search or barcode matching up to 5,000 medicines is sorted whole. Search-as-you-type: every word of \`search\` must begin a word of the name, generic name or barcode (FTS5 prefix search); names starting with the text come first, then by name. \`barcode\` is an exact, GTIN-aware lookup (a GTIN-14 with leading zeros matches the EAN-13). Filters: category (slug), is_active (true default, false, all), requires_prescription, is_controlled, low_stock (at or below threshold), out_of_stock. ${BRANCH_NOTE}`,
    roles: 'any',
    query: MedicineListQuery,
    responses: { 200: { description: 'A page of medicines', schema: pageOf(Medicine) } },
    handler: ({ app, user, query }) => {
      const { branch_id, ...filter } = query;
      return listMedicines(app, stockBranch(user, branch_id), filter);
    },
  });

  r.route({
    method: 'post',
    path: '/medicines',
    tag: 'Medicines',
    summary: 'Add a medicine to the catalogue',
    description:
      'Prices are numbers with at most the base currency’s decimals, stored as minor units; selling_price must not exceed max_public_price when one is set (400). category must be a known slug (404), vat_category a key of the tax policy’s vat_rates (400). The barcode is unique among active medicines (409 DUPLICATE_BARCODE). Roles: admin, inventory_manager (the catalogue is central data).',
    roles: EDITORS,
    body: CreateMedicineRequest,
    responses: {
      201: { description: 'The medicine', schema: Medicine },
      404: { description: 'Unknown category' },
      409: { description: 'Barcode used by another active medicine' },
    },
    handler: async ({ app, user, body, requestId }) => {
      const row = await createMedicine(app, actorOf(user, requestId), body);
      return created(await getMedicine(app, row.id, user.branchId));
    },
  });

  r.route({
    method: 'get',
    path: '/medicines/barcode/:code',
    tag: 'Medicines',
    summary: 'Find a medicine by its exact barcode (GTIN-aware)',
    description: `For scanners: 8-14 digit GTINs match whatever leading zeros were stored (GTIN-14 "0…" finds the EAN-13). The active medicine wins over deactivated ones. ${BRANCH_NOTE}`,
    roles: 'any',
    params: BarcodeParams,
    query: BranchStockQuery,
    responses: {
      200: { description: 'The medicine', schema: Medicine },
      404: { description: 'No medicine has this barcode' },
    },
    handler: ({ app, user, params, query }) =>
      findByBarcode(app, params.code, stockBranch(user, query.branch_id)),
  });

  r.route({
    method: 'get',
    path: '/medicines/controlled/registry',
    tag: 'Medicines',
    summary: 'Controlled-drugs registry: movements with a running balance per medicine and branch',
    description:
      'Every controlled medicine with movements, per branch, paged by medicine and branch: opening balance before `from`, each movement with balance_after, the closing balance, the quantity on hand in batches and whether they agree. Branch-bound roles see their own branch only. Cashiers are refused (403): the book is for pharmacists, managers and auditors.',
    roles: CONTROLLED_REGISTRY_READERS,
    query: ControlledRegistryQuery,
    responses: {
      200: { description: 'A page of registry entries', schema: pageOf(ControlledRegistryEntry) },
    },
    handler: ({ app, user, query }) =>
      controlledRegistry(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'get',
    path: '/medicines/:medicineId',
    tag: 'Medicines',
    summary: 'Read a medicine with its batches in the branch',
    description: `${BRANCH_NOTE} batches lists the branch's batches that hold stock, FEFO order, with sellable flags.`,
    roles: 'any',
    params: MedicineParams,
    query: BranchStockQuery,
    responses: {
      200: { description: 'The medicine', schema: MedicineDetail },
      404: { description: 'Unknown medicine' },
    },
    handler: ({ app, user, params, query }) =>
      getMedicineDetail(app, params.medicineId, stockBranch(user, query.branch_id)),
  });

  r.route({
    method: 'put',
    path: '/medicines/:medicineId',
    tag: 'Medicines',
    summary: 'Update a medicine',
    description:
      'Only the fields given change (unknown fields: 400); the same rules as creation apply to the merged record. Stock is not a field: it moves through purchases, sales, transfers, write-offs and counts. is_active true reactivates (barcode must then be free).',
    roles: EDITORS,
    params: MedicineParams,
    body: UpdateMedicineRequest,
    responses: {
      200: { description: 'The medicine', schema: Medicine },
      404: { description: 'Unknown medicine or category' },
      409: { description: 'Barcode used by another active medicine' },
    },
    handler: async ({ app, user, params, body, requestId }) => {
      await updateMedicine(app, actorOf(user, requestId), params.medicineId, body);
      return getMedicine(app, params.medicineId, user.branchId);
    },
  });

  r.route({
    method: 'delete',
    path: '/medicines/:medicineId',
    tag: 'Medicines',
    summary: 'Deactivate a medicine',
    description: 'Deactivation, not removal: batches, ledger and sales history stay; 204.',
    roles: EDITORS,
    params: MedicineParams,
    responses: { 204: { description: 'Deactivated' }, 404: { description: 'Unknown medicine' } },
    handler: async ({ app, user, params, requestId }) => {
      await deactivateMedicine(app, actorOf(user, requestId), params.medicineId);
      return noContent();
    },
  });

  r.route({
    method: 'get',
    path: '/medicines/:medicineId/movements',
    tag: 'Medicines',
    summary: 'Stock movements of a medicine, newest first',
    description:
      'The append-only ledger (purchase, sale, return, transfer_out, transfer_in, adjustment, write_off, count; signed quantities) with balance_after, the running balance after each movement in the scope asked (the branch, the batch with batch_id, all branches for organisation-wide roles without branch_id; null with a type filter, which hides movements between rows). Branch-bound roles see their own branch; others all branches or branch_id. Filters: type, batch_id, from/to (UTC days).',
    roles: 'any',
    params: MedicineParams,
    query: MovementListQuery.omit({ medicine_id: true }),
    responses: {
      200: { description: 'A page of movements', schema: pageOf(LedgerMovement) },
      404: { description: 'Unknown medicine' },
    },
    handler: async ({ app, user, params, query }) => {
      await getMedicineRow(app.db, params.medicineId);
      return listMovementsWithBalance(app.db, {
        ...query,
        medicine_id: params.medicineId,
        branch_id: scopeBranch(user, query.branch_id),
      });
    },
  });
}
