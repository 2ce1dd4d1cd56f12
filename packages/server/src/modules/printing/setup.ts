import type {
  PrinterActionResult,
  ReceiptTemplate,
  TemplatePreview,
  TemplatePreviewRequest,
  UpdateReceiptTemplateRequest,
} from '@pharmacy/contracts';
import {
  type CodePage,
  type PaperWidth,
  type PrintableDocument,
  buildCreditNote,
  buildSaleReceipt,
  buildShelfLabel,
  buildTestPage,
  buildZReport,
  codePageForLanguage,
  formatLocalDateTime,
  kickDrawerBytes,
  paperColumns,
  printDocument,
  renderEscPos,
  renderText,
  sampleCreditNoteInput,
  sampleSaleInput,
  sampleZReportInput,
  starKickDrawerBytes,
  toPrinterError,
} from '@pharmacy/hardware';
import type { AppContext } from '../../app-context';
import { type AuthUser, assertBranchAccess, isBranchBound } from '../../http/auth';
import { Forbidden, NotFound } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { getSettings } from '../settings/service';
import { timeoutsOf } from '../../printing-config';
import type { PrintersTable, ReceiptTemplatesTable } from '../../db/tables/printing';
import { applyTemplate, clearDefault, toReceiptTemplate } from './templates';
import { deadline, transportAllowances, transportConfig } from './transport';
import { printWorkerOf } from './worker';

/** Sends bytes to a printer and reports what happened; never throws for the printer. */
async function sendNow(app: AppContext, printer: PrintersTable, bytes: Buffer): Promise<PrinterActionResult> {
  const started = Date.now();
  const timeoutMs = timeoutsOf(app.config.printing).transportTimeoutMs;
  const allow = await transportAllowances(app);
  try {
    const result = await deadline(
      printDocument({ transport: transportConfig(printer, timeoutMs, allow), bytes }),
      timeoutMs * 3,
      `Printing to ${printer.name}`,
    );
    return {
      printer_id: printer.id,
      outcome: 'printed',
      bytes_written: result.bytesWritten,
      error: null,
      elapsed_ms: Date.now() - started,
    };
  } catch (e) {
    const error = toPrinterError(e, 'Printing');
    return {
      printer_id: printer.id,
      outcome: 'failed',
      bytes_written: 0,
      error: { code: error.code, message: error.message },
      elapsed_ms: Date.now() - started,
    };
  }
}

/**
 * Sends a set-up action's bytes on the print worker's lane of this printer: after the receipt printing there
 * now and before the next queued job, never interleaved with one. Waits for the lane up to three transport
 * timeouts, then gives up without sending (BUSY). Without a worker (PRINT_WORKER=off) it sends at once.
 */
async function sendOnLane(
  app: AppContext,
  printer: PrintersTable,
  bytes: Buffer,
): Promise<PrinterActionResult> {
  const worker = printWorkerOf(app);
  if (!worker) return sendNow(app, printer, bytes);
  const started = Date.now();
  const waitMs = timeoutsOf(app.config.printing).transportTimeoutMs * 3;
  const outcome = await worker.runOnPrinter(printer.id, () => sendNow(app, printer, bytes), waitMs);
  if (outcome.ran) return { ...outcome.value, elapsed_ms: Date.now() - started };
  const message =
    outcome.reason === 'TIMEOUT'
      ? `Printer ${printer.name} was busy with other print jobs for ${Math.round(waitMs / 1000)} s; nothing was sent`
      : 'The till is shutting down; nothing was sent';
  return {
    printer_id: printer.id,
    outcome: 'failed',
    bytes_written: 0,
    error: { code: outcome.reason === 'TIMEOUT' ? 'BUSY' : 'STOPPING', message },
    elapsed_ms: Date.now() - started,
  };
}

async function branchOf(app: AppContext, branchId: string) {
  return app.db
    .selectFrom('branches')
    .select(['name', 'timezone'])
    .where('id', '=', branchId)
    .executeTakeFirst();
}

/** The test page, rendered by the renderer every document prints with, for this printer's settings. */
export async function testPageBytes(app: AppContext, printer: PrintersTable): Promise<Buffer> {
  const settings = await getSettings(app);
  const branch = await branchOf(app, printer.branch_id);
  const codePage = (printer.code_page ?? codePageForLanguage(printer.language ?? undefined)) as CodePage;
  const page = buildTestPage({
    shopName: settings.organization_name || 'Pharmacy',
    ...(branch?.name && { branchName: branch.name }),
    printerName: printer.name,
    printedAtLocal: formatLocalDateTime(nowIso(), branch?.timezone ?? 'UTC'),
    transport: printer.transport,
    address: printer.address,
    paperWidthMm: printer.paper_width_mm,
    commandSet: printer.command_set,
    codePage,
  });
  return renderEscPos(page, {
    paper: `${printer.paper_width_mm}mm` as PaperWidth,
    commandSet: printer.command_set,
    codePage,
  });
}

export async function printTestPage(
  app: AppContext,
  actor: Actor,
  printer: PrintersTable,
): Promise<PrinterActionResult> {
  const result = await sendOnLane(app, printer, await testPageBytes(app, printer));
  await writeAudit(app.db, actor, {
    action: 'printer.test_print',
    entity: 'printer',
    entityId: printer.id,
    branchId: printer.branch_id,
    after: { outcome: result.outcome, error: result.error?.code ?? null },
  });
  return result;
}

