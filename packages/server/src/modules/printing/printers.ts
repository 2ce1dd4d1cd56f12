import { paginate } from '../../db/paginate';
import { sql } from 'kysely';
import {
  type CreatePrinterRequest,
  type Printer,
  type UpdatePrinterRequest,
  printerAddressProblem,
} from '@pharmacy/contracts';
import {
  CODE_PAGES,
  deviceAddressProblem,
  isCodePage,
  parseTcpAddress,
  tcpTargetProblem,
} from '@pharmacy/hardware';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import { type AuthUser, assertBranchAccess, scopeBranch } from '../../http/auth';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { getBranchRow } from '../branches/service';
import { getSettings } from '../settings/service';
import type { PrintersTable } from '../../db/tables/printing';

export const DEFAULT_BAUD_RATE = 9600;

export const toPrinter = (r: PrintersTable): Printer => ({
  ...r,
  open_drawer: r.open_drawer === 1,
  is_default: r.is_default === 1,
  is_active: r.is_active === 1,
});

export async function getPrinterRow(db: Db, id: string): Promise<PrintersTable> {
  const row = await db.selectFrom('printers').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Printer', id);
  return row;
}

/** A printer the caller may see: 404 when unknown, 403 when it belongs to another branch (branch-bound roles). */
export async function getPrinterFor(app: AppContext, user: AuthUser, id: string): Promise<PrintersTable> {
  const row = await getPrinterRow(app.db, id);
  assertBranchAccess(user, row.branch_id, 'printer');
  return row;
}

/** The branch's active default printer, if it has one. */
const defaultOfBranch = prepared((db, p: { branchId: string }) =>
  db
    .selectFrom('printers')
    .selectAll()
    .where('branch_id', '=', p.branchId)
    .where('is_default', '=', sql.lit(1))
    .where('is_active', '=', sql.lit(1)),
);

/** Looked up by every sale (does its receipt print?): compiled once. */
export async function defaultPrinter(db: Db, branchId: string): Promise<PrintersTable | undefined> {
  return defaultOfBranch.first(db, { branchId });
}

export async function listPrinters(
  app: AppContext,
  user: AuthUser,
  f: { branch_id?: string; is_active?: boolean; page: number; page_size: number },
) {
  const branch = scopeBranch(user, f.branch_id);
  let q = app.db.selectFrom('printers');
  if (branch) q = q.where('branch_id', '=', branch);
  if (f.is_active !== undefined) q = q.where('is_active', '=', sql.lit(f.is_active ? 1 : 0));
  const found = await paginate(q, f, (q) =>
    q.selectAll().orderBy('branch_id').orderBy('is_default', 'desc').orderBy('name'),
  );
  return { ...found, items: found.items.map(toPrinter) };
}

function assertCodePage(codePage: string | null): void {
  if (codePage !== null && !isCodePage(codePage)) {
    throw new Invalid(`code_page ${codePage} is not supported.`, [
      { path: 'code_page', message: `must be one of ${Object.keys(CODE_PAGES).join(', ')}` },
    ]);
  }
}

/** The rules that span several fields, checked on the merged printer (a PUT may change one field alone). */
function assertConsistent(row: PrintersTable): void {
  const problem = printerAddressProblem(row.transport, row.address);
  if (problem) throw new Invalid(`address: ${problem}.`, [{ path: 'address', message: problem }]);
  assertCodePage(row.code_page);
  if (row.is_default && !row.is_active) {
    throw new Invalid('An inactive printer cannot be the default printer.', [
      { path: 'is_default', message: 'an inactive printer cannot be the default' },
    ]);
  }
}

/**
 * Where the printer may point (C1, L6): a device or serial address names a printer or serial device node
 * (hardware's device-path rules plus the operator's PRINTER_DEVICE_ALLOW); a tcp host is not link-local or
 * metadata and its port is a printer port or one of the organisation's printer_extra_ports.
 */
async function addressPolicyProblem(app: AppContext, row: PrintersTable): Promise<string | undefined> {
  switch (row.transport) {
    case 'device':
    case 'serial':
      return deviceAddressProblem(row.transport, row.address, app.config.printerDeviceAllow);
    case 'tcp': {
      const { host, port } = parseTcpAddress(row.address);
      return tcpTargetProblem(host, port, (await getSettings(app)).printer_extra_ports);
    }
    default:
      return undefined;
  }
}

async function assertAddressAllowed(app: AppContext, row: PrintersTable): Promise<void> {
  const problem = await addressPolicyProblem(app, row);
  if (problem) throw new Invalid(`address: ${problem}.`, [{ path: 'address', message: problem }]);
}

async function assertNameFree(db: Db, row: PrintersTable): Promise<void> {
  if (!row.is_active) return;
  const clash = await db
    .selectFrom('printers')
    .select('id')
    .where('branch_id', '=', row.branch_id)
    .where('is_active', '=', sql.lit(1))
    .where((eb) => eb(eb.fn('lower', ['name']), '=', row.name.toLowerCase()))
    .where('id', '!=', row.id)
    .executeTakeFirst();
  if (clash)
    throw new Conflict(`This branch already has an active printer named "${row.name}".`, 'DUPLICATE');
}

