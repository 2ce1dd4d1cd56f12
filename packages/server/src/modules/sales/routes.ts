import { SELLERS } from '@pharmacy/contracts/roles';
import {
  CreateSaleRequest,
  pageOf,
  Sale,
  SaleDetail,
  SaleInvoice,
  SaleListQuery,
  SaleParams,
  SaleReceiptQuery,
  SaleReceiptText,
} from '@pharmacy/contracts';
import { type ApiRouter, created, Reply } from '../../http/route';
import { actorOf } from '../audit/service';
import { saleReceiptText } from './documents';
import { listSales, readSale, saleInvoice } from './read';
import { createSale } from './service';

export function saleRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/sales',
    tag: 'Sales',
    summary: 'List sales, newest first',
    description:
      'Returns { total, page, page_size, items }. A pharmacist sees only their own sales; cashiers and branch managers see only their own branch whatever branch_id says; other roles see all branches or branch_id. Filters: from/to (YYYY-MM-DD, UTC days of sold_at), session_id, customer_id, user_id, invoice_number. page_size default 50, at most 200.',
    roles: 'any',
    query: SaleListQuery,
    responses: { 200: { description: 'A page of sales', schema: pageOf(Sale) } },
    handler: ({ app, user, query }) => listSales(app, user, query),
  });

  r.route({
    method: 'post',
    path: '/sales',
    tag: 'Sales',
    summary: 'Record a sale',
    description: [
      "Roles: admin, branch_manager, pharmacist, cashier. The sale is made in the seller's branch, in currency_code (default: the branch currency; another currency than the base needs an exchange rate in force, else 409 NO_EXCHANGE_RATE, and fills fx_rate_to_base and base_total_amount).",
      'Every seller, whatever the role, sells only inside their own open cash session on this till (409 NO_OPEN_SESSION; 409 SESSION_ON_BREAK during a break; 409 SESSION_ON_OTHER_TILL when it was opened on another till): no money is taken outside a session.',
      'Prices come from the catalogue (base currency, converted at the rate); unit_price overrides it: above max_public_price -> 400 PRICE_ABOVE_MAXIMUM; below the catalogue price, or a line or global discount above settings.discount_approval_threshold_pct, needs a branch_manager/admin seller or an approval_id (stored) -> else 403 APPROVAL_REQUIRED. The approval (one per sale: price_override when a line is below the catalogue, else discount) must cover every such line: its medicine, at most its units over those lines, a price not below its unit_price, line discounts together at most its max_discount (a discount approval without medicine_id: the global discount at most max_discount), in its currency; else 403 APPROVAL_MISMATCH, nothing is written and the approval stays usable.',
      'VAT per line from the tax policy, rounded half up: inclusive prices vat = gross x rate / (100 + rate), exclusive vat = net x rate / 100. global_discount and the coupon discount are allocated across lines in proportion to their amounts (largest remainder: leftover minor units go to the lines with the largest fractions), so VAT stays per line. subtotal_amount is the total without VAT after discounts; subtotal + vat = total.',
      "payment_lines (split tender; methods cash, card, mobile_money, bank_transfer, credit, voucher, insurance) must cover the total (400 PAYMENT_SHORT naming both figures); non-cash lines may not exceed the total (400 OVERPAYMENT); change comes from cash. Without payment_lines, one line of payment_method (default cash) for exactly the total. payment_method is the single method used, or 'split'. A credit line needs a customer allowed credit within the limit (403 CREDIT_NOT_ALLOWED, 409 CREDIT_LIMIT_EXCEEDED) and writes a SALE ledger row.",
      'Prescription-only medicines need, whoever sells, a prescription_id covering them (403 PRESCRIPTION_REQUIRED naming the medicine), or an emergency_supply with its reason and patient by a pharmacist or admin (403 EMERGENCY_SUPPLY_NEEDS_PHARMACIST otherwise), recorded as a same-day prescription listed in the prescription book; controlled medicines always need a pharmacist/admin seller (403 CONTROLLED_NEEDS_PHARMACIST) and a prescription (403 PRESCRIPTION_REQUIRED), never an emergency supply; the prescription is dispensed in the same transaction. Central applies the same rule to the sales tills push.',
      'Stock is taken first-expiry-first-out (409 INSUFFICIENT_STOCK unless settings.negative_stock_policy is allow). A coupon must apply (409 COUPON_NOT_APPLICABLE) and is counted; one that discounts 0.00 is not applied (coupon_id null), not counted and stays usable.',
      'client_mutation_id is optional for API callers (one is generated) and must be sent by tills: the same id with the same body returns the first sale with 200 (never a second sale); with a different body 409 MUTATION_ID_REUSED. A new sale answers 201.',
      'Invoice numbers are BRANCHCODE-DEVICE-ICV (e.g. MAIN-7F3A-000123): per-device ICV from 1 without gaps, shared with credit notes; fiscal_hash is SHA-256 (hex) of the canonical payload including the previous document hash; fiscal_status starts pending.',
    ].join(' '),
    roles: SELLERS,
    body: CreateSaleRequest,
    responses: {
      200: {
        description: 'A replay of an already recorded client_mutation_id: the first sale',
        schema: SaleDetail,
      },
      201: { description: 'The sale with its lines', schema: SaleDetail },
      400: { description: 'Invalid input, payment short, discount or price refused' },
      403: { description: 'Role, approval, prescription or credit refused' },
      404: { description: 'Unknown medicine, customer, coupon or prescription' },
      409: {
        description:
          'No open session, on break, insufficient stock, credit limit, coupon, mutation id reused',
      },
    },
    handler: async ({ app, user, body, requestId }) => {
      const result = await createSale(app, user, actorOf(user, requestId), body);
      return result.replay ? new Reply(200, result.sale) : created(result.sale);
    },
  });

  r.route({
    method: 'get',
    path: '/sales/:saleId',
    tag: 'Sales',
    summary: 'One sale with its lines (medicine, quantity, price, discount, VAT, batches taken)',
    description: "Any signed-in user; branch-bound roles only their own branch's sales (403).",
    roles: 'any',
    params: SaleParams,
    responses: {
      200: { description: 'The sale', schema: SaleDetail },
      403: { description: 'Another branch' },
      404: { description: 'Unknown sale' },
    },
    handler: ({ app, user, params }) => readSale(app, user, params.saleId),
  });

  r.route({
    method: 'get',
    path: '/sales/:saleId/invoice',
    tag: 'Sales',
    summary: 'Invoice identity: number, uuid, ICV, fiscal hash, previous hash, QR payload',
    description:
      "qr_payload is base64 of a TLV (tag byte, length byte, UTF-8 value) like ZATCA's: 1 seller name, 2 VAT number, 3 timestamp, 4 total with VAT, 5 VAT. Branch-bound roles only their own branch (403).",
    roles: 'any',
    params: SaleParams,
    responses: {
      200: { description: 'Invoice identity', schema: SaleInvoice },
      403: { description: 'Another branch' },
      404: { description: 'Unknown sale' },
    },
    handler: ({ app, user, params }) => saleInvoice(app, user, params.saleId),
  });

  r.route({
    method: 'get',
    path: '/sales/:saleId/receipt',
    tag: 'Sales',
    summary: 'The receipt as text: the document the printer prints, for the screen',
    description:
      'The same receipt model the print queue renders (lines with their VAT rate, the VAT summary by rate, each discount once and named, the currency decimals of the currency table), laid out in the columns of the paper; copy=true marks it COPY, as a reprint prints it. Branch-bound roles only their own branch (403).',
    roles: 'any',
    params: SaleParams,
    query: SaleReceiptQuery,
    responses: {
      200: { description: 'The receipt text', schema: SaleReceiptText },
      403: { description: 'Another branch' },
      404: { description: 'Unknown sale' },
    },
    handler: ({ app, user, params, query }) =>
      saleReceiptText(app, user, params.saleId, query.paper, query.copy),
  });
}
