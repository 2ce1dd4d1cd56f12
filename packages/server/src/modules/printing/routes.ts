import { BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import {
  CreatePrinterRequest,
  CreatePrintJobRequest,
  CreateReceiptTemplateRequest,
  Printer,
  PrinterDevices,
  PrinterListQuery,
  PrinterStatusReport,
  PrintJob,
  PrintJobListQuery,
  PrinterActionResult,
  ReceiptTemplate,
  ReceiptTemplateListQuery,
  ReprintRequest,
  TemplatePreview,
  TemplatePreviewRequest,
  UpdatePrinterRequest,
  UpdateReceiptTemplateRequest,
  pageOf,
} from '@pharmacy/contracts';
import { z } from 'zod';
import { type ApiRouter, created, noContent } from '../../http/route';
import { actorOf } from '../audit/service';
import { PRINT_JOB_ROLES } from '@pharmacy/contracts/roles';
import {
  cancelPrintJob,
  createPrintJob,
  getPrintJobFor,
  listPrintJobs,
  reprintJob,
  toPrintJob,
} from './jobs';
import { timeoutsOf } from '../../printing-config';
import { createPrinter, deletePrinter, getPrinterFor, listPrinters, updatePrinter } from './printers';
import { openCashDrawer, previewTemplate, printTestPage, updateReceiptTemplate } from './setup';
import { createReceiptTemplate, listReceiptTemplates } from './templates';
import { discoverDevices, readPrinterStatus, transportAllowances } from './transport';

const TAG = 'Printing';
/** Unknown ids are 404 whatever their shape (the spec types them as plain strings). */
const PathId = z.string().trim().min(1).max(100);
const PrinterParams = z.object({ printerId: PathId });
const JobParams = z.object({ jobId: PathId });
const TemplateParams = z.object({ templateId: PathId });

const JOB_FIELDS =
  'status is one of queued, printing, completed, failed, cancelled; the legacy printed is accepted and stored and read back as completed. ' +
  'document_type is one of receipt, invoice, credit_note, label, report. attempts, last_error ("CODE: message", e.g. OFFLINE, PAPER_OUT, COVER_OPEN, TIMEOUT, NO_PRINTER), next_attempt_at and printed_at show why a job waits.';

export function printingRoutes(r: ApiRouter): void {
  printerRoutes(r);
  templateRoutes(r);
  printJobRoutes(r);
}

/** Printers: list, add, edit, deactivate, live status, test print, drawer kick, device discovery. */
function printerRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/printing/printers',
    tag: TAG,
    summary: 'List printers',
    description:
      'Any signed-in user. Cashiers, pharmacists and branch managers always get their own branch; other roles get the branch_id they ask for, or every branch. Sorted by branch, default first, then name.',
    roles: 'any',
    query: PrinterListQuery,
    responses: { 200: { description: 'A page of printers', schema: pageOf(Printer) } },
    handler: ({ app, user, query }) => listPrinters(app, user, query),
  });

  r.route({
    method: 'post',
    path: '/printing/printers',
    tag: TAG,
    summary: 'Add a printer',
    description:
      "Admin, or a branch manager for their own branch (403 for another). branch_id defaults to the caller's branch. address is checked against transport (400 naming address otherwise): host:port for tcp, where the host is never link-local (169.254.0.0/16, fe80::/10) or a cloud metadata address (fd00:ec2::254, 100.100.100.200, metadata.google.internal...) and the port is a printer port (9100-9109, 515, 631) or one of the organisation's printer_extra_ports setting; private and loopback hosts are fine. For device: a printer device node (/dev/usb/lpN, /dev/lpN, or a serial device node; LPTn/COMn on Windows); for serial: a serial device node (/dev/ttyUSBN, /dev/ttyACMN, /dev/ttySN, /dev/serial/by-id/..., /dev/cu.* on macOS, COMn on Windows). An existing path must resolve to an allowed name and be a character device; a path that does not exist yet is accepted (the printer may be unplugged). Other device paths (a pty for a virtual printer) only when the operator lists them in PRINTER_DEVICE_ALLOW. The same rules are checked again each time a printer is opened (a refused job fails with INVALID_CONFIG and writes nothing). vendor:product hex for usb. baud_rate applies to serial only (default 9600). paper_width_mm 58 or 80 (default 80); command_set epson (default) or star; code_page one of the hardware code pages (default: from language, else PC858). is_default clears the branch's previous default in the same transaction; an inactive printer cannot be the default. Names are unique among a branch's active printers (409). Printers are local to this server and do not replicate.",
    roles: BRANCH_MANAGERS,
    body: CreatePrinterRequest,
    responses: {
      201: { description: 'The printer', schema: Printer },
      403: { description: 'Another branch' },
      404: { description: 'Unknown branch' },
      409: { description: 'A printer of that name exists in the branch' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createPrinter(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'put',
    path: '/printing/printers/:printerId',
    tag: TAG,
    summary: 'Update a printer',
    description:
      "Admin, or the branch manager of the printer's branch (403 otherwise). Any subset of the create fields except branch_id (a printer does not move). The merged printer is validated again (an address must fit the transport and the rules of POST). Deactivating the default printer leaves the branch without a default.",
    roles: BRANCH_MANAGERS,
    params: PrinterParams,
    body: UpdatePrinterRequest,
    responses: {
      200: { description: 'The printer', schema: Printer },
      403: { description: 'Another branch' },
      404: { description: 'Unknown printer' },
      409: { description: 'A printer of that name exists in the branch' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      updatePrinter(app, user, actorOf(user, requestId), params.printerId, body),
  });

  r.route({
    method: 'delete',
    path: '/printing/printers/:printerId',
    tag: TAG,
    summary: 'Remove a printer',
    description:
      "Admin, or the branch manager of the printer's branch (403 otherwise). A printer no print job references is deleted; one with jobs is deactivated (is_active false, no longer the default) so the job history keeps naming it. Its queued jobs then fail with PRINTER_INACTIVE; reprint them to another printer.",
    roles: BRANCH_MANAGERS,
    params: PrinterParams,
    responses: {
      204: { description: 'Deleted or deactivated' },
      403: { description: 'Another branch' },
      404: { description: 'Unknown printer' },
    },
    handler: async ({ app, user, params, requestId }) => {
      await deletePrinter(app, user, actorOf(user, requestId), params.printerId);
      return noContent();
    },
  });

  r.route({
    method: 'get',
    path: '/printing/printers/:printerId/status',
    tag: TAG,
    summary: 'Ask a printer how it is',
    description:
      "Any signed-in user of the printer's branch (403 for another branch). Opens the transport from this server and, for Epson-mode tcp and serial printers, reads DLE EOT: state READY, PAPER_NEAR_END, PAPER_OUT, COVER_OPEN or OFFLINE. usb and device links cannot read status: CONNECTED when the device opens. A printer that cannot be reached reports the error code (OFFLINE, TIMEOUT, NOT_FOUND, IO) with reachable false; one whose address is not allowed (a device that is not a printer device node, a tcp address that is link-local or metadata after DNS, a port that is not a printer port) reports INVALID_CONFIG without being opened; one that opens but does not answer reports NO_STATUS. Never hangs: short timeouts (PRINT_STATUS_TIMEOUT_MS, default 1.5 s). A printer busy with a job may answer late.",
    roles: 'any',
    params: PrinterParams,
    responses: {
      200: { description: 'The status report', schema: PrinterStatusReport },
      403: { description: 'Another branch' },
      404: { description: 'Unknown printer' },
    },
    handler: async ({ app, user, params }) => {
      const printer = await getPrinterFor(app, user, params.printerId);
      return readPrinterStatus(
        printer,
        timeoutsOf(app.config.printing).statusTimeoutMs,
        await transportAllowances(app),
      );
    },
  });

  printerActionRoute(r, {
    path: '/printing/printers/:printerId/test',
    summary: 'Print a test page',
    description:
      "Admin, or the branch manager of the printer's branch (403 otherwise), for the printer set-up screen. Renders a test page (shop name, branch, date, the printer's settings, a line of each size, a code-page sample, a QR code, a cut) with the same ESC/POS renderer every document prints with, in the printer's paper width, command set and code page, and sends it on the print worker's lane of that printer (after the job printing there now, before the next queued one, never interleaved with a receipt's bytes), waiting for it up to three print timeouts (PRINT_TIMEOUT_MS; BUSY when the printer stayed busy, nothing sent), so the answer says what happened: outcome printed with the bytes written, or failed with the printer's reason (OFFLINE, TIMEOUT, NOT_FOUND, INVALID_CONFIG for an address the transport rules refuse...). A printer error is a 200 answer with outcome failed, never a 500. Works on an inactive printer too (to try one before turning it on). Audited.",
    run: printTestPage,
  });

  printerActionRoute(r, {
    path: '/printing/printers/:printerId/drawer',
    summary: 'Open the cash drawer',
    description:
      "Admin, or the branch manager of the printer's branch (403 otherwise). Sends the drawer kick (ESC p on pin 2 for Epson, BEL for Star) to the printer the drawer is plugged into, on that printer's print lane like Test print (never in the middle of a receipt; dropped, BUSY, rather than opening the drawer late), and answers the outcome as Test print does. Audited.",
    run: openCashDrawer,
  });

  r.route({
    method: 'get',
    path: '/printing/devices',
    tag: TAG,
    summary: 'Discover attached printers',
    description:
      'Admin and branch managers, for the printer set-up screen. Lists the serial ports and USB printer-class devices attached to the machine this server runs on (a till). Never fails: when a list cannot be read (no udevadm, no permission, no native binding) it is empty and warnings says why. Network printers are not discovered; enter their host:port.',
    roles: BRANCH_MANAGERS,
    responses: { 200: { description: 'Attached devices', schema: PrinterDevices } },
    handler: () => discoverDevices(),
  });
}

/**
 * A printer action (test page, drawer kick): for admins and the printer's branch manager (403 another branch,
 * 404 unknown printer), answering what happened at the printer.
 */
function printerActionRoute(
  r: ApiRouter,
  a: {
    path: string;
    summary: string;
    description: string;
    run: typeof printTestPage | typeof openCashDrawer;
  },
): void {
  r.route({
    method: 'post',
    path: a.path,
    tag: TAG,
    summary: a.summary,
    description: a.description,
    roles: BRANCH_MANAGERS,
    params: PrinterParams,
    responses: {
      200: { description: 'What happened', schema: PrinterActionResult },
      403: { description: 'Another branch' },
      404: { description: 'Unknown printer' },
    },
    handler: async ({ app, user, params, requestId }) =>
      a.run(app, actorOf(user, requestId), await getPrinterFor(app, user, params.printerId)),
  });
}

/** Receipt templates per document type and paper width, with the preview the editor shows. */
function templateRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/printing/receipt-templates',
    tag: TAG,
    summary: 'List receipt templates',
    description:
      "Any signed-in user. A branch's view is its own templates plus the organisation-wide ones (branch_id null); cashiers, pharmacists and branch managers always get their own branch's view, other roles the view of the branch_id they ask for, or every template.",
    roles: 'any',
    query: ReceiptTemplateListQuery,
    responses: { 200: { description: 'A page of templates', schema: pageOf(ReceiptTemplate) } },
    handler: ({ app, user, query }) => listReceiptTemplates(app, user, query),
  });

  r.route({
    method: 'post',
    path: '/printing/receipt-templates',
    tag: TAG,
    summary: 'Create a receipt template',
    description:
      "Admin, or a branch manager for their own branch. branch_id omitted: the caller's branch; null: organisation-wide (admin and other organisation-wide roles only; 403 for a branch manager). paper_width_mm 58 or 80 makes the template for printers of that paper width; null or omitted, for both widths (every template saved before widths existed). A document prints on a printer with, in order: its branch's default of its document_type for the printer's width, the branch's both-widths default, the organisation's default for the width, the organisation's both-widths default. is_default clears the previous default of the same scope, type and width (a both-widths template only competes with both-widths ones). header and footer replace the document's own texts when not empty; the show_* flags drop the VAT breakdown, fiscal QR, customer name and return policy. logo_key is stored for the image module; printing logos (raster) is not done yet.",
    roles: BRANCH_MANAGERS,
    body: CreateReceiptTemplateRequest,
    responses: {
      201: { description: 'The template', schema: ReceiptTemplate },
      403: { description: 'Another branch, or organisation-wide by a branch manager' },
      404: { description: 'Unknown branch' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createReceiptTemplate(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'put',
    path: '/printing/receipt-templates/:templateId',
    tag: TAG,
    summary: 'Update a receipt template',
    description:
      "Admin, or a branch manager for a template of their own branch (403 for another branch's or an organisation-wide one). Any subset of name, paper_width_mm (58, 80 or null for both widths), header, footer, the show_* flags and is_default; document_type and branch_id do not change. A default template clears the previous default of the same scope, type and width. Audited.",
    roles: BRANCH_MANAGERS,
    params: TemplateParams,
    body: UpdateReceiptTemplateRequest,
    responses: {
      200: { description: 'The template', schema: ReceiptTemplate },
      403: { description: 'Another branch, or organisation-wide by a branch manager' },
      404: { description: 'Unknown template' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      updateReceiptTemplate(app, user, actorOf(user, requestId), params.templateId, body),
  });

  r.route({
    method: 'post',
    path: '/printing/receipt-templates/preview',
    tag: TAG,
    summary: 'Preview a receipt template',
    description:
      "Admin and branch managers, for the template editor's live preview. Renders a sample document of document_type (with the organisation's name) through the template as given, exactly as the print worker applies it, with the text renderer, which lays out the same blocks the ESC/POS renderer prints (QR codes and barcodes show as placeholders), at paper_width_mm (58: 32 columns, 80: 48). Writes nothing.",
    roles: BRANCH_MANAGERS,
    body: TemplatePreviewRequest,
    responses: { 200: { description: 'The preview text', schema: TemplatePreview } },
    handler: ({ app, body }) => previewTemplate(app, body),
  });
}

/** The print queue: list, enqueue, one job, reprint, cancel. */
function printJobRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/printing/print-jobs',
    tag: TAG,
    summary: 'List print jobs',
    description: `Any signed-in user; cashiers, pharmacists and branch managers always get their own branch. Newest first. Filters: branch_id, printer_id, status (printed means completed), document_type, reference_id. ${JOB_FIELDS}`,
    roles: 'any',
    query: PrintJobListQuery,
    responses: { 200: { description: 'A page of print jobs', schema: pageOf(PrintJob) } },
    handler: ({ app, user, query }) => listPrintJobs(app, user, query),
  });

  r.route({
    method: 'post',
    path: '/printing/print-jobs',
    tag: TAG,
    summary: 'Create a print job',
    description: `Any signed-in user but the auditor (read-only: 403). branch_id defaults to the caller's branch; a branch outside the caller's ownership is 403, an unknown branch 404. printer_id null or omitted means the branch's default printer at print time (so jobs follow a change of default); a named printer must exist (404), be active and belong to the same branch (400). reference_id is the document's id (required, non-empty), copies 1 to 20 (default 1), status defaults to queued (the status is stored as given). A queued job is printed by the till's print worker after the request commits: the request never waits on the printer, and a printer that is off or out of paper leaves the job queued with the reason in last_error, retried with backoff and finally failed. A job created with another status is only recorded. ${JOB_FIELDS}`,
    roles: PRINT_JOB_ROLES,
    body: CreatePrintJobRequest,
    responses: {
      201: { description: 'The print job', schema: PrintJob },
      403: { description: "Branch outside the caller's ownership" },
      404: { description: 'Unknown printer or branch' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createPrintJob(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'get',
    path: '/printing/print-jobs/:jobId',
    tag: TAG,
    summary: 'Read a print job',
    description: `Any signed-in user of the job's branch (403 for another branch). ${JOB_FIELDS}`,
    roles: 'any',
    params: JobParams,
    responses: {
      200: { description: 'The print job', schema: PrintJob },
      403: { description: 'Another branch' },
      404: { description: 'Unknown print job' },
    },
    handler: async ({ app, user, params }) => toPrintJob(await getPrintJobFor(app, user, params.jobId)),
  });

  r.route({
    method: 'post',
    path: '/printing/print-jobs/:jobId/reprint',
    tag: TAG,
    summary: 'Reprint a document',
    description:
      'Any signed-in user of the job\'s branch but the auditor (read-only: 403). Creates a new queued job for the same document (reprint_of names the job reprinted), whatever the original\'s status: on printer_id if given, else the original printer while it is active, else the branch default. copies default 1, reason default "reprint". A reprint never opens the cash drawer. Audited.',
    roles: PRINT_JOB_ROLES,
    params: JobParams,
    body: ReprintRequest,
    responses: {
      201: { description: 'The new print job', schema: PrintJob },
      403: { description: 'Another branch' },
      404: { description: 'Unknown print job or printer' },
    },
    handler: async ({ app, user, params, body, requestId }) =>
      created(await reprintJob(app, user, actorOf(user, requestId), params.jobId, body)),
  });

  r.route({
    method: 'post',
    path: '/printing/print-jobs/:jobId/cancel',
    tag: TAG,
    summary: 'Cancel a queued print job',
    description:
      "Any signed-in user of the job's branch but the auditor (read-only: 403). Only a queued job (waiting or between retries) can be cancelled; one being printed or finished answers 409. Audited.",
    roles: PRINT_JOB_ROLES,
    params: JobParams,
    responses: {
      200: { description: 'The cancelled job', schema: PrintJob },
      403: { description: 'Another branch' },
      404: { description: 'Unknown print job' },
      409: { description: 'Not queued' },
    },
    handler: ({ app, user, params, requestId }) =>
      cancelPrintJob(app, user, actorOf(user, requestId), params.jobId),
  });
}
