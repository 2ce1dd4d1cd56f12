import type { TestServer } from '../../testing/harness';
import { inDays } from '../stock/fixtures';

/** Test fixtures for prescriptions (tests only). */
export interface RxItem {
  id: string;
  medicine_id: string;
  quantity: number;
  dispensed_quantity: number;
  remaining_quantity: number;
  refills_allowed: number;
  refills_used: number;
  total_dispensed: number;
}
export interface Rx {
  id: string;
  branch_id: string;
  status: string;
  valid_until: string;
  items: RxItem[];
  dispensings: Array<{
    id: string;
    dispense_id: string;
    medicine_id: string;
    quantity: number;
    fill_number: number;
    source: string;
    will_call_id: string | null;
  }>;
}

export const rxBody = (items: Array<Record<string, unknown>>, fields: Record<string, unknown> = {}) => ({
  patient_name: 'Amina Juma',
  patient_id_number: 'NID-123',
  patient_phone: '+255700000001',
  prescriber_name: 'Dr. Mushi',
  prescriber_licence_no: 'MCT-9981',
  prescriber_facility: 'Mnazi Mmoja Hospital',
  issue_date: inDays(-1),
  items,
  ...fields,
});

export async function makeRx(
  t: TestServer,
  token: string,
  items: Array<Record<string, unknown>>,
  fields: Record<string, unknown> = {},
): Promise<Rx> {
  const res = await t.post<Rx>('/api/v1/prescriptions', rxBody(items, fields), token);
  if (res.status !== 201) throw new Error(`create prescription: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Units on hand of a medicine in a branch (every batch, as the controlled book counts them). */
export const onHand = (t: TestServer, medicineId: string, branchId: string): number =>
  (
    t.context.sqlite
      .prepare(
        'SELECT coalesce(sum(qty_on_hand), 0) AS n FROM batches WHERE medicine_id = ? AND branch_id = ?',
      )
      .get(medicineId, branchId) as { n: number }
  ).n;
