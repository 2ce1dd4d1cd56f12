import type { z } from 'zod';
import type { Call, Page, Query } from './api-call';
import type { Coupon, CreateCouponRequest, UpdateCouponRequest } from './coupons';
import type {
  CashSession,
  ClassifiedBookEntry,
  CloseSessionRequest,
  CouponValidation,
  CreateCustomerRequest,
  CreatePrescriptionRequest,
  CreateReturnRequest,
  CreateSaleRequest,
  CreateWillCallRequest,
  Customer,
  CustomerLedgerRow,
  CustomerPaymentRequest,
  CustomerPaymentResult,
  DispenseRequest,
  DispenseResult,
  GenericSearchResult,
  OpenSessionRequest,
  ParkCartRequest,
  ParkedCart,
  PickupRequest,
  PrescriptionDetail,
  PrescriptionSummary,
  ReturnLookup,
  ReturnWillCallRequest,
  Sale,
  SaleDetail,
  SaleReceiptText,
  SaleReturn,
  SessionSales,
  TenderDeclaration,
  TenderRequest,
  UpdateCustomerRequest,
  WillCall,
  ZReport,
} from './index';

/**
 * The calls of the counter (cash sessions, sales, returns, parked carts, coupons, customers and their accounts,
 * prescriptions, dispensing and will-call, the classified drugs book), spread into the typed client by
 * createApiClient. Types only.
 */
