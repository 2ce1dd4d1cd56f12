import { CreateMedicineRequest } from '@pharmacy/contracts';
import type { TestServer } from '../../testing/harness';
import { SYSTEM } from '../audit/service';
import { createMedicine } from '../medicines/service';
import { receiveBatch } from '../stock/ledger';

/** Test fixtures for the selling modules: medicines and stock through the catalogue's own services. */
let seq = 0;

export async function makeMedicine(
  t: TestServer,
  o: {
    price: number;
    name?: string;
    vat_category?: string;
    max_public_price?: number | null;
    requires_prescription?: boolean;
    is_controlled?: boolean;
  },
): Promise<string> {
  const row = await createMedicine(
    t.context,
    SYSTEM,
    CreateMedicineRequest.parse({
      name: o.name ?? `Medicine ${++seq}`,
      selling_price: o.price,
      max_public_price: o.max_public_price ?? null,
      vat_category: o.vat_category ?? 'standard',
      requires_prescription: o.requires_prescription ?? false,
      is_controlled: o.is_controlled ?? false,
      is_active: true,
      requires_cold_chain: false,
      regulator_registration_no: '',
    }),
  );
  return row.id;
}

export async function addStock(
  t: TestServer,
  medicineId: string,
  quantity: number,
  o: { branchId?: string; expiry?: string; batch?: string; unitCost?: number } = {},
): Promise<string> {
  const branchId = o.branchId ?? (await t.mainBranchId());
  return t.context.db.transaction().execute(async (trx) => {
    const { batch } = await receiveBatch(trx, {
      branchId,
      medicineId,
      batchNumber: o.batch ?? `B${++seq}`,
      expiryDate: o.expiry ?? '2099-12-31',
      quantity,
      unitCost: o.unitCost ?? 100,
      reference: { type: 'test', id: 'fixture' },
      userId: null,
    });
    return batch.id;
  });
}

export async function onHand(t: TestServer, batchId: string): Promise<number> {
  const row = await t.context.db
    .selectFrom('batches')
    .select('qty_on_hand')
    .where('id', '=', batchId)
    .executeTakeFirstOrThrow();
  return row.qty_on_hand;
}

export async function openSessionFor(t: TestServer, token: string, float = 100): Promise<string> {
  const res = await t.post<{ id: string }>('/api/v1/sessions/open', { opening_float: float }, token);
  if (res.status !== 201) throw new Error(`open session: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
