import type { z } from 'zod';
import type { Call, Page, Query } from './api-call';
import type {
  AttachImageRequest,
  Batch,
  Category,
  CreateCategoryRequest,
  CreateMedicineRequest,
  ExpiryAlert,
  LedgerMovement,
  LowStockAlert,
  Medicine,
  MedicineDetail,
  QuarantineRequest,
  ReceiveBatchRequest,
  UpdateCategoryRequest,
  UpdateMedicineRequest,
  UploadUrlRequest,
  UploadUrlResponse,
  WriteOffRequest,
} from './index';

/**
 * The calls of the medicines catalogue and its stock (medicines, categories, images, received batches and their
 * write-offs and quarantine, low-stock and expiry alerts), spread into the typed client by createApiClient.
 * Types only.
 */
export function stockCalls(call: Call) {
  return {
    medicines: {
      list: (query: Query<'GET', '/medicines'> = {}, signal?: AbortSignal): Promise<Page<Medicine>> =>
        call('GET', '/medicines', { query, signal }),
      byBarcode: (code: string): Promise<Medicine> =>
        call('GET', '/medicines/barcode/{code}', { params: { code } }),
      get: (
        medicineId: string,
        query: Query<'GET', '/medicines/{medicineId}'> = {},
      ): Promise<MedicineDetail> => call('GET', '/medicines/{medicineId}', { params: { medicineId }, query }),
      create: (body: z.input<typeof CreateMedicineRequest>): Promise<Medicine> =>
        call('POST', '/medicines', { body }),
      update: (medicineId: string, body: z.input<typeof UpdateMedicineRequest>): Promise<Medicine> =>
        call('PUT', '/medicines/{medicineId}', { params: { medicineId }, body }),
      deactivate: (medicineId: string): Promise<undefined> =>
        call('DELETE', '/medicines/{medicineId}', { params: { medicineId } }),
      movements: (
        medicineId: string,
        query: Query<'GET', '/medicines/{medicineId}/movements'> = {},
      ): Promise<Page<LedgerMovement>> =>
        call('GET', '/medicines/{medicineId}/movements', { params: { medicineId }, query }),
    },
    categories: {
      list: (): Promise<{ items: Category[] }> => call('GET', '/categories'),
      create: (body: z.input<typeof CreateCategoryRequest>): Promise<Category> =>
        call('POST', '/categories', { body }),
      update: (slug: string, body: z.input<typeof UpdateCategoryRequest>): Promise<Category> =>
        call('PUT', '/categories/{slug}', { params: { slug }, body }),
      remove: (slug: string): Promise<undefined> =>
        call('DELETE', '/categories/{slug}', { params: { slug } }),
    },
    images: {
      medicineUploadUrl: (
        body: z.input<typeof UploadUrlRequest>,
      ): Promise<z.infer<typeof UploadUrlResponse>> => call('POST', '/images/medicines/upload-url', { body }),
      attachToMedicine: (medicineId: string, body: z.input<typeof AttachImageRequest>): Promise<Medicine> =>
        call('POST', '/images/medicines/{medicineId}/image', { params: { medicineId }, body }),
    },
    purchases: {
      list: (query: Query<'GET', '/purchases'> = {}): Promise<Page<Batch>> =>
        call('GET', '/purchases', { query }),
      get: (batchId: string): Promise<Batch> => call('GET', '/purchases/{batchId}', { params: { batchId } }),
      receive: (body: z.input<typeof ReceiveBatchRequest>): Promise<Batch> =>
        call('POST', '/purchases', { body }),
      writeOff: (batchId: string, body: z.input<typeof WriteOffRequest>): Promise<Batch> =>
        call('PUT', '/purchases/{batchId}/write-off', { params: { batchId }, body }),
      /** Quarantine, recall or release (the route lives with supplier finance). */
      setStatus: (batchId: string, body: z.input<typeof QuarantineRequest>): Promise<Batch> =>
        call('POST', '/supplier-finance/batches/{batchId}/quarantine', { params: { batchId }, body }),
    },
    alerts: {
      lowStock: (
        query: Query<'GET', '/alerts/low-stock'> = {},
      ): Promise<Page<z.infer<typeof LowStockAlert>>> => call('GET', '/alerts/low-stock', { query }),
      expiring: (query: Query<'GET', '/alerts/expiry'> = {}): Promise<Page<z.infer<typeof ExpiryAlert>>> =>
        call('GET', '/alerts/expiry', { query }),
      expired: (query: Query<'GET', '/alerts/expired'> = {}): Promise<Page<z.infer<typeof ExpiryAlert>>> =>
        call('GET', '/alerts/expired', { query }),
    },
  };
}
