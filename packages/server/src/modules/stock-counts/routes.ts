import { WORKING_STAFF } from '@pharmacy/contracts/roles';
import {
  StockCountResult,
  StockCountSheet,
  StockCountSheetQuery,
  SubmitStockCountRequest,
} from '@pharmacy/contracts';
import { scopeBranch } from '../../http/auth';
import { created, type ApiRouter } from '../../http/route';
import { actorOf } from '../audit/service';
import { countSheet, submitCount } from './service';

export function stockCountRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/stockcount',
    tag: 'Stockcount',
    summary: 'The count sheet of a branch',
    description:
      "Every batch of the branch holding stock (include_empty=true adds empty ones), by medicine name then expiry, with the expected quantity. The caller's branch; organisation-wide roles may pass branch_id. The whole sheet in one response (a branch of 20,000 batches answers in well under a second).",
    roles: 'any',
    query: StockCountSheetQuery,
    responses: {
      200: { description: 'The sheet', schema: StockCountSheet },
      404: { description: 'Unknown branch or category' },
    },
    handler: ({ app, user, query }) =>
      countSheet(app, scopeBranch(user, query.branch_id) ?? user.branchId, query),
  });

  r.route({
    method: 'post',
    path: '/stockcount/submit',
    tag: 'Stockcount',
    summary: 'Submit counted quantities and book the variances',
    description:
      "Lines of {batch_id, counted_qty} for batches of one branch (the caller's by default; branch-bound roles only their own, 403). Records a stock_counts header with who counted and every line, and a count movement per variance, in one transaction; returns the variances. A variance above settings.stock_variance_approval_threshold units needs admin, branch_manager or inventory_manager: others get 403 APPROVAL_REQUIRED and nothing is written. An approval_id of an approved stock_variance approval (POST /approvals, decided by a branch manager or admin) requested by the submitter lifts that 403 once, when it covers the count: the one batch above the threshold is its batch_id, and the variance is in its direction and at most its size (else 403 APPROVAL_MISMATCH, nothing written, the approval stays usable). A variance on a controlled medicine, whatever its size, also needs variance_reason (400 without) and a witness: a second person, pharmacist or admin of the branch, not the counter, signing with their own email and password (403 WITNESS_REQUIRED without, 403 WITNESS_INVALID for wrong credentials or a person who may not witness, 429 after repeated wrong passwords as at sign-in); its count movement enters the controlled-drug register as a discrepancy carrying the reason and the witness. Auditors cannot submit.",
    roles: WORKING_STAFF,
    body: SubmitStockCountRequest,
    responses: {
      201: { description: 'The recorded count with its variances', schema: StockCountResult },
      400: { description: 'Invalid lines, duplicates or batches of another branch' },
      403: {
        description:
          'Role, another branch, APPROVAL_REQUIRED, APPROVAL_MISMATCH, WITNESS_REQUIRED or WITNESS_INVALID',
      },
      429: { description: 'Too many wrong witness passwords' },
      404: { description: 'Unknown batch or branch' },
    },
    handler: async ({ app, user, body, req, requestId }) =>
      created(await submitCount(app, user, actorOf(user, requestId), body, req.ip ?? 'unknown')),
  });
}
