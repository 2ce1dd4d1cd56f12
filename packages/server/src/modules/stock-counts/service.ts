import type { StockCountSheetLine } from '@pharmacy/contracts';
import { mayApproveCount } from '@pharmacy/contracts/roles';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { rawQuery } from '../../db/raw-query';
import { recordChange } from '../../db/changes';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { Forbidden, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { findCategorySlug } from '../medicines/category';
import { requireActiveBranch } from '../branches/active-branch';
import { getSettings } from '../settings/service';
import { consumeApproval } from '../approvals/service';
import { moveBatchQuantity } from '../stock/ledger';
import type { StockCountLinesTable, StockCountsTable } from '../../db/tables/stock-counts';
import { verifyWitness, type Witness } from './witness';

/** A count-sheet line as the database gives it: the answer's line with SQL's 0/1 for is_controlled. */
type SheetRow = Omit<StockCountSheetLine, 'is_controlled'> & { is_controlled: number };

const sheetQuery =
  rawQuery<SheetRow>(`SELECT b.id AS batch_id, b.medicine_id, m.name AS medicine_name, m.strength, m.form,
    b.batch_number, b.expiry_date, b.regulator_status, b.qty_on_hand AS expected_qty, m.is_controlled
  FROM batches b JOIN medicines m ON m.id = b.medicine_id
  WHERE b.branch_id = ? AND (? = 1 OR b.qty_on_hand <> 0) AND (CAST(? AS TEXT) IS NULL OR m.category = ?)
  ORDER BY m.name COLLATE NOCASE, m.id, b.expiry_date, b.batch_number`);

/**
 * The count sheet of a branch: every batch holding stock (or every batch with include_empty), by medicine name
 * then expiry, with the quantity the books expect. A hot read on big branches: one cached prepared statement.
 */
export async function countSheet(
  app: AppContext,
  branchId: string,
  f: { category?: string; include_empty: 'true' | 'false' },
) {
  const branch = await requireActiveBranch(app.db, branchId);
  let category: string | null = null;
  if (f.category) {
    category = await findCategorySlug(app.db, f.category);
    if (!category) throw new NotFound('Category', f.category);
  }
  const rows = await sheetQuery.all(app, [branch.id, f.include_empty === 'true' ? 1 : 0, category, category]);
  const items = rows.map((r) => ({ ...r, is_controlled: Number(r.is_controlled) === 1 }));
  return { branch_id: branch.id, generated_at: nowIso(), total: items.length, items };
}

export interface SubmitCountInput {
  branch_id?: string;
  notes: string;
  approval_id?: string;
  variance_reason?: string;
  witness?: { email: string; password: string };
  lines: Array<{ batch_id: string; counted_qty: number }>;
}

function assertBatchesOnce(input: SubmitCountInput): void {
  const seen = new Set<string>();
  for (const [i, line] of input.lines.entries()) {
    if (seen.has(line.batch_id))
      throw new Invalid(`Batch ${line.batch_id} is counted twice.`, [
        { path: `lines.${i}.batch_id`, message: 'duplicate batch' },
      ]);
    seen.add(line.batch_id);
  }
}

interface CountedBatch {
  id: string;
  branch_id: string;
  medicine_id: string;
  batch_number: string;
  qty_on_hand: number;
  medicine_name: string;
  is_controlled: number;
}

/** The counted batches with their medicine's name, read 500 ids at a time. */
async function countedBatches(trx: Db, ids: readonly string[]): Promise<Map<string, CountedBatch>> {
  const batches = new Map<string, CountedBatch>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await trx
      .selectFrom('batches as b')
      .innerJoin('medicines as m', 'm.id', 'b.medicine_id')
      .select([
        'b.id',
        'b.branch_id',
        'b.medicine_id',
        'b.batch_number',
        'b.qty_on_hand',
        'm.name as medicine_name',
        'm.is_controlled',
      ])
      .where('b.id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) batches.set(r.id, r);
  }
  return batches;
}

/** One line per counted batch (of the counted branch) and the variances against the books. */
function countLines(input: SubmitCountInput, header: StockCountsTable, batches: Map<string, CountedBatch>) {
  const lines: StockCountLinesTable[] = [];
  const variances = [];
  for (const [i, line] of input.lines.entries()) {
    const batch = batches.get(line.batch_id);
    if (!batch) throw new NotFound('Batch', line.batch_id);
    if (batch.branch_id !== header.branch_id)
      throw new Invalid(`Batch ${line.batch_id} belongs to another branch than the one counted.`, [
        { path: `lines.${i}.batch_id`, message: 'batch of another branch' },
      ]);
    const variance = line.counted_qty - batch.qty_on_hand;
    lines.push({
      id: newId(),
      stock_count_id: header.id,
      batch_id: batch.id,
      medicine_id: batch.medicine_id,
      expected_qty: batch.qty_on_hand,
      counted_qty: line.counted_qty,
      variance,
    });
    if (variance !== 0)
      variances.push({
        batch_id: batch.id,
        medicine_id: batch.medicine_id,
        medicine_name: batch.medicine_name,
        batch_number: batch.batch_number,
        expected_qty: batch.qty_on_hand,
        counted_qty: line.counted_qty,
        variance,
        is_controlled: batch.is_controlled === 1,
      });
  }
  return { lines, variances };
}

type CountVariance = ReturnType<typeof countLines>['variances'][number];

/**
 * The controlled-medicine rule of a count: any variance on a controlled medicine, whatever its size, needs a
 * reason (400) and a witness (403 WITNESS_REQUIRED): a second person, pharmacist or admin, verified before the
 * transaction (witness.ts). The threshold's approval applies on top. Answers the movement reason that enters
 * the discrepancy in the controlled-drug register.
 */
function controlledDiscrepancy(
  input: SubmitCountInput,
  witness: Witness | null,
  variances: readonly CountVariance[],
): string | null {
  const controlled = variances.find((v) => v.is_controlled);
  if (!controlled) return null;
  const what = `${controlled.medicine_name} is a controlled medicine and its count differs from the books (${controlled.variance > 0 ? '+' : ''}${controlled.variance})`;
  if (!input.variance_reason)
    throw new Invalid(`${what}: give the reason for the difference.`, [
      { path: 'variance_reason', message: 'required for a controlled medicine variance' },
    ]);
  if (!witness)
    throw new Forbidden(
      `${what}: a second person (pharmacist or admin) must witness it with their own sign-in.`,
      'WITNESS_REQUIRED',
    );
  return `Count discrepancy: ${input.variance_reason}; witnessed by ${witness.full_name}`;
}

/** Variances above the threshold need a manager role, or the counter's approved approval, consumed here. */
async function approveLargeVariances(
  trx: Db,
  c: { user: AuthUser; actor: Actor; input: SubmitCountInput; branchId: string; threshold: number },
  variances: readonly CountVariance[],
): Promise<void> {
  const { user, input, threshold } = c;
  const large = variances.filter((v) => Math.abs(v.variance) > threshold);
  if (large.length === 0 || mayApproveCount(user.role)) return;
  const first = large[0]!;
  const summary = `${large.length} variance${large.length === 1 ? '' : 's'} exceed${large.length === 1 ? 's' : ''} the approval threshold of ${threshold} units (e.g. ${first.medicine_name} batch ${first.batch_number}: ${first.variance > 0 ? '+' : ''}${first.variance})`;
  if (!input.approval_id)
    throw new Forbidden(
      `${summary}; a branch manager, inventory manager or admin must submit this count, or approve it (approval_id).`,
      'APPROVAL_REQUIRED',
    );
  await consumeApproval(trx, {
    approvalId: input.approval_id,
    operation: {
      kind: 'stock_variance',
      variances: large.map((v) => ({
        batch_id: v.batch_id,
        batch_number: v.batch_number,
        variance: v.variance,
      })),
    },
    branchId: c.branchId,
    userId: user.id,
    requestId: c.actor.requestId,
  });
}

/** The count's header and lines, a `count` movement per variance, its change and its audit row. */
async function writeCount(
  trx: Db,
  c: { user: AuthUser; actor: Actor; input: SubmitCountInput; branchId: string; witness: Witness | null },
  header: StockCountsTable,
  counted: ReturnType<typeof countLines>,
  discrepancy: string | null,
) {
  const { lines, variances } = counted;
  header.lines_with_variance = variances.length;
  header.total_variance = variances.reduce((s, v) => s + v.variance, 0);
  await trx.insertInto('stock_counts').values(header).execute();
  for (let i = 0; i < lines.length; i += 100)
    await trx
      .insertInto('stock_count_lines')
      .values(lines.slice(i, i + 100))
      .execute();
  const reference = { type: 'stock_count', id: header.id };
  for (const v of variances) {
    await moveBatchQuantity(trx, {
      batchId: v.batch_id,
      delta: v.variance,
      type: 'count',
      reference,
      userId: c.user.id,
      reason:
        (v.is_controlled ? discrepancy : null) ?? (c.input.variance_reason || c.input.notes || 'stock count'),
    });
  }
  await recordChange(trx, {
    entity: 'stock_count',
    entityId: header.id,
    op: 'upsert',
    payload: { ...header, lines },
    branchId: c.branchId,
  });
  const witnessId = discrepancy ? (c.witness?.id ?? null) : null;
  await writeAudit(trx, c.actor, {
    action: 'stock_count.submit',
    entity: 'stock_count',
    entityId: header.id,
    branchId: c.branchId,
    after: { ...header, variances, variance_reason: c.input.variance_reason ?? null, witness_id: witnessId },
  });
  return { ...header, witness_id: witnessId, variances: variances.map(({ is_controlled: _, ...v }) => v) };
}

/**
 * Records a count: a header and one line per batch counted, and a `count` movement for each variance, in one
 * transaction. A variance larger than the threshold needs a manager role, or a manager's approved
 * `stock_variance` approval requested by the counter, consumed once in the same transaction. A variance on a
 * controlled medicine also needs a reason and a witness (controlledDiscrepancy).
 */
export async function submitCount(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: SubmitCountInput,
  clientAddress: string,
) {
  const branchId = input.branch_id ?? user.branchId;
  assertBranchAccess(user, branchId, 'branch');
  await requireActiveBranch(app.db, branchId);
  assertBatchesOnce(input);
  const witness = input.witness
    ? await verifyWitness(app, user, branchId, input.witness, clientAddress)
    : null;
  const threshold = (await getSettings(app)).stock_variance_approval_threshold;
  const at = nowIso();
  const header: StockCountsTable = {
    id: newId(),
    branch_id: branchId,
    counted_by: user.id,
    approval_id: input.approval_id ?? null,
    notes: input.notes,
    lines_counted: input.lines.length,
    lines_with_variance: 0,
    total_variance: 0,
    created_at: at,
  };
  const c = { user, actor, input, branchId, witness };
  return app.db.transaction().execute(async (trx) => {
    const batches = await countedBatches(
      trx,
      input.lines.map((l) => l.batch_id),
    );
    const counted = countLines(input, header, batches);
    const discrepancy = controlledDiscrepancy(input, witness, counted.variances);
    await approveLargeVariances(trx, { ...c, threshold }, counted.variances);
    return writeCount(trx, c, header, counted, discrepancy);
  });
}
