import type { Db } from '../../db/connection';
import { newId } from '../../lib/ids';
import { loadDispensable, planDispense, writeDispense } from './dispense';

/**
 * For the selling module: a sale with a prescription_id dispenses against it. The sale consumes the stock (its
 * own movements, reference {type: 'sale', id: saleId}); this records the dispensing.
 *
 * throws NotFound (404) for an unknown prescription, Conflict 409 PRESCRIPTION_NOT_VALID when cancelled, expired,
 * of another branch, or when the lines exceed what remains; records the dispensing (prescription book rows,
 * remaining quantities) in the caller's transaction.
 *
 * Lines of medicines the prescription does not name are ignored (not covered); `coveredMedicineIds` lists the
 * medicines it covered, so the sale can refuse prescription-only medicines that are not covered. A line on an
 * item whose current fill is complete starts that item's next refill (409 when none is left). A prescription
 * waiting on the will-call shelf (`ready`) is refused: it must be picked up first.
 */
export async function dispenseForSale(
  trx: Db,
  input: {
    prescriptionId: string;
    branchId: string;
    saleId: string;
    userId: string;
    lines: Array<{ medicineId: string; quantity: number }>;
  },
): Promise<{ coveredMedicineIds: string[] }> {
  const { rx, items } = await loadDispensable(trx, input.prescriptionId, input.branchId);
  const { planned } = planDispense(items, input.lines);
  if (planned.length > 0) {
    await writeDispense(
      trx,
      { userId: input.userId, requestId: null },
      {
        rx,
        items,
        planned,
        dispenseId: newId(),
        source: 'sale',
        saleId: input.saleId,
        userId: input.userId,
        willCallId: null,
        notes: '',
      },
    );
  }
  return { coveredMedicineIds: planned.map((p) => p.item.medicine_id) };
}
