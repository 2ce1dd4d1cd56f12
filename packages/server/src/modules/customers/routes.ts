import {
  CreateCustomerRequest,
  Customer,
  CustomerDuplicatesQuery,
  CustomerLedgerQuery,
  CustomerLedgerRow,
  CustomerListQuery,
  CustomerParams,
  CustomerPaymentRequest,
  CustomerPaymentResult,
  pageOf,
  UpdateCustomerRequest,
} from '@pharmacy/contracts';
import { z } from 'zod';
import { type ApiRouter, created } from '../../http/route';
import { actorOf } from '../audit/service';
import { CUSTOMER_COUNTER } from '@pharmacy/contracts/roles';
import {
  createCustomer,
  customerLedger,
  getCustomer,
  listCustomers,
  possibleDuplicates,
  recordCustomerPayment,
  updateCustomer,
} from './service';

const NOTE =
  'Customers are organisation-wide (any branch sells to them); money in the base currency. credit_limit and current_balance are decimal strings.';

export function customerRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/customers',
    tag: 'Customers',
    summary: 'List customers, sorted by name',
    description: `Any signed-in user. page default 1, page_size default 20 (at most 200); search matches part of the name or phone (case-insensitive) or the exact national ID. ${NOTE}`,
    roles: 'any',
    query: CustomerListQuery,
    responses: { 200: { description: 'A page of customers', schema: pageOf(Customer) } },
    handler: ({ app, query }) => listCustomers(app, query),
  });

  r.route({
    method: 'post',
    path: '/customers',
    tag: 'Customers',
    summary: 'Create a customer',
    description: `Roles: admin, branch_manager, pharmacist, cashier. name required; credit_limit >= 0 (default 0), is_credit_allowed default false. Granting credit (credit_limit above 0 or is_credit_allowed true) needs admin or branch_manager: 403 CREDIT_TERMS_NEED_MANAGER. ${NOTE}`,
    roles: CUSTOMER_COUNTER,
    body: CreateCustomerRequest,
    responses: {
      201: { description: 'The customer', schema: Customer },
      400: { description: 'Invalid body' },
      403: { description: 'Role not allowed or credit terms need a manager' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createCustomer(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'get',
    path: '/customers/possible-duplicates',
    tag: 'Customers',
    summary: 'Customers a new or edited one may duplicate',
    description:
      'Any signed-in user. Customers with the same phone number (digits only: "0712 345-678" matches "0712345678") or the same name (case and surrounding spaces aside), at most 10, sorted by name; exclude_id leaves out the customer being edited. A warning for the counter before it creates or renames someone: creating a customer is never refused for it (two patients may share a name, a family a phone). Empty name and phone give an empty list.',
    roles: 'any',
    query: CustomerDuplicatesQuery,
    responses: { 200: { description: 'Possible duplicates', schema: z.array(Customer) } },
    handler: ({ app, query }) => possibleDuplicates(app, query),
  });

  r.route({
    method: 'get',
    path: '/customers/:customerId',
    tag: 'Customers',
    summary: 'One customer',
    description: `Any signed-in user. ${NOTE}`,
    roles: 'any',
    params: CustomerParams,
    responses: {
      200: { description: 'The customer', schema: Customer },
      404: { description: 'Unknown customer' },
    },
    handler: ({ app, params }) => getCustomer(app, params.customerId),
  });

  r.route({
    method: 'put',
    path: '/customers/:customerId',
    tag: 'Customers',
    summary: 'Update a customer (only the fields given)',
    description: `Roles: admin, branch_manager, pharmacist, cashier. An empty body gives 400 "No fields to update". Changing credit_limit or is_credit_allowed needs admin or branch_manager (403 CREDIT_TERMS_NEED_MANAGER); a limit below the current balance is allowed and only blocks further credit. ${NOTE}`,
    roles: CUSTOMER_COUNTER,
    params: CustomerParams,
    body: UpdateCustomerRequest,
    responses: {
      200: { description: 'The customer', schema: Customer },
      400: { description: 'Invalid or empty body' },
      403: { description: 'Role not allowed or credit terms need a manager' },
      404: { description: 'Unknown customer' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      updateCustomer(app, user, actorOf(user, requestId), params.customerId, body),
  });

  r.route({
    method: 'get',
    path: '/customers/:customerId/ledger',
    tag: 'Customers',
    summary: "A customer's account ledger, newest first, 20 per page",
    description:
      'Any signed-in user. transaction_type SALE (a credit sale, raises the balance), PAYMENT and REFUND (lower it); amount is always positive, balance_after is the balance after the row. created_by_name comes from the user record.',
    roles: 'any',
    params: CustomerParams,
    query: CustomerLedgerQuery,
    responses: {
      200: { description: 'A page of ledger rows', schema: pageOf(CustomerLedgerRow) },
      404: { description: 'Unknown customer' },
    },
    handler: ({ app, params, query }) => customerLedger(app, params.customerId, query),
  });

  r.route({
    method: 'post',
    path: '/customers/:customerId/payments',
    tag: 'Customers',
    summary: 'Record a payment on account',
    description:
      "Roles: admin, branch_manager, pharmacist, cashier. amount must be above 0 and at most current_balance, else 400 INVALID_PAYMENT_AMOUNT naming both figures. method is the tender (cash, card, mobile_money, bank_transfer; default cash). The payment is money taken at the till: it belongs to the caller's open cash session on this till (409 NO_OPEN_SESSION, SESSION_ON_BREAK, SESSION_ON_OTHER_TILL, as a sale) and appears in that session's X and Z (account_payments, by tender); cash adds to its expected cash. In one transaction: the balance goes down, a PAYMENT ledger row with balance_after, the session and the tender is written, and two sync changes (customer, customer_ledger) are recorded.",
    roles: CUSTOMER_COUNTER,
    params: CustomerParams,
    body: CustomerPaymentRequest,
    responses: {
      200: { description: 'The payment result', schema: CustomerPaymentResult },
      400: { description: 'Invalid amount' },
      404: { description: 'Unknown customer' },
      409: { description: 'No open cash session of the caller on this till' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      recordCustomerPayment(app, user, actorOf(user, requestId), params.customerId, body),
  });
}
