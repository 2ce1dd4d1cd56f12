import { SELLERS } from '@pharmacy/contracts/roles';
import {
  CashSession,
  CloseSessionRequest,
  OpenSessionRequest,
  pageOf,
  SessionHistoryQuery,
  SessionParams,
  SessionSales,
  TenderDeclaration,
  TenderHistoryQuery,
  TenderRequest,
  ZReport,
} from '@pharmacy/contracts';
import { type ApiRouter, created } from '../../http/route';
import { actorOf } from '../audit/service';
import { closeSession } from './close';
import { sessionSales, zReport } from './reports';
import { currentSession, openSession, sessionHistory } from './service';
import { declareTender, tenderHistory } from './tenders';
import { endBreak, startBreak } from './breaks';

const NOTE =
  'Session status values: open, on_break, closed. Figures are in the base currency. payment_breakdown is a JSON string {method: "amount"} (cash net of change). expected_cash = opening_float + cash taken - change given - cash refunds.';

export function sessionRoutes(r: ApiRouter): void {
  r.route({
    method: 'post',
    path: '/sessions/open',
    tag: 'Sessions',
    summary: 'Open a cash session with an opening float',
    description: `Roles: admin, branch_manager, pharmacist, cashier. One session not closed per user (409 SESSION_ALREADY_OPEN). The session belongs to the caller's branch and this till's device. ${NOTE}`,
    roles: SELLERS,
    body: OpenSessionRequest,
    responses: {
      201: { description: 'The open session', schema: CashSession },
      400: { description: 'Invalid float' },
      409: { description: 'A session is already open' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await openSession(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'get',
    path: '/sessions/current',
    tag: 'Sessions',
    summary: "The caller's open (or on-break) session",
    description: `Any signed-in user. 404 NOT_FOUND when the caller has no session that is not closed (never 200 with null). ${NOTE}`,
    roles: 'any',
    responses: {
      200: { description: 'The session', schema: CashSession },
      404: { description: 'No open session' },
    },
    handler: ({ app, user }) => currentSession(app, user),
  });

  r.route({
    method: 'get',
    path: '/sessions/history',
    tag: 'Sessions',
    summary: 'Closed sessions, newest close first',
    description:
      'Any signed-in user. Cashiers and pharmacists see only their own sessions; branch managers their branch; organisation-wide roles all branches or branch_id (and user_id). from/to filter the close day (YYYY-MM-DD, UTC). Paged { items, total, page, page_size }.',
    roles: 'any',
    query: SessionHistoryQuery,
    responses: { 200: { description: 'A page of closed sessions', schema: pageOf(CashSession) } },
    handler: ({ app, user, query }) => sessionHistory(app, user, query),
  });

  for (const [path, summary, fn] of [
    ['/sessions/break/start', 'Start a break (no sale during a break: 409 SESSION_ON_BREAK)', startBreak],
    ['/sessions/break/end', 'End the break; its minutes add to break_minutes', endBreak],
  ] as const) {
    r.route({
      method: 'post',
      path,
      tag: 'Sessions',
      summary,
      description: `Roles: admin, branch_manager, pharmacist, cashier. Acts on the caller's session: 409 NO_OPEN_SESSION without one; starting a break while on one gives 409 SESSION_ON_BREAK, ending one when not on a break 409 NOT_ON_BREAK. Break minutes are rounded to the nearest minute. ${NOTE}`,
      roles: SELLERS,
      responses: {
        200: { description: 'The session', schema: CashSession },
        409: { description: 'No open session or wrong break state' },
      },
      handler: ({ app, user, requestId }) => fn(app, user, actorOf(user, requestId)),
    });
  }

  r.route({
    method: 'post',
    path: '/sessions/close',
    tag: 'Sessions',
    summary: "Close the caller's session with the counted cash",
    description: `Roles: admin, branch_manager, pharmacist, cashier. Ends a running break, freezes expected_cash, counted_cash and variance (counted - expected), and assigns the next Z number of the branch. The count is one amount per currency the drawer holds (counted_by_currency): the base currency, the branch's drawer currencies and any other currency the session took in cash; counted_cash alone is enough when that is the base currency only (400 COUNT_EACH_CURRENCY otherwise). Each currency's count converts to the base currency as its expected base amount plus its variance at the session's rate for it (a drawer currency the session took no cash in: at the rate in force at the close; 409 NO_EXCHANGE_RATE when none is filed and the count is not 0); counted_cash is their sum. 409 NO_OPEN_SESSION without a session. ${NOTE}`,
    roles: SELLERS,
    body: CloseSessionRequest,
    responses: {
      200: { description: 'The closed session', schema: CashSession },
      400: { description: 'Invalid amount, or a currency the drawer holds is not counted' },
      409: { description: 'No open session, or no exchange rate to value a counted currency' },
    },
    handler: ({ app, user, body, requestId }) => closeSession(app, user, actorOf(user, requestId), body),
  });

  r.route({
    method: 'post',
    path: '/sessions/tender',
    tag: 'Sessions',
    summary: 'Declare counted cash (by amount or by denomination)',
    description:
      "Roles: admin, branch_manager, pharmacist, cashier. Needs the caller's open session (409 NO_OPEN_SESSION). Give amount, or denominations [{value, count}] (amount = sum of value x count); when both are given they must agree (400). Declarations are kept as history; closing still takes its own counted_cash.",
    roles: SELLERS,
    body: TenderRequest,
    responses: {
      201: { description: 'The declaration', schema: TenderDeclaration },
      400: { description: 'Invalid amount or denominations' },
      409: { description: 'No open session' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await declareTender(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'get',
    path: '/sessions/tender/history',
    tag: 'Sessions',
    summary: "The caller's tender declarations, newest first",
    description: 'Any signed-in user; only their own declarations, optionally of one session_id. Paged.',
    roles: 'any',
    query: TenderHistoryQuery,
    responses: { 200: { description: 'A page of declarations', schema: pageOf(TenderDeclaration) } },
    handler: ({ app, user, query }) => tenderHistory(app, user, query),
  });

  r.route({
    method: 'get',
    path: '/sessions/:sessionId/sales',
    tag: 'Sessions',
    summary: 'The sales of a session, newest first, with the session',
    description:
      "Any signed-in user. Unknown session: 404 (never an empty list). Branch-bound roles only their own branch's sessions (403); a cashier only their own sessions (403 NOT_YOUR_SESSION).",
    roles: 'any',
    params: SessionParams,
    responses: {
      200: { description: '{ items, session }', schema: SessionSales },
      403: { description: 'Another branch or another cashier' },
      404: { description: 'Unknown session' },
    },
    handler: ({ app, user, params }) => sessionSales(app, user, params.sessionId),
  });

  r.route({
    method: 'get',
    path: '/sessions/:sessionId/z-report',
    tag: 'Sessions',
    summary: 'Z-report of a session (X-report while it is open)',
    description:
      'Any signed-in user with access to the session (as for its sales). Sequential z_number per branch and device (device_id: the till the session was opened on) assigned at close (null and is_final false while open). Counts and totals by payment method, VAT by rate and vat_total net of the credit notes refunded in the session (gross_vat before them), discounts, returns refunded in the session, payments on account taken in it (account_payments, by tender), tenders_by_currency (per currency, rate and tender: taken minus change and refunds, with the base equivalent at the rate used), cash_by_currency (expected cash per currency; the base equivalents add up to expected_cash), opening float, expected (float + cash kept from sales + cash paid on account - cash refunds) versus counted cash, variance; base currency. docs/FIGURES.md says which record each figure comes from.',
    roles: 'any',
    params: SessionParams,
    responses: {
      200: { description: 'The report', schema: ZReport },
      403: { description: 'Another branch or another cashier' },
      404: { description: 'Unknown session' },
    },
    handler: ({ app, user, params }) => zReport(app, user, params.sessionId),
  });
}
