import { Settings } from '@pharmacy/contracts';
import { nowIso } from '../../lib/time';
import type { EntityRegistration } from '../sync/registry';
import { invalidateSettings, writeSettingsRow } from './service';

const settingsEntity: EntityRegistration = {
  entity: 'settings',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  label: 'Settings',
  rest: [{ method: 'put', path: '/settings' }],
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
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const settingsEntities: readonly EntityRegistration[] = [settingsEntity];
