import { baseExponent } from '../currency/service';
import { CreateMedicineRequest, CreateSupplierRequest } from '@pharmacy/contracts';
import demo from '../../../../../resources/demo-catalogue.json' with { type: 'json' };
import type { AppContext } from '../../app-context';
import { newId } from '../../lib/ids';
import { toMinor } from '../../lib/money';
import { SYSTEM, writeAudit } from '../audit/service';
import { createCategory } from '../categories/service';
import { createMedicine } from '../medicines/service';
import { addDays } from '@pharmacy/contracts/time';
import { branchToday } from '../stock/ledger';
import { receiveBatch } from '../stock/receive';
import { createSupplier } from '../suppliers/service';
import { skipDemoChanges } from '../sync/held-records';

interface DemoFile {
  categories: Array<{ name: string }>;
  suppliers: Array<Record<string, unknown> & { name: string }>;
  medicines: Array<
    Record<string, unknown> & {
      name: string;
      stock: Array<{
        batch_number: string;
        expires_in_days: number;
        qty: number;
        unit_cost: number;
        supplier: string;
      }>;
    }
  >;
}

/**
 * Fills an empty catalogue with ~50 medicines (a few controlled and prescription-only), three suppliers and
 * stock in Main Branch, so a fresh till is usable at once. Idempotent: does nothing (returns false) once any
 * medicine exists. One transaction through the same services as the API, so everything is audited and
 * replicated like hand-entered data.
 */
export async function loadSmallDemoCatalogue(app: AppContext): Promise<boolean> {
  const any = await app.db.selectFrom('medicines').select('id').limit(1).executeTakeFirst();
  if (any) return false;
  const main = await app.db.selectFrom('branches').select('id').where('code', '=', 'MAIN').executeTakeFirst();
  const branch =
    main ??
    (await app.db.selectFrom('branches').select('id').orderBy('created_at').limit(1).executeTakeFirst());
  if (!branch) return false;
  // Read cached values before the transaction: inside it only `trx` may be queried.
  const exponent = await baseExponent(app);
  const today = await branchToday(app.db, branch.id);
  const data = demo as DemoFile;
  return app.db.transaction().execute(async (trx) => {
    if (await trx.selectFrom('medicines').select('id').limit(1).executeTakeFirst()) return false;
    const existing = new Set(
      (await trx.selectFrom('categories').select('name').execute()).map((c) => c.name),
    );
    for (const c of data.categories) if (!existing.has(c.name)) await createCategory(app, SYSTEM, c, trx);
    const suppliers = new Map<string, string>();
    for (const s of data.suppliers) {
      const created = await createSupplier(app, SYSTEM, CreateSupplierRequest.parse(s), trx);
      suppliers.set(s.name, created.id);
    }
    const receipt = newId();
    for (const m of data.medicines) {
      const { stock, ...fields } = m;
      const row = await createMedicine(app, SYSTEM, CreateMedicineRequest.parse(fields), trx);
      for (const b of stock) {
        await receiveBatch(trx, {
          branchId: branch.id,
          medicineId: row.id,
          batchNumber: b.batch_number,
          expiryDate: addDays(today, b.expires_in_days),
          quantity: b.qty,
          unitCost: toMinor(b.unit_cost, exponent, 'unit_cost'),
          supplierId: suppliers.get(b.supplier) ?? null,
          movementType: 'purchase',
          reference: { type: 'demo_catalogue', id: receipt },
          userId: null,
          reason: 'demo catalogue',
        });
      }
    }
    await writeAudit(trx, SYSTEM, {
      action: 'demo.catalogue',
      entity: 'system',
      entityId: receipt,
      branchId: branch.id,
      after: { medicines: data.medicines.length, suppliers: data.suppliers.length },
    });
    // Sample stock of a fresh till: never sent to head office, should the till connect (issue 28.2).
    if (app.config.mode === 'till') await skipDemoChanges(trx);
    return true;
  });
}