/** Writes the printer; making it the default clears the branch's previous default in the same transaction. */
async function writePrinter(trx: Db, row: PrintersTable, insert: boolean): Promise<void> {
  if (row.is_default) {
    await trx
      .updateTable('printers')
      .set({ is_default: 0, updated_at: row.updated_at })
      .where('branch_id', '=', row.branch_id)
      .where('is_default', '=', sql.lit(1))
      .where('id', '!=', row.id)
      .execute();
  }
  if (insert) await trx.insertInto('printers').values(row).execute();
  else await trx.updateTable('printers').set(row).where('id', '=', row.id).execute();
}

export async function createPrinter(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: CreatePrinterRequest,
): Promise<Printer> {
  const branchId = input.branch_id ?? user.branchId;
  assertBranchAccess(user, branchId, 'branch');
  await getBranchRow(app.db, branchId);
  const at = nowIso();
  const row: PrintersTable = {
    id: newId(),
    branch_id: branchId,
    name: input.name,
    transport: input.transport,
    address: input.transport === 'usb' ? input.address.toLowerCase() : input.address,
    baud_rate: input.transport === 'serial' ? (input.baud_rate ?? DEFAULT_BAUD_RATE) : null,
    paper_width_mm: input.paper_width_mm,
    command_set: input.command_set,
    code_page: input.code_page ?? null,
    language: input.language ?? null,
    open_drawer: input.open_drawer ? 1 : 0,
    is_default: input.is_default ? 1 : 0,
    is_active: input.is_active ? 1 : 0,
    created_at: at,
    updated_at: at,
  };
  assertConsistent(row);
  await assertAddressAllowed(app, row);
  await assertNameFree(app.db, row);
  await app.db.transaction().execute(async (trx) => {
    await writePrinter(trx, row, true);
    await writeAudit(trx, actor, {
      action: 'printer.create',
      entity: 'printer',
      entityId: row.id,
      branchId,
      after: row,
    });
  });
  return toPrinter(row);
}

export async function updatePrinter(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  patch: UpdatePrinterRequest,
): Promise<Printer> {
  const before = await getPrinterFor(app, user, id);
  const transport = patch.transport ?? before.transport;
  if (transport !== 'serial' && patch.baud_rate != null) {
    throw new Invalid('baud_rate applies to serial printers only.', [
      { path: 'baud_rate', message: 'applies to serial printers only' },
    ]);
  }
  const address = patch.address ?? before.address;
  const isActive = patch.is_active ?? before.is_active === 1;
  // Deactivating the default printer leaves the branch without one; asking for both at once is refused below.
  const isDefault = patch.is_default ?? (before.is_default === 1 && isActive);
  const row: PrintersTable = {
    ...before,
    name: patch.name ?? before.name,
    transport,
    address: transport === 'usb' ? address.toLowerCase() : address,
    baud_rate:
      transport === 'serial'
        ? (patch.baud_rate ?? (before.transport === 'serial' ? before.baud_rate : null) ?? DEFAULT_BAUD_RATE)
        : null,
    paper_width_mm: patch.paper_width_mm ?? before.paper_width_mm,
    command_set: patch.command_set ?? before.command_set,
    code_page: patch.code_page === undefined ? before.code_page : patch.code_page,
    language: patch.language === undefined ? before.language : patch.language,
    open_drawer: patch.open_drawer === undefined ? before.open_drawer : patch.open_drawer ? 1 : 0,
    is_default: isDefault ? 1 : 0,
    is_active: isActive ? 1 : 0,
    updated_at: nowIso(),
  };
  assertConsistent(row);
  await assertAddressAllowed(app, row);
  await assertNameFree(app.db, row);
  await app.db.transaction().execute(async (trx) => {
    await writePrinter(trx, row, false);
    await writeAudit(trx, actor, {
      action: 'printer.update',
      entity: 'printer',
      entityId: id,
      branchId: row.branch_id,
      before,
      after: row,
    });
  });
  return toPrinter(row);
}

/**
 * Removes a printer that no print job references; one with history is deactivated instead (is_active false,
 * no longer the default), so every job keeps naming the printer it went to.
 */
export async function deletePrinter(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
): Promise<'deleted' | 'deactivated'> {
  const before = await getPrinterFor(app, user, id);
  const at = nowIso();
  return app.db.transaction().execute(async (trx) => {
    const used = await trx
      .selectFrom('print_jobs')
      .select('id')
      .where('printer_id', '=', id)
      .executeTakeFirst();
    if (used) {
      await trx
        .updateTable('printers')
        .set({ is_active: 0, is_default: 0, updated_at: at })
        .where('id', '=', id)
        .execute();
    } else {
      await trx.deleteFrom('printers').where('id', '=', id).execute();
    }
    const outcome = used ? 'deactivated' : 'deleted';
    await writeAudit(trx, actor, {
      action: used ? 'printer.deactivate' : 'printer.delete',
      entity: 'printer',
      entityId: id,
      branchId: before.branch_id,
      before,
      after: used ? { ...before, is_active: 0, is_default: 0, updated_at: at } : undefined,
    });
    return outcome;
  });
}
