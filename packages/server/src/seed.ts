import { Settings } from '@pharmacy/contracts';
import type { AppContext } from './app-context';
import { SYSTEM, writeAudit } from './modules/audit/service';
import { createBranch } from './modules/branches/service';
import { seedCurrencies } from './modules/currency/service';
import { invalidateSettings, writeSettingsRow } from './modules/settings/service';
import { createUser } from './modules/users/service';

export const DEFAULT_ADMIN_PASSWORD = 'Admin#12345';
export const DEFAULT_PHARMACIST_PASSWORD = 'Pharm#12345';

/**
 * First start on an empty database: the currency registry, default settings, "Main Branch" and its admin and
 * pharmacist. One transaction, so a crash half-way leaves an empty database that seeds again next start.
 */
export async function seedIfEmpty(app: AppContext): Promise<boolean> {
  const existing = await app.db.selectFrom('branches').select('id').limit(1).executeTakeFirst();
  if (existing) return false;
  const { seed } = app.config;
  await app.db.transaction().execute(async (trx) => {
    await seedCurrencies(trx);
    await writeSettingsRow(trx, Settings.parse({}), null);
    app.cache.set('settings', { value: Settings.parse({}), updated_at: null });
    const branch = await createBranch(
      app,
      SYSTEM,
      { name: 'Main Branch', code: 'MAIN', address: '', phone: '', vat_number: '', is_active: true },
      trx,
    );
    const users = [
      {
        email: seed.adminEmail,
        password: seed.adminPassword,
        full_name: 'Administrator',
        role: 'admin' as const,
        fallback: DEFAULT_ADMIN_PASSWORD,
      },
      {
        email: seed.pharmacistEmail,
        password: seed.pharmacistPassword,
        full_name: 'Pharmacist',
        role: 'pharmacist' as const,
        fallback: DEFAULT_PHARMACIST_PASSWORD,
      },
    ];
    for (const u of users) {
      await createUser(
        app,
        null,
        SYSTEM,
        {
          email: u.email.toLowerCase(),
          password: u.password,
          full_name: u.full_name,
          phone: '',
          role: u.role,
          branch_id: branch.id,
        },
        { trx, mustChangePassword: u.password === u.fallback },
      );
    }
    await writeAudit(trx, SYSTEM, {
      action: 'system.seed',
      entity: 'system',
      entityId: null,
      branchId: branch.id,
    });
  });
  invalidateSettings(app);
  return true;
}
