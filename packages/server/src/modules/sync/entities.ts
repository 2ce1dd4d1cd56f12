import { BRANCH_BOUND_ROLES, Settings } from '@pharmacy/contracts';
import type { BranchesTable, UsersTable } from '../../db/schema';
import { nowIso } from '../../lib/time';
import { writeBranch } from '../branches/service';
import { invalidateSettings, writeSettingsRow } from '../settings/service';
import { authoriseOwnPasswordChange } from '../users/password-sync';
import { writeUser } from '../users/service';
import { registerEntity } from './registry';

/**
 * The foundation's replicated entities. Feature modules register theirs the same way, in their own
 * `modules/<area>/sync.ts`, imported at the end of this file (see docs/CONVENTIONS.md, "Sync").
 */
registerEntity({
  entity: 'currency',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'currencies',
  key: 'code',
  order: 10,
  afterApply: (app) => {
    for (const k of [...app.cache.keys()]) if (k.startsWith('exponent:')) app.cache.delete(k);
  },
});

registerEntity({
  entity: 'branch',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'branches',
  order: 20,
  write: (trx, payload) => writeBranch(trx, payload as unknown as BranchesTable),
});

registerEntity({
  entity: 'settings',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'settings',
  key: 'key',
  order: 30,
  fromRow: (row) => JSON.parse(String(row.value)) as Record<string, unknown>,
  toRow: (payload) => ({
    key: 'organisation',
    value: JSON.stringify(Settings.parse(payload)),
    updated_at: nowIso(),
    updated_by: null,
  }),
  write: async (trx, payload) => {
    await writeSettingsRow(trx, Settings.parse(payload), null);
  },
  afterApply: invalidateSettings,
});

registerEntity({
  entity: 'user',
  push: authoriseOwnPasswordChange,
  owner: 'central',
  scope: 'branch',
  table: 'users',
  order: 40,
  // Branch-bound users of the device's branch, and every organisation-wide user (userScope).
  snapshotWhere: `branch_id = ? OR role NOT IN (${BRANCH_BOUND_ROLES.map((r) => `'${r}'`).join(', ')})`,
  write: (trx, payload) => writeUser(trx, payload as unknown as UsersTable),
});

registerEntity({
  entity: 'exchange_rate',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'exchange_rates',
  order: 50,
});

// Feature modules' replicated entities (parents first by each registration's `order`).
import '../categories/sync';
import '../medicines/sync';
import '../suppliers/sync';
import '../coupons/sync';
import '../images/sync';
import '../stock/sync';
import '../transfers/sync';
import '../stockcount/sync';
import '../customers/sync';
import '../sessions/sync';
import '../sales/sync';
import '../returns/sync';
import '../parked/sync';
import '../prescriptions/sync';
