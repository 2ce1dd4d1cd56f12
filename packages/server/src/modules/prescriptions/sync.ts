import type { EntityRegistration } from '../sync/registry';

/**
 * Replication of prescriptions (docs/CONVENTIONS.md, "Sync"): till-owned, branch-scoped rows, one entity per
 * table, parents first. Prescriptions, their items and will-call entries are upserted as their state changes
 * (status, quantities dispensed, pickup); dispensings and refill reminders are written once. The generic
 * upsert + recordChange applies them on central and on the tills of the branch. Stock itself replicates as the
 * ledger's movements (reference {type: 'dispense' | 'sale', id}).
 */
const prescriptionEntity: EntityRegistration = {
  entity: 'prescription',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'prescriptions',
  order: 300,
};
const prescriptionItemEntity: EntityRegistration = {
  entity: 'prescription_item',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'prescription_items',
  order: 301,
};
const willCallEntity: EntityRegistration = {
  entity: 'will_call',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'will_calls',
  order: 302,
};
const dispensingEntity: EntityRegistration = {
  entity: 'dispensing',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'dispensings',
  order: 303,
};
const refillReminderEntity: EntityRegistration = {
  entity: 'refill_reminder',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'refill_reminders',
  order: 304,
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const prescriptionsEntities: readonly EntityRegistration[] = [
  prescriptionEntity,
  prescriptionItemEntity,
  willCallEntity,
  dispensingEntity,
  refillReminderEntity,
];
