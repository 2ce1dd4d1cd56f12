import { registerEntity } from '../sync/registry';

/**
 * Replication of prescriptions (docs/CONVENTIONS.md, "Sync"): till-owned, branch-scoped rows, one entity per
 * table, parents first. Prescriptions, their items and will-call entries are upserted as their state changes
 * (status, quantities dispensed, pickup); dispensings and refill reminders are written once. The generic
 * upsert + recordChange applies them on central and on the tills of the branch. Stock itself replicates as the
 * ledger's movements (reference {type: 'dispense' | 'sale', id}).
 */
registerEntity({
  entity: 'prescription',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'prescriptions',
  order: 300,
});
registerEntity({
  entity: 'prescription_item',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'prescription_items',
  order: 301,
});
registerEntity({
  entity: 'will_call',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'will_calls',
  order: 302,
});
registerEntity({
  entity: 'dispensing',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'dispensings',
  order: 303,
});
registerEntity({
  entity: 'refill_reminder',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'refill_reminders',
  order: 304,
});
