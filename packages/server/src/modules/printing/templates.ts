import { paginate } from '../../db/paginate';
import { sql } from 'kysely';
import type { CreateReceiptTemplateRequest, PrintDocumentType, ReceiptTemplate } from '@pharmacy/contracts';
import type { PrintableDocument } from '@pharmacy/hardware';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { type AuthUser, assertBranchAccess, isBranchBound, scopeBranch } from '../../http/auth';
import { Forbidden } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { getBranchRow } from '../branches/service';
import type { ReceiptTemplatesTable } from '../../db/tables/printing';

export const toReceiptTemplate = (r: ReceiptTemplatesTable): ReceiptTemplate => ({
  ...r,
  document_type: r.document_type as PrintDocumentType,
  paper_width_mm: r.paper_width_mm as 58 | 80 | null,
  show_vat_breakdown: r.show_vat_breakdown === 1,
  show_qr: r.show_qr === 1,
  show_customer: r.show_customer === 1,
  show_return_policy: r.show_return_policy === 1,
  is_default: r.is_default === 1,
});

/**
 * Templates that apply to a branch are its own plus the organisation-wide ones. Branch-bound callers always
 * get their branch's view; others get the view of the branch they ask for, or every template.
 */
export async function listReceiptTemplates(
  app: AppContext,
  user: AuthUser,
  f: { branch_id?: string; document_type?: string; page: number; page_size: number },
) {
  const branch = scopeBranch(user, f.branch_id);
  let q = app.db.selectFrom('receipt_templates');
  if (branch) q = q.where((eb) => eb.or([eb('branch_id', '=', branch), eb('branch_id', 'is', null)]));
  if (f.document_type) q = q.where('document_type', '=', f.document_type);
  const found = await paginate(q, f, (q) =>
    q.selectAll().orderBy('document_type').orderBy('branch_id').orderBy('is_default', 'desc').orderBy('name'),
  );
  return { ...found, items: found.items.map(toReceiptTemplate) };
}

export async function createReceiptTemplate(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: CreateReceiptTemplateRequest,
): Promise<ReceiptTemplate> {
  const branchId = input.branch_id === undefined ? user.branchId : input.branch_id;
  if (branchId === null) {
    if (isBranchBound(user))
      throw new Forbidden(
        'Only an organisation-wide role can create an organisation-wide template.',
        'OTHER_BRANCH',
      );
  } else {
    assertBranchAccess(user, branchId, 'branch');
    await getBranchRow(app.db, branchId);
  }
  const at = nowIso();
  const row: ReceiptTemplatesTable = {
    id: newId(),
    branch_id: branchId,
    name: input.name,
    document_type: input.document_type,
    paper_width_mm: input.paper_width_mm,
    header: input.header,
    footer: input.footer,
    logo_key: input.logo_key || null,
    show_vat_breakdown: input.show_vat_breakdown ? 1 : 0,
    show_qr: input.show_qr ? 1 : 0,
    show_customer: input.show_customer ? 1 : 0,
    show_return_policy: input.show_return_policy ? 1 : 0,
    is_default: input.is_default ? 1 : 0,
    created_by: user.id,
    created_at: at,
    updated_at: at,
  };
  await app.db.transaction().execute(async (trx) => {
    if (row.is_default) await clearDefault(trx, row, at);
    await trx.insertInto('receipt_templates').values(row).execute();
    await writeAudit(trx, actor, {
      action: 'receipt_template.create',
      entity: 'receipt_template',
      entityId: row.id,
      branchId,
      after: row,
    });
  });
  return toReceiptTemplate(row);
}

/**
 * Makes `row` the only default of its scope (its branch, or organisation-wide), document type and paper
 * width (a both-widths template competes only with other both-widths ones).
 */
export async function clearDefault(trx: Db, row: ReceiptTemplatesTable, at: string): Promise<void> {
  let clear = trx
    .updateTable('receipt_templates')
    .set({ is_default: 0, updated_at: at })
    .where('document_type', '=', row.document_type)
    .where('is_default', '=', sql.lit(1))
    .where('id', '!=', row.id);
  clear =
    row.branch_id === null
      ? clear.where('branch_id', 'is', null)
      : clear.where('branch_id', '=', row.branch_id);
  clear =
    row.paper_width_mm === null
      ? clear.where('paper_width_mm', 'is', null)
      : clear.where('paper_width_mm', '=', row.paper_width_mm);
  await clear.execute();
}

/**
 * The template a document of this type prints with on paper of this width: the branch's default for the
 * width, else the branch's both-widths default, else the organisation's for the width, else the
 * organisation's both-widths default. A branch's own template wins over the organisation's whatever its width
 * rule, so a branch that set its own receipt never prints the organisation's header on one of its printers.
 */
export async function effectiveTemplate(
  db: Db,
  branchId: string,
  documentType: string,
  paperWidthMm: number,
): Promise<ReceiptTemplate | null> {
  const rows = await db
    .selectFrom('receipt_templates')
    .selectAll()
    .where('document_type', '=', documentType)
    .where('is_default', '=', sql.lit(1))
    .where((eb) => eb.or([eb('branch_id', '=', branchId), eb('branch_id', 'is', null)]))
    .where((eb) => eb.or([eb('paper_width_mm', '=', paperWidthMm), eb('paper_width_mm', 'is', null)]))
    .execute();
  const rank = (r: ReceiptTemplatesTable) =>
    (r.branch_id === branchId ? 0 : 2) + (r.paper_width_mm === paperWidthMm ? 0 : 1);
  const row = rows.sort((a, b) => rank(a) - rank(b))[0];
  return row ? toReceiptTemplate(row) : null;
}

/**
 * Applies a template to a document a source built: its header and footer texts replace the document's when
 * set, and the show_* flags drop the VAT breakdown, fiscal QR, customer name and return policy.
 */
export function applyTemplate(doc: PrintableDocument, template: ReceiptTemplate | null): PrintableDocument {
  if (!template || doc.kind === 'shelf-label' || doc.kind === 'test-page') return doc;
  const header = { ...doc.header, headerText: template.header.trim() || doc.header.headerText };
  switch (doc.kind) {
    case 'sale':
      return {
        ...doc,
        header,
        footer: template.footer.trim() || doc.footer,
        vatBreakdown: template.show_vat_breakdown ? doc.vatBreakdown : [],
        qrPayload: template.show_qr ? doc.qrPayload : undefined,
        customerName: template.show_customer ? doc.customerName : undefined,
        returnPolicy: template.show_return_policy ? doc.returnPolicy : undefined,
      };
    case 'credit-note':
      return {
        ...doc,
        header,
        footer: template.footer.trim() || doc.footer,
        vatBreakdown: template.show_vat_breakdown ? doc.vatBreakdown : [],
        qrPayload: template.show_qr ? doc.qrPayload : undefined,
        customerName: template.show_customer ? doc.customerName : undefined,
      };
    case 'z-report':
      return { ...doc, header, vatBreakdown: template.show_vat_breakdown ? doc.vatBreakdown : [] };
  }
}
