import type { z } from 'zod';
import type { Call, Page, Query } from './api-call';
import type { ClassifyScanRequest, CreatePrintJobRequest, PrintJob, ScanClassification } from './index';
import type {
  CreatePrinterRequest,
  CreateReceiptTemplateRequest,
  Printer,
  PrinterActionResult,
  PrinterDevices,
  PrinterStatusReport,
  ReceiptTemplate,
  ReprintRequest,
  TemplatePreview,
  TemplatePreviewRequest,
  UpdatePrinterRequest,
  UpdateReceiptTemplateRequest,
} from './printing';

/** A serial scanner of this till and how it is (GET /scanners). */
export interface ScannerState {
  path: string;
  baud_rate: number;
  open: boolean;
  last_error: string | null;
  last_scan_at: string | null;
}

export interface ScannersOverview {
  scanners: ScannerState[];
  configured_by: 'environment' | 'till';
  ports: Array<{ path: string; manufacturer?: string; serialNumber?: string }>;
  warning?: string;
}

/** The server's classification of a scan (classifyScan): GS1 fields, a retail code, or why it is neither. */
export interface ClassifiedScan {
  code: string;
  classification: ScanClassification;
}

/**
 * The calls of the till's devices (barcode scanners, printers, receipt templates and print jobs), spread into the
 * typed client by createApiClient. Types only.
 */
export function hardwareCalls(call: Call) {
  return {
    scanners: {
      list: (): Promise<ScannersOverview> => call('GET', '/scanners'),
      configure: (
        scanners: Array<{ path: string; baud_rate: number }>,
      ): Promise<{ scanners: ScannerState[] }> => call('PUT', '/scanners', { body: { scanners } }),
      classify: (body: z.input<typeof ClassifyScanRequest>): Promise<ScanClassification> =>
        call('POST', '/scanners/classify', { body }),
    },
    printing: {
      createJob: (body: z.input<typeof CreatePrintJobRequest>): Promise<PrintJob> =>
        call('POST', '/printing/print-jobs', { body }),
      getJob: (jobId: string): Promise<PrintJob> =>
        call('GET', '/printing/print-jobs/{jobId}', { params: { jobId } }),
      printers: (query: Query<'GET', '/printing/printers'> = {}): Promise<Page<Printer>> =>
        call('GET', '/printing/printers', { query: { page_size: 50, ...query } }),
      printerStatus: (printerId: string): Promise<PrinterStatusReport> =>
        call('GET', '/printing/printers/{printerId}/status', { params: { printerId } }),
      createPrinter: (body: z.input<typeof CreatePrinterRequest>): Promise<Printer> =>
        call('POST', '/printing/printers', { body }),
      updatePrinter: (printerId: string, body: z.input<typeof UpdatePrinterRequest>): Promise<Printer> =>
        call('PUT', '/printing/printers/{printerId}', { params: { printerId }, body }),
      removePrinter: (printerId: string): Promise<undefined> =>
        call('DELETE', '/printing/printers/{printerId}', { params: { printerId } }),
      testPrint: (printerId: string): Promise<PrinterActionResult> =>
        call('POST', '/printing/printers/{printerId}/test', { params: { printerId } }),
      openDrawer: (printerId: string): Promise<PrinterActionResult> =>
        call('POST', '/printing/printers/{printerId}/drawer', { params: { printerId } }),
      devices: (): Promise<PrinterDevices> => call('GET', '/printing/devices'),
      templates: (query: Query<'GET', '/printing/receipt-templates'> = {}): Promise<Page<ReceiptTemplate>> =>
        call('GET', '/printing/receipt-templates', { query: { page_size: 100, ...query } }),
      createTemplate: (body: z.input<typeof CreateReceiptTemplateRequest>): Promise<ReceiptTemplate> =>
        call('POST', '/printing/receipt-templates', { body }),
      updateTemplate: (
        templateId: string,
        body: z.input<typeof UpdateReceiptTemplateRequest>,
      ): Promise<ReceiptTemplate> =>
        call('PUT', '/printing/receipt-templates/{templateId}', { params: { templateId }, body }),
      previewTemplate: (
        body: z.input<typeof TemplatePreviewRequest>,
        signal?: AbortSignal,
      ): Promise<TemplatePreview> => call('POST', '/printing/receipt-templates/preview', { body, signal }),
      jobs: (query: Query<'GET', '/printing/print-jobs'> = {}): Promise<Page<PrintJob>> =>
        call('GET', '/printing/print-jobs', { query }),
      cancelJob: (jobId: string): Promise<PrintJob> =>
        call('POST', '/printing/print-jobs/{jobId}/cancel', { params: { jobId } }),
      reprintJob: (jobId: string, body: z.input<typeof ReprintRequest> = {}): Promise<PrintJob> =>
        call('POST', '/printing/print-jobs/{jobId}/reprint', { params: { jobId }, body }),
    },
  };
}