export async function openCashDrawer(
  app: AppContext,
  actor: Actor,
  printer: PrintersTable,
): Promise<PrinterActionResult> {
  const bytes = printer.command_set === 'star' ? starKickDrawerBytes() : kickDrawerBytes(2);
  const result = await sendOnLane(app, printer, bytes);
  await writeAudit(app.db, actor, {
    action: 'printer.open_drawer',
    entity: 'printer',
    entityId: printer.id,
    branchId: printer.branch_id,
    after: { outcome: result.outcome, error: result.error?.code ?? null },
  });
  return result;
}

/** A sample document of the type, with the organisation's own name, as the preview shows it. */
async function sampleDocument(app: AppContext, type: TemplatePreviewRequest['document_type']) {
  const s = await getSettings(app);
  // The organisation's own header; the sample's lines and figures stand for a sale.
  const org = {
    organization_name: s.organization_name || 'Pharmacy',
    organization_legal_name: s.organization_legal_name || null,
    organization_phone: s.phone || null,
    organization_address: s.address || null,
    organization_tin: s.tin || null,
    organization_vat_number: s.vat_number || null,
    branch_name: null,
    branch_address: null,
    branch_vat_number: null,
    receipt_header: s.receipt_header || null,
    receipt_footer: s.receipt_footer || null,
  };
  const timeZone = s.timezone || 'UTC';
  switch (type) {
    case 'receipt':
    case 'invoice':
      return buildSaleReceipt(
        { ...sampleSaleInput(3), ...org, return_policy: s.return_policy || null },
        { timeZone },
      );
    case 'credit_note':
      return buildCreditNote({ ...sampleCreditNoteInput(), ...org }, { timeZone });
    case 'report':
      return buildZReport({ ...sampleZReportInput(), ...org }, { timeZone });
    case 'label':
      return buildShelfLabel({
        name: 'Paracetamol 500 mg tablets',
        strength: '500 mg',
        form: 'tablets',
        pack_size: '24',
        price: '3.50',
        currency_code: 'SAR',
        barcode: '4006381333931',
      });
  }
}

/**
 * The text preview of a template as typed: a sample document of its type through applyTemplate (the worker's
 * own step) and renderText, which lays out the same blocks the ESC/POS renderer prints.
 */
export async function previewTemplate(
  app: AppContext,
  input: TemplatePreviewRequest,
): Promise<TemplatePreview> {
  const template: ReceiptTemplate = {
    id: 'preview',
    branch_id: null,
    name: 'preview',
    document_type: input.document_type,
    paper_width_mm: input.paper_width_mm,
    header: input.header,
    footer: input.footer,
    logo_key: null,
    show_vat_breakdown: input.show_vat_breakdown,
    show_qr: input.show_qr,
    show_customer: input.show_customer,
    show_return_policy: input.show_return_policy,
    is_default: false,
    created_by: null,
    created_at: nowIso(),
    updated_at: nowIso(),
  };
  const document: PrintableDocument = applyTemplate(await sampleDocument(app, input.document_type), template);
  const paper = `${input.paper_width_mm}mm` as PaperWidth;
  return { text: renderText(document, { paper }), columns: paperColumns(paper) };
}

export async function updateReceiptTemplate(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  input: UpdateReceiptTemplateRequest,
): Promise<ReceiptTemplate> {
  const before = await app.db
    .selectFrom('receipt_templates')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!before) throw new NotFound('Receipt template', id);
  if (before.branch_id === null) {
    if (isBranchBound(user))
      throw new Forbidden(
        'Only an organisation-wide role can change an organisation-wide template.',
        'OTHER_BRANCH',
      );
  } else assertBranchAccess(user, before.branch_id, 'receipt template');
  const at = nowIso();
  const flag = (v: boolean | undefined, old: number) => (v === undefined ? old : v ? 1 : 0);
  const after: ReceiptTemplatesTable = {
    ...before,
    name: input.name ?? before.name,
    paper_width_mm: input.paper_width_mm === undefined ? before.paper_width_mm : input.paper_width_mm,
    header: input.header ?? before.header,
    footer: input.footer ?? before.footer,
    show_vat_breakdown: flag(input.show_vat_breakdown, before.show_vat_breakdown),
    show_qr: flag(input.show_qr, before.show_qr),
    show_customer: flag(input.show_customer, before.show_customer),
    show_return_policy: flag(input.show_return_policy, before.show_return_policy),
    is_default: flag(input.is_default, before.is_default),
    updated_at: at,
  };
  await app.db.transaction().execute(async (trx) => {
    if (after.is_default) await clearDefault(trx, after, at);
    const { id: _id, ...values } = after;
    await trx.updateTable('receipt_templates').set(values).where('id', '=', id).execute();
    await writeAudit(trx, actor, {
      action: 'receipt_template.update',
      entity: 'receipt_template',
      entityId: id,
      branchId: after.branch_id,
      before,
      after,
    });
  });
  return toReceiptTemplate(after);
}
