import type { z } from 'zod';
import type {
  Batch,
  BatchListQuery,
  Category,
  CreatePurchaseOrderRequest,
  CreateSupplierInvoiceRequest,
  CreateSupplierPaymentRequest,
  CreateSupplierRequest,
  CancelTransferRequest,
  CreateTransferRequest,
  PurchaseOrderCreated,
  PurchaseOrderDetail,
  PurchaseOrderListQuery,
  PurchaseOrderSummary,
  ReceivePurchaseOrderRequest,
  ReceiveTransferRequest,
  StockCountResult,
  StockCountSheet,
  StockCountSheetQuery,
  SubmitStockCountRequest,
  SuggestedOrderQuery,
  SuggestedOrderResponse,
  Supplier,
  SupplierInvoice,
  SupplierInvoiceListQuery,
  SupplierInvoicePayments,
  SupplierListQuery,
  SupplierPaymentResult,
  Transfer,
  TransferListQuery,
  UpdatePurchaseOrderStatusRequest,
  UpdateSupplierRequest,
} from './index';

type Page<T> = { items: T[]; total: number; page: number; page_size: number };
type QueryOf<T extends z.ZodType> = Partial<z.input<T>>;
type Request = <T>(method: string, path: string, opts?: { query?: object; body?: unknown }) => Promise<T>;

/**
 * The calls of the purchasing screens (purchase orders, transfers, stock counts, suppliers and their
 * invoices, the approvals a count may need), spread into the typed client by createApiClient. Types only.
 */
export function purchasingCalls(request: Request) {
  const get = <T>(path: string, query?: object) => request<T>('GET', path, { query });
  const send = <T>(method: string, path: string, body: unknown) => request<T>(method, path, { body });
  const id = encodeURIComponent;
  return {
    purchaseOrders: {
      list: (query: PurchaseOrderListQuery = {}) =>
        get<Page<PurchaseOrderSummary>>('/purchase-orders', query),
      get: (orderId: string) => get<PurchaseOrderDetail>(`/purchase-orders/${id(orderId)}`),
      suggested: (query: QueryOf<typeof SuggestedOrderQuery> = {}) =>
        get<z.infer<typeof SuggestedOrderResponse>>('/purchase-orders/suggested', query),
      create: (body: z.input<typeof CreatePurchaseOrderRequest>) =>
        send<z.infer<typeof PurchaseOrderCreated>>('POST', '/purchase-orders', body),
      setStatus: (orderId: string, body: z.input<typeof UpdatePurchaseOrderStatusRequest>) =>
        send<PurchaseOrderDetail>('PUT', `/purchase-orders/${id(orderId)}/status`, body),
      receive: (orderId: string, body: z.input<typeof ReceivePurchaseOrderRequest>) =>
        send<PurchaseOrderDetail>('POST', `/purchase-orders/${id(orderId)}/receive`, body),
    },
    transfers: {
      list: (query: QueryOf<typeof TransferListQuery> = {}) => get<Page<Transfer>>('/transfers', query),
      create: (body: z.input<typeof CreateTransferRequest>) => send<Transfer>('POST', '/transfers', body),
      get: (transferId: string) => get<Transfer>(`/transfers/${id(transferId)}`),
      /** The destination books in what arrived (lines: only those short, with a reason). */
      receive: (transferId: string, body: z.input<typeof ReceiveTransferRequest>) =>
        send<Transfer>('POST', `/transfers/${id(transferId)}/receive`, body),
      /** The source takes back a transfer not yet received. */
      cancel: (transferId: string, body: z.input<typeof CancelTransferRequest>) =>
        send<Transfer>('POST', `/transfers/${id(transferId)}/cancel`, body),
      /** Batches a transfer may send from (GET /purchases, the received batches). */
      batches: (query: QueryOf<typeof BatchListQuery>) => get<Page<Batch>>('/purchases', query),
      /** One batch (GET /purchases/{id}): names a batch an approval or a line refers to. */
      batch: (batchId: string) => get<Batch>(`/purchases/${id(batchId)}`),
    },
    stockCount: {
      sheet: (query: QueryOf<typeof StockCountSheetQuery> = {}) =>
        get<z.infer<typeof StockCountSheet>>('/stockcount', query),
      submit: (body: z.input<typeof SubmitStockCountRequest>) =>
        send<z.infer<typeof StockCountResult>>('POST', '/stockcount/submit', body),
      /** Categories a count sheet may be limited to. */
      categories: () => get<{ items: Category[] }>('/categories'),
    },
    suppliers: {
      list: (query: QueryOf<typeof SupplierListQuery> = {}) => get<Page<Supplier>>('/suppliers', query),
      get: (supplierId: string) => get<Supplier>(`/suppliers/${id(supplierId)}`),
      create: (body: z.input<typeof CreateSupplierRequest>) => send<Supplier>('POST', '/suppliers', body),
      update: (supplierId: string, body: z.input<typeof UpdateSupplierRequest>) =>
        send<Supplier>('PUT', `/suppliers/${id(supplierId)}`, body),
      deactivate: (supplierId: string) => request<undefined>('DELETE', `/suppliers/${id(supplierId)}`),
    },
    supplierFinance: {
      invoices: (query: QueryOf<typeof SupplierInvoiceListQuery> = {}) =>
        get<{ items: SupplierInvoice[] }>('/supplier-finance/invoices', query),
      createInvoice: (body: z.input<typeof CreateSupplierInvoiceRequest>) =>
        send<SupplierInvoice>('POST', '/supplier-finance/invoices', body),
      payments: (invoiceId: string) =>
        get<SupplierInvoicePayments>(`/supplier-finance/invoices/${id(invoiceId)}/payments`),
      pay: (invoiceId: string, body: z.input<typeof CreateSupplierPaymentRequest>) =>
        send<SupplierPaymentResult>('POST', `/supplier-finance/invoices/${id(invoiceId)}/payments`, body),
    },
  };
}
