import { BRANCH_MANAGERS, STOCK_MANAGERS, STOCK_READERS } from '@pharmacy/contracts/roles';
import {
  Batch,
  BatchParams,
  CreateSupplierInvoiceRequest,
  CreateSupplierPaymentRequest,
  QuarantineRequest,
  ReorderSuggestionList,
  ReorderSuggestionQuery,
  SupplierInvoice,
  SupplierInvoiceList,
  SupplierInvoiceListQuery,
  SupplierInvoiceParams,
  SupplierInvoicePayments,
  SupplierPaymentResult,
} from '@pharmacy/contracts';
import { scopeBranch } from '../../http/auth';
import { type ApiRouter, created } from '../../http/route';
import { actorOf } from '../audit/service';
import { createInvoice, INVOICE_LIST_LIMIT, invoicePayments, listInvoices, payInvoice } from './invoices';
import { REORDER_LIMIT, reorderSuggestions, setRegulatorStatus } from './stock';

const TAG = 'SupplierFinance';
const WRITERS = STOCK_MANAGERS;
const READERS = STOCK_READERS;
const SCOPE_NOTE =
  'Branch-bound roles (branch_manager) see only their own branch whatever they ask; organisation-wide roles see all branches or branch_id.';

export function supplierFinanceRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/supplier-finance/invoices',
    tag: TAG,
    summary: `Supplier invoices, newest first, at most ${INVOICE_LIST_LIMIT}`,
    description: `Optional filters supplier_id, status (unpaid, partial, paid) and branch_id. ${SCOPE_NOTE} Roles: admin, branch_manager, inventory_manager, auditor.`,
    roles: READERS,
    query: SupplierInvoiceListQuery,
    responses: { 200: { description: 'The invoices', schema: SupplierInvoiceList } },
    handler: ({ app, user, query }) =>
      listInvoices(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'post',
    path: '/supplier-finance/invoices',
    tag: TAG,
    summary: 'Record a supplier invoice (unpaid, paid_amount 0)',
    description:
      "supplier_id must exist (404; an inactive supplier is still owed money, so it is accepted). total_amount is positive with at most the base currency's decimals. branch_id defaults to the caller's branch; a branch_manager records only for their own (403). A non-empty invoice_no already recorded for the same supplier gives 409 DUPLICATE_INVOICE, so an invoice is never entered (and paid) twice. Audited; replicated to the branch. Roles: admin, branch_manager, inventory_manager.",
    roles: WRITERS,
    body: CreateSupplierInvoiceRequest,
    responses: {
      201: { description: 'The invoice', schema: SupplierInvoice },
      403: { description: 'Role not allowed or another branch' },
      404: { description: 'Unknown supplier or branch' },
      409: { description: 'Invoice number already recorded for this supplier' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createInvoice(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'get',
    path: '/supplier-finance/invoices/:invoiceId/payments',
    tag: TAG,
    summary: 'A supplier invoice with its payments, oldest first',
    description:
      "The invoice as listed (total, paid, balance, status, due date) and every payment made on it (amount, method, reference, who paid, when). A branch_manager asking for another branch's invoice gets 403. Roles: admin, branch_manager, inventory_manager, auditor.",
    roles: READERS,
    params: SupplierInvoiceParams,
    responses: {
      200: { description: 'The invoice and its payments', schema: SupplierInvoicePayments },
      403: { description: 'Role not allowed or another branch' },
      404: { description: 'Unknown invoice' },
    },
    handler: ({ app, user, params }) => invoicePayments(app, user, params.invoiceId),
  });

  r.route({
    method: 'post',
    path: '/supplier-finance/invoices/:invoiceId/payments',
    tag: TAG,
    summary: 'Pay (part of) a supplier invoice',
    description:
      'amount is positive, at most the balance (total_amount - paid_amount): a larger amount, including any amount on a paid invoice, gives 400 OVERPAYMENT naming both figures. method defaults to cash (a lowercase word such as bank_transfer); reference is optional; the caller is recorded as payer. unpaid -> partial -> paid. The payment row and the invoice change are written, audited and replicated in one transaction. Roles: admin, branch_manager (own branch, else 403).',
    roles: BRANCH_MANAGERS,
    params: SupplierInvoiceParams,
    body: CreateSupplierPaymentRequest,
    responses: {
      201: { description: 'The payment and the invoice after it', schema: SupplierPaymentResult },
      400: { description: 'Invalid body or more than the balance' },
      403: { description: 'Role not allowed or another branch' },
      404: { description: 'Unknown invoice' },
    },
    handler: async ({ app, user, params, body, requestId }) =>
      created(await payInvoice(app, user, actorOf(user, requestId), params.invoiceId, body)),
  });

  r.route({
    method: 'get',
    path: '/supplier-finance/reorder-suggestions',
    tag: TAG,
    summary: `Medicines to reorder, lowest stock first, at most ${REORDER_LIMIT}`,
    description: `Active medicines whose stock is at or below low_stock_threshold, with suggested_qty = 2 x threshold - stock and the lead_time_days of the supplier of the medicine's most recent batch (null when it was never received). Stock is the branch's sellable ledger stock (active, unexpired batches) of the caller's branch, or branch_id for organisation-wide roles. For demand-based quantities see GET /purchase-orders/suggested. Roles: admin, branch_manager, inventory_manager, auditor.`,
    roles: READERS,
    query: ReorderSuggestionQuery,
    responses: {
      200: { description: 'Suggestions', schema: ReorderSuggestionList },
      404: { description: 'Unknown branch' },
    },
    handler: ({ app, user, query }) =>
      reorderSuggestions(app, scopeBranch(user, query.branch_id) ?? user.branchId),
  });

  r.route({
    method: 'post',
    path: '/supplier-finance/batches/:batchId/quarantine',
    tag: TAG,
    summary: "Set a batch's regulator status (quarantine, recall or release)",
    description:
      "status is one of quarantined, active, recalled (anything else: 400); an optional reason is kept in the audit row. Quarantined and recalled batches are no longer sold or counted as sellable stock; quantities do not move. Audited (batch.regulator_status) and replicated. A branch_manager acting on another branch's batch gets 403 OTHER_BRANCH. Roles: admin, branch_manager, inventory_manager.",
    roles: WRITERS,
    params: BatchParams,
    body: QuarantineRequest,
    responses: {
      200: { description: 'The batch after the change', schema: Batch },
      403: { description: 'Role not allowed or another branch' },
      404: { description: 'Unknown batch' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      setRegulatorStatus(app, user, actorOf(user, requestId), params.batchId, body),
  });
}
