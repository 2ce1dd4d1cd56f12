import type { Db } from '../../db/connection';
import type { PrescriptionItemsTable, PrescriptionsTable } from '../../db/tables/prescriptions';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { branchToday } from '../stock/ledger';
import { loadDispensable, planDispense, recordPrescriptionChange, writeDispense } from './dispense';

/** How the prescription book names an emergency supply's prescriber. */
export const EMERGENCY_SUPPLY_PRESCRIBER = 'Emergency supply (no prescription)';

/**
 * For the selling module: an emergency supply (a prescription-only medicine handed out by a pharmacist without
 * a prescription) is recorded, in the sale's transaction, as a prescription of its own: prescriber "Emergency
 * supply", the pharmacist's reason in its notes, one item per medicine supplied, valid today only. The sale
 * then dispenses against it like any prescription, so the supply is in the prescription book with its sale.
 */
export async function recordEmergencySupply(
  trx: Db,
  input: {
    prescriptionId: string;
    reason: string;
    patient_name: string;
    branchId: string;
    customerId: string | null;
    userId: string;
    medicines: Array<{ medicineId: string; quantity: number }>;
  },
): Promise<void> {
  const today = await branchToday(trx, input.branchId);
  const at = nowIso();
  const row: PrescriptionsTable = {
    id: input.prescriptionId,
    branch_id: input.branchId,
    customer_id: input.customerId,
    patient_name: input.patient_name,
    patient_id_number: '',
    patient_phone: '',
    prescriber_name: EMERGENCY_SUPPLY_PRESCRIBER,
    prescriber_licence_no: '',
    prescriber_facility: '',
    issue_date: today,
    valid_until: today,
    status: 'active',
    notes: `Emergency supply: ${input.reason}`,
    cancel_reason: null,
    cancelled_at: null,
    cancelled_by: null,
    created_by: input.userId,
    created_at: at,
    updated_at: at,
  };
  const quantities = new Map<string, number>();
  for (const l of input.medicines)
    quantities.set(l.medicineId, (quantities.get(l.medicineId) ?? 0) + l.quantity);
  const items: PrescriptionItemsTable[] = [...quantities].map(([medicineId, quantity], i) => ({
    id: newId(),
    prescription_id: row.id,
    branch_id: input.branchId,
    line_no: i + 1,
    medicine_id: medicineId,
    quantity,
    dosage: '',
    refills_allowed: 0,
    refills_used: 0,
    dispensed_quantity: 0,
    total_dispensed: 0,
  }));
  await trx.insertInto('prescriptions').values(row).execute();
  await trx.insertInto('prescription_items').values(items).execute();
  await recordPrescriptionChange(trx, row.id);
}

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
