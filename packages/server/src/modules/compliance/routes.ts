import { BOOK_READERS, FISCAL_READERS } from '@pharmacy/contracts/roles';
import {
  BookWindowQuery,
  ClassifiedBookEntry,
  FiscalPreview,
  FiscalPreviewParams,
  PrescriptionBookQuery,
  PrescriptionBookRow,
  Problem,
  pageOf,
} from '@pharmacy/contracts';
import { assertBranchAccess, scopeBranch } from '../../http/auth';
import { Invalid } from '../../lib/errors';
import { type ApiRouter, Reply } from '../../http/route';
import { BOOK_COLUMNS, CSV_MAX_ROWS, classifiedDrugsBook, fiscalPreview, prescriptionBook } from './service';
import { toCsv } from '../../lib/csv';

const problem = (description: string) => ({ description, schema: Problem });
const BOOK_ROLES = BOOK_READERS;

const checkWindow = (q: { from?: string; to?: string }) => {
  if (q.from && q.to && q.from > q.to)
    throw new Invalid('from must not be after to.', [{ path: 'from', message: 'must not be after to' }]);
};

export function complianceRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/compliance/prescription-book',
    tag: 'Compliance',
    summary: 'The prescription book',
    description: `Pharmacist, branch manager or auditor (and admin); branch-bound roles get their own branch only. One row per dispensed line, whether dispensed here without payment (source dispense) or through a sale with a prescription (source sale, with sale_id), oldest first: date, prescription, patient, prescriber, medicine, quantity, fill number, pharmacist. The window is whole UTC days (to inclusive). format=csv answers text/csv with every row of the window (up to ${CSV_MAX_ROWS}; 400 beyond: narrow the window), cells starting with = + - @ prefixed with a quote.`,
    roles: BOOK_ROLES,
    query: PrescriptionBookQuery,
    responses: {
      200: {
        description: 'A page of the book (or CSV with format=csv)',
        schema: pageOf(PrescriptionBookRow),
      },
      400: problem('Invalid filter or window'),
    },
    handler: async ({ app, user, query, res }) => {
      checkWindow(query);
      const f = { ...query, branch_id: scopeBranch(user, query.branch_id) };
      if (query.format !== 'csv') return prescriptionBook(app, f);
      const book = await prescriptionBook(app, { ...f, page: 1, page_size: CSV_MAX_ROWS + 1 }, false);
      if (book.total > CSV_MAX_ROWS)
        throw new Invalid(`The window holds ${book.total} rows; a CSV export is at most ${CSV_MAX_ROWS}.`, [
          { path: 'from', message: 'narrow the window' },
        ]);
      res
        .status(200)
        .type('text/csv; charset=utf-8')
        .set('Content-Disposition', 'attachment; filename="prescription-book.csv"')
        .send(toCsv(book.items, BOOK_COLUMNS));
      return new Reply(200);
    },
  });

  r.route({
    method: 'get',
    path: '/compliance/classified-drugs-book',
    tag: 'Compliance',
    summary: 'The controlled (classified) drugs book',
    description:
      'Pharmacist, branch manager or auditor (and admin); branch-bound roles get their own branch only. Per controlled medicine and branch (paged over those pairs, by medicine then branch name): the opening balance (all movements before from), every stock movement in and out within the window in ledger order (time, then id) with the balance after it, the closing balance, the units on hand in the branch batches and whether the ledger equals them. Dispensing movements (reference dispense, or sale with a prescription) carry the prescription, patient, prescriber and collector. Derived from the stock ledger, the same data as GET /medicines/controlled/registry. The window is whole UTC days (to inclusive).',
    roles: BOOK_ROLES,
    query: BookWindowQuery,
    responses: {
      200: { description: 'A page of the book', schema: pageOf(ClassifiedBookEntry) },
      400: problem('Invalid filter or window'),
    },
    handler: ({ app, user, query }) => {
      checkWindow(query);
      return classifiedDrugsBook(app, { ...query, branch_id: scopeBranch(user, query.branch_id) });
    },
  });

  r.route({
    method: 'get',
    path: '/compliance/fiscal-preview/:saleId',
    tag: 'Compliance',
    summary: 'Fiscal-authority payload of a sale',
    description:
      "Cashier, pharmacist, branch manager or auditor (and admin); branch-bound roles only for sales of their own branch (403). Shows the sale's invoice identity (invoice number, UUID, device counter ICV), the fiscal status, the chained hash and the invoice XML exactly as stored by the selling module; nothing is recomputed or sent. Inventory managers are refused: the payload carries prices and customers.",
    roles: FISCAL_READERS,
    params: FiscalPreviewParams,
    responses: {
      200: { description: 'The fiscal payload', schema: FiscalPreview },
      400: problem('saleId is not a UUID'),
      403: problem('Role not allowed or another branch'),
      404: problem('Unknown sale'),
    },
    handler: async ({ app, user, params }) => {
      const preview = await fiscalPreview(app, params.saleId);
      assertBranchAccess(user, preview.branch_id, 'sale');
      return preview;
    },
  });
}
