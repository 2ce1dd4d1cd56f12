import { ADMIN, NEW_ADMIN_PASSWORD, type Till } from './fixtures';

/** Test setup through the HTTP API: users, medicines with barcodes and stock, customers, sessions. */
export class Api {
  private constructor(
    private readonly till: Till,
    readonly token: string,
    readonly branchId: string,
  ) {}

  static async login(till: Till, user: { email: string; password: string }): Promise<Api> {
    const res = await fetch(`${till.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user),
    });
    if (!res.ok) throw new Error(`login ${user.email}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { access_token: string; branch_id: string };
    return new Api(till, body.access_token, body.branch_id);
  }

  /**
   * The seeded admin for set-up through the API. The server answers nothing else until the seeded password is
   * replaced, so the first call replaces it with NEW_ADMIN_PASSWORD, as the till makes the admin do at first
   * sign-in; later calls sign in with that.
   */
  static async admin(till: Till): Promise<Api> {
    const mine = { email: ADMIN.email, password: NEW_ADMIN_PASSWORD };
    const attempt = await fetch(`${till.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(mine),
    });
    if (attempt.ok) return Api.login(till, mine);
    const seeded = await Api.login(till, ADMIN);
    await seeded.call('POST', '/auth/change-password', {
      current_password: ADMIN.password,
      new_password: NEW_ADMIN_PASSWORD,
    });
    return Api.login(till, mine);
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.till.url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (res.status === 204 ? undefined : await res.json()) as T;
  }

  /**
   * Creates a user and signs them in once to replace the password their creator set (the server requires it
   * before anything else), so tests sign in with `user.password` as a returning user.
   */
  async createUser(user: { email: string; password: string; full_name: string; role: string }) {
    const setByAdmin = `Set-by-admin#${user.password}`;
    const created = await this.call<{ id: string }>('POST', '/users', {
      ...user,
      password: setByAdmin,
      branch_id: this.branchId,
    });
    const first = await Api.login(this.till, { email: user.email, password: setByAdmin });
    await first.call('POST', '/auth/change-password', {
      current_password: setByAdmin,
      new_password: user.password,
    });
    return created;
  }

  async supplier(): Promise<string> {
    const s = await this.call<{ id: string }>('POST', '/suppliers', { name: 'E2E Distributors' });
    return s.id;
  }

  /** A medicine with a barcode and, when `stock` > 0, a batch received from `supplierId`. */
  async medicine(
    supplierId: string,
    m: {
      name: string;
      barcode: string;
      price: number;
      stock: number;
      generic_name?: string;
      strength?: string;
      form?: string;
      vat_category?: string;
      requires_prescription?: boolean;
      is_controlled?: boolean;
    },
  ): Promise<string> {
    const { price, stock, ...fields } = m;
    const created = await this.call<{ id: string }>('POST', '/medicines', {
      ...fields,
      selling_price: price,
    });
    if (stock > 0) {
      const expiry = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
      await this.call('POST', '/purchases', {
        medicine_id: created.id,
        supplier_id: supplierId,
        batch_number: `E2E-${m.barcode.slice(-5)}`,
        expiry_date: expiry,
        qty_received: stock,
        unit_cost: Math.round(price * 50) / 100,
      });
    }
    return created.id;
  }
}
