import { Api } from './api';
import type { Till } from './fixtures';

export const MANAGER = {
  email: 'maria.manager@pharmacy.local',
  password: 'Maria#2026-branch',
  full_name: 'Maria Manager',
};

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export interface Movement {
  type: string;
  quantity: number;
  batch_id: string;
  batch_number: string;
  branch_id: string;
  reference_type: string | null;
  reference_id: string | null;
}

/** Set-up and read-back through the HTTP API for the purchasing, transfer and stock count specs. */
export class PurchasingApi {
  private constructor(
    readonly admin: Api,
    private readonly till: Till,
  ) {}

  static async start(till: Till): Promise<PurchasingApi> {
    return new PurchasingApi(await Api.admin(till), till);
  }

  get branchId(): string {
    return this.admin.branchId;
  }

  supplier(name: string, fields: Record<string, unknown> = {}) {
    return this.admin.call<{ id: string }>('POST', '/suppliers', { name, ...fields });
  }

  /** A medicine with a reorder level, and `stock` units received from `supplierId` at `cost` in `branchId`. */
  async medicine(
    m: { name: string; barcode: string; threshold: number; stock: number; cost: number; batch?: string },
    supplierId: string,
    branchId = this.branchId,
  ): Promise<string> {
    const created = await this.admin.call<{ id: string }>('POST', '/medicines', {
      name: m.name,
      barcode: m.barcode,
      selling_price: m.cost * 2,
      low_stock_threshold: m.threshold,
    });
    if (m.stock > 0)
      await this.receive(
        created.id,
        supplierId,
        m.stock,
        m.cost,
        m.batch ?? `B-${m.barcode.slice(-4)}`,
        inDays(300),
        branchId,
      );
    return created.id;
  }

  receive(
    medicineId: string,
    supplierId: string,
    qty: number,
    cost: number,
    batch: string,
    expiry: string,
    branchId = this.branchId,
  ) {
    return this.admin.call<{ id: string }>('POST', '/purchases', {
      medicine_id: medicineId,
      supplier_id: supplierId,
      branch_id: branchId,
      batch_number: batch,
      expiry_date: expiry,
      qty_received: qty,
      unit_cost: cost,
    });
  }

  branch(name: string, code: string) {
    return this.admin.call<{ id: string }>('POST', '/branches', { name, code });
  }

  manager() {
    return this.admin.createUser({ ...MANAGER, role: 'branch_manager' });
  }

  /** A user of `branchId`, past the first sign-in's password change, who signs in with `user.password`. */
  async userIn(branchId: string, user: { email: string; password: string; full_name: string; role: string }) {
    const setByAdmin = `Set-by-admin#${user.password}`;
    await this.admin.call('POST', '/users', { ...user, password: setByAdmin, branch_id: branchId });
    const first = await Api.login(this.till, { email: user.email, password: setByAdmin });
    await first.call('POST', '/auth/change-password', {
      current_password: setByAdmin,
      new_password: user.password,
    });
  }

  quarantine(batchId: string) {
    return this.admin.call('POST', `/supplier-finance/batches/${batchId}/quarantine`, {
      status: 'quarantined',
    });
  }

  /** Sellable units of a medicine in a branch. */
  async stock(medicineId: string, branchId = this.branchId): Promise<number> {
    const m = await this.admin.call<{ stock_quantity: number }>(
      'GET',
      `/medicines/${medicineId}?branch_id=${branchId}`,
    );
    return m.stock_quantity;
  }

  /** The ledger of a medicine in a branch, oldest first. */
  async movements(medicineId: string, branchId = this.branchId): Promise<Movement[]> {
    const page = await this.admin.call<{ items: Movement[] }>(
      'GET',
      `/purchases/movements/all?medicine_id=${medicineId}&branch_id=${branchId}&page_size=200`,
    );
    return page.items.reverse();
  }

  batches(medicineId: string, branchId = this.branchId) {
    return this.admin.call<{
      items: Array<{ id: string; batch_number: string; expiry_date: string; qty_on_hand: number }>;
    }>('GET', `/purchases?medicine_id=${medicineId}&branch_id=${branchId}&page_size=200`);
  }

  call<T>(method: string, path: string, body?: unknown) {
    return this.admin.call<T>(method, path, body);
  }
}
