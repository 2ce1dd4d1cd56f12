import type { z } from 'zod';
import type { Call, Page, Query } from './api-call';
import type {
  Batch,
  Category,
  CreatePurchaseOrderRequest,
  CreateSupplierInvoiceRequest,
  CreateSupplierPaymentRequest,
  CreateSupplierRequest,
  CancelTransferRequest,
  CreateTransferRequest,
  PurchaseOrderCreated,
  PurchaseOrderDetail,
  PurchaseOrderSummary,
  ReceivePurchaseOrderRequest,
  ReceiveTransferRequest,
  StockCountResult,
  StockCountSheet,
  SubmitStockCountRequest,
  SuggestedOrderResponse,
  Supplier,
  SupplierInvoice,
  SupplierInvoicePayments,
  SupplierPaymentResult,
  Transfer,
  UpdatePurchaseOrderStatusRequest,
  UpdateSupplierRequest,
} from './index';

/**
 * The calls of the purchasing screens (purchase orders, transfers, stock counts, suppliers and their
 * invoices, the approvals a count may need), spread into the typed client by createApiClient. Types only.
 */
export function purchasingCalls(call: Call) {
  return {
    purchaseOrders: {
      list: (query: Query<'GET', '/purchase-orders'> = {}): Promise<Page<PurchaseOrderSummary>> =>
        call('GET', '/purchase-orders', { query }),
      get: (orderId: string): Promise<PurchaseOrderDetail> =>
        call('GET', '/purchase-orders/{purchaseOrderId}', { params: { purchaseOrderId: orderId } }),
      suggested: (
        query: Query<'GET', '/purchase-orders/suggested'> = {},
      ): Promise<z.infer<typeof SuggestedOrderResponse>> =>
        call('GET', '/purchase-orders/suggested', { query }),
      create: (
        body: z.input<typeof CreatePurchaseOrderRequest>,
      ): Promise<z.infer<typeof PurchaseOrderCreated>> => call('POST', '/purchase-orders', { body }),
      setStatus: (
        orderId: string,
        body: z.input<typeof UpdatePurchaseOrderStatusRequest>,
      ): Promise<PurchaseOrderDetail> =>
        call('PUT', '/purchase-orders/{purchaseOrderId}/status', {
          params: { purchaseOrderId: orderId },
          body,
        }),
      receive: (
        orderId: string,
        body: z.input<typeof ReceivePurchaseOrderRequest>,
      ): Promise<PurchaseOrderDetail> =>
        call('POST', '/purchase-orders/{purchaseOrderId}/receive', {
          params: { purchaseOrderId: orderId },
          body,
        }),
    },
    transfers: {
      list: (query: Query<'GET', '/transfers'> = {}): Promise<Page<Transfer>> =>
        call('GET', '/transfers', { query }),
      create: (body: z.input<typeof CreateTransferRequest>): Promise<Transfer> =>
        call('POST', '/transfers', { body }),
      get: (transferId: string): Promise<Transfer> =>
        call('GET', '/transfers/{transferId}', { params: { transferId } }),
      /** The destination books in what arrived (lines: only those short, with a reason). */
      receive: (transferId: string, body: z.input<typeof ReceiveTransferRequest>): Promise<Transfer> =>
        call('POST', '/transfers/{transferId}/receive', { params: { transferId }, body }),
      /** The source takes back a transfer not yet received. */
      cancel: (transferId: string, body: z.input<typeof CancelTransferRequest>): Promise<Transfer> =>
        call('POST', '/transfers/{transferId}/cancel', { params: { transferId }, body }),
      /** Batches a transfer may send from (GET /purchases, the received batches). */
      batches: (query: Query<'GET', '/purchases'>): Promise<Page<Batch>> =>
        call('GET', '/purchases', { query }),
      /** One batch (GET /purchases/{id}): names a batch an approval or a line refers to. */
      batch: (batchId: string): Promise<Batch> =>
        call('GET', '/purchases/{batchId}', { params: { batchId } }),
    },
    stockCount: {
      sheet: (query: Query<'GET', '/stockcount'> = {}): Promise<z.infer<typeof StockCountSheet>> =>
        call('GET', '/stockcount', { query }),
      submit: (body: z.input<typeof SubmitStockCountRequest>): Promise<z.infer<typeof StockCountResult>> =>
        call('POST', '/stockcount/submit', { body }),
      /** Categories a count sheet may be limited to. */
      categories: (): Promise<{ items: Category[] }> => call('GET', '/categories'),
    },
    suppliers: {
      list: (query: Query<'GET', '/suppliers'> = {}): Promise<Page<Supplier>> =>
        call('GET', '/suppliers', { query }),
      get: (supplierId: string): Promise<Supplier> =>
        call('GET', '/suppliers/{supplierId}', { params: { supplierId } }),
      create: (body: z.input<typeof CreateSupplierRequest>): Promise<Supplier> =>
        call('POST', '/suppliers', { body }),
      update: (supplierId: string, body: z.input<typeof UpdateSupplierRequest>): Promise<Supplier> =>
        call('PUT', '/suppliers/{supplierId}', { params: { supplierId }, body }),
      deactivate: (supplierId: string): Promise<undefined> =>
        call('DELETE', '/suppliers/{supplierId}', { params: { supplierId } }),
    },
    supplierFinance: {
      invoices: (
        query: Query<'GET', '/supplier-finance/invoices'> = {},
      ): Promise<{ items: SupplierInvoice[] }> => call('GET', '/supplier-finance/invoices', { query }),
      createInvoice: (body: z.input<typeof CreateSupplierInvoiceRequest>): Promise<SupplierInvoice> =>
        call('POST', '/supplier-finance/invoices', { body }),
      payments: (invoiceId: string): Promise<SupplierInvoicePayments> =>
        call('GET', '/supplier-finance/invoices/{invoiceId}/payments', { params: { invoiceId } }),
      pay: (
        invoiceId: string,
        body: z.input<typeof CreateSupplierPaymentRequest>,
      ): Promise<SupplierPaymentResult> =>
        call('POST', '/supplier-finance/invoices/{invoiceId}/payments', { params: { invoiceId }, body }),
    },
  };
}
