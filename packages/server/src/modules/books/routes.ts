import { OVERSEERS } from '@pharmacy/contracts/roles';
import {
  BooksComparison,
  BooksDigestRequest,
  BooksQuery,
  BooksReport,
  BooksWarnings,
} from '@pharmacy/contracts';
import type { z } from 'zod';
import { scopeBranch } from '../../http/auth';
import type { ApiRouter } from '../../http/route';
import { assertAppVersion, assertCentral, resolveSyncDevice } from '../sync/devices';
import { deviceRoute } from '../sync/routes';
import { afterEachSyncCycle, tillReplicator } from '../sync/runtime';
import { booksReport, booksWarnings, checkTillBooks, reportBooks } from './service';

const KINDS =
  'sales, returns, customer payments, supplier payments and fiscal documents (invoices and credit notes, with their fiscal hash): per kind the count and sum (minor units of the base currency) on each side, and by number the records missing at head office, missing at the till, or held differently';

export function booksRoutes(r: ApiRouter): void {
  const context = r.app;
  // A connected till sends its figures after every sync cycle in which they changed.
  afterEachSyncCycle(reportBooks);
  r.route({
    method: 'get',
    path: '/books',
    tag: 'Books',
    summary: "Compare a branch's day: the till's books and head office's",
    description: `Admin, branch manager (own branch only) and auditor. Compares ${KINDS}. On a connected till: the till computes its own figures of the day (the branch's local day; default today), sends them to head office, which computes its own with the same queries and answers the comparison (also kept as this till's latest check); offline, unavailable says so. On central: every active till of the branch (every branch when an organisation-wide user names none) with its latest reported comparison of the day (reported false when it has not reported the day; tills report after each sync cycle when their figures changed). On a till that does not replicate, unavailable says so.`,
    roles: OVERSEERS,
    query: BooksQuery,
    responses: {
      200: { description: 'The comparison', schema: BooksReport },
    },
    handler: ({ app, user, query }) =>
      booksReport(
        app,
        tillReplicator(app)?.opts.client ?? null,
        scopeBranch(user, query.branch_id),
        query.date,
      ),
  });

  r.route({
    method: 'get',
    path: '/books/warnings',
    tag: 'Books',
    summary: 'Branches whose books differ from a till',
    description:
      "Admin, branch manager (own branch only) and auditor. On central: each till whose latest comparison of a day in the last week differed from head office's books (the dashboard's warning). Empty on a till.",
    roles: OVERSEERS,
    responses: { 200: { description: 'Differing books', schema: BooksWarnings } },
    handler: ({ app, user }) => booksWarnings(app, user),
  });

  deviceRoute(r, () => context, {
    method: 'post',
    path: '/sync/books',
    roles: [],
    summary: "A till's books of a day, compared with head office's",
    description: `A till sends its figures of one local day of its branch (the same queries as GET /books): ${KINDS}. Central computes its own, keeps the comparison as the till's latest check of that day and answers it. 403 OTHER_BRANCH for another branch's day.`,
    body: BooksDigestRequest,
    responses: {
      200: { description: 'The comparison', schema: BooksComparison },
      403: { description: 'Another branch' },
      404: { description: 'Unknown device' },
    },
    handler: async ({ app, caller, input, req }) => {
      const body = input as z.output<typeof BooksDigestRequest>;
      const device = await resolveSyncDevice(app, caller, body.device_id);
      assertAppVersion(req);
      assertCentral(app);
      return checkTillBooks(app, device, body.book);
    },
  });
}