export function counterCalls(call: Call) {
  return {
    sessions: {
      current: (): Promise<CashSession> => call('GET', '/sessions/current'),
      history: (query: Query<'GET', '/sessions/history'> = {}): Promise<Page<CashSession>> =>
        call('GET', '/sessions/history', { query }),
      open: (body: z.input<typeof OpenSessionRequest>): Promise<CashSession> =>
        call('POST', '/sessions/open', { body }),
      close: (body: z.input<typeof CloseSessionRequest>): Promise<CashSession> =>
        call('POST', '/sessions/close', { body }),
      startBreak: (): Promise<CashSession> => call('POST', '/sessions/break/start'),
      endBreak: (): Promise<CashSession> => call('POST', '/sessions/break/end'),
      tender: (body: z.input<typeof TenderRequest>): Promise<z.infer<typeof TenderDeclaration>> =>
        call('POST', '/sessions/tender', { body }),
      sales: (sessionId: string): Promise<z.infer<typeof SessionSales>> =>
        call('GET', '/sessions/{sessionId}/sales', { params: { sessionId } }),
      zReport: (sessionId: string): Promise<ZReport> =>
        call('GET', '/sessions/{sessionId}/z-report', { params: { sessionId } }),
    },
    sales: {
      list: (query: Query<'GET', '/sales'> = {}): Promise<Page<Sale>> => call('GET', '/sales', { query }),
      get: (saleId: string): Promise<SaleDetail> => call('GET', '/sales/{saleId}', { params: { saleId } }),
      receipt: (
        saleId: string,
        query: Query<'GET', '/sales/{saleId}/receipt'> = {},
      ): Promise<SaleReceiptText> => call('GET', '/sales/{saleId}/receipt', { params: { saleId }, query }),
      create: (body: z.input<typeof CreateSaleRequest>): Promise<SaleDetail> =>
        call('POST', '/sales', { body }),
    },
    returns: {
      lookup: (invoiceNumber: string): Promise<z.infer<typeof ReturnLookup>> =>
        call('GET', '/returns/lookup/{invoiceNumber}', { params: { invoiceNumber } }),
      create: (body: z.input<typeof CreateReturnRequest>): Promise<SaleReturn> =>
        call('POST', '/returns', { body }),
    },
    parked: {
      list: (query: Query<'GET', '/parked'> = {}): Promise<Page<ParkedCart>> =>
        call('GET', '/parked', { query }),
      park: (body: z.input<typeof ParkCartRequest>): Promise<ParkedCart> => call('POST', '/parked', { body }),
      recall: (parkedId: string): Promise<ParkedCart> =>
        call('POST', '/parked/{parkedId}/recall', { params: { parkedId } }),
      void: (parkedId: string, reason: string): Promise<ParkedCart> =>
        call('POST', '/parked/{parkedId}/void', { params: { parkedId }, body: { reason } }),
    },
    coupons: {
      list: (query: Query<'GET', '/coupons'> = {}): Promise<Page<Coupon>> =>
        call('GET', '/coupons', { query }),
      create: (body: z.input<typeof CreateCouponRequest>): Promise<Coupon> =>
        call('POST', '/coupons', { body }),
      update: (couponId: string, body: z.input<typeof UpdateCouponRequest>): Promise<Coupon> =>
        call('PUT', '/coupons/{couponId}', { params: { couponId }, body }),
      validate: (
        code: string,
        query: Query<'GET', '/coupons/validate/{code}'> = {},
      ): Promise<z.infer<typeof CouponValidation>> =>
        call('GET', '/coupons/validate/{code}', { params: { code }, query }),
    },
    customers: {
      list: (query: Query<'GET', '/customers'> = {}): Promise<Page<Customer>> =>
        call('GET', '/customers', { query }),
      get: (customerId: string): Promise<Customer> =>
        call('GET', '/customers/{customerId}', { params: { customerId } }),
      create: (body: z.input<typeof CreateCustomerRequest>): Promise<Customer> =>
        call('POST', '/customers', { body }),
      update: (customerId: string, body: z.input<typeof UpdateCustomerRequest>): Promise<Customer> =>
        call('PUT', '/customers/{customerId}', { params: { customerId }, body }),
      possibleDuplicates: (query: Query<'GET', '/customers/possible-duplicates'>): Promise<Customer[]> =>
        call('GET', '/customers/possible-duplicates', { query }),
      ledger: (
        customerId: string,
        query: Query<'GET', '/customers/{customerId}/ledger'> = {},
      ): Promise<Page<CustomerLedgerRow>> =>
        call('GET', '/customers/{customerId}/ledger', { params: { customerId }, query }),
      pay: (
        customerId: string,
        body: z.input<typeof CustomerPaymentRequest>,
      ): Promise<z.infer<typeof CustomerPaymentResult>> =>
        call('POST', '/customers/{customerId}/payments', { params: { customerId }, body }),
    },
    prescriptions: {
      list: (
        query: Query<'GET', '/prescriptions'> = {},
      ): Promise<Page<z.infer<typeof PrescriptionSummary>>> => call('GET', '/prescriptions', { query }),
      get: (prescriptionId: string): Promise<PrescriptionDetail> =>
        call('GET', '/prescriptions/{prescriptionId}', { params: { prescriptionId } }),
      create: (body: z.input<typeof CreatePrescriptionRequest>): Promise<PrescriptionDetail> =>
        call('POST', '/prescriptions', { body }),
      dispense: (
        prescriptionId: string,
        body: z.input<typeof DispenseRequest> = {},
      ): Promise<z.infer<typeof DispenseResult>> =>
        call('POST', '/prescriptions/{prescriptionId}/dispense', { params: { prescriptionId }, body }),
    },
    dispensing: {
      willCall: (query: Query<'GET', '/dispensing/will-call'> = {}): Promise<Page<WillCall>> =>
        call('GET', '/dispensing/will-call', { query }),
      placeOnWillCall: (body: z.input<typeof CreateWillCallRequest>): Promise<WillCall> =>
        call('POST', '/dispensing/will-call', { body }),
      pickup: (willCallId: string, body: z.input<typeof PickupRequest>): Promise<WillCall> =>
        call('PUT', '/dispensing/will-call/{willCallId}/pickup', { params: { willCallId }, body }),
      returnToStock: (willCallId: string, body: z.input<typeof ReturnWillCallRequest>): Promise<WillCall> =>
        call('POST', '/dispensing/will-call/{willCallId}/return', { params: { willCallId }, body }),
      genericSearch: (
        query: Query<'GET', '/dispensing/generic-search'>,
      ): Promise<z.infer<typeof GenericSearchResult>> => call('GET', '/dispensing/generic-search', { query }),
    },
    compliance: {
      classifiedBook: (
        query: Query<'GET', '/compliance/classified-drugs-book'> = {},
      ): Promise<Page<z.infer<typeof ClassifiedBookEntry>>> =>
        call('GET', '/compliance/classified-drugs-book', { query }),
    },
  };
}
