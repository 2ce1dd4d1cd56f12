import {
  DispensingPayload,
  PrescriptionItemPayload,
  PrescriptionPayload,
  RefillReminderPayload,
  StockReservationPayload,
  WillCallPayload,
} from '@pharmacy/contracts';
import type { EntityRegistration, Reference } from '../sync/registry';
import { authoriseDispensing, authoriseWillCall } from './hand-over';

/**
 * Replication of prescriptions (docs/CONVENTIONS.md, "Sync"): till-owned, branch-scoped rows, one entity per
 * table, parents first. Prescriptions, their items and will-call entries are upserted as their state changes
 * (status, quantities dispensed, pickup); dispensings and refill reminders are written once. The generic
 * upsert + recordChange applies them on central and on the tills of the branch. Stock itself replicates as the
 * ledger's movements (reference {type: 'dispense' | 'sale', id}).
 */
const RX_CREATE = { method: 'post', path: '/prescriptions' } as const;
const RX_DISPENSE = { method: 'post', path: '/prescriptions/:prescriptionId/dispense' } as const;
const OF_PRESCRIPTION: Reference = { field: 'prescription_id', table: 'prescriptions' };
/** A will-call pickup is a sale (issue 27.1); an entry not collected goes back to stock. */
const SALE = { method: 'post', path: '/sales' } as const;
const WILL_CALL_RETURN = { method: 'post', path: '/dispensing/will-call/:willCallId/return' } as const;

const prescriptionEntity: EntityRegistration = {
  entity: 'prescription',
  push: 'till-owned',
  payloadSchema: PrescriptionPayload,
  owner: 'till',
  scope: 'branch',
  table: 'prescriptions',
  order: 300,
  rest: [RX_CREATE, RX_DISPENSE, { method: 'post', path: '/prescriptions/:prescriptionId/cancel' }],
};
const prescriptionItemEntity: EntityRegistration = {
  entity: 'prescription_item',
  push: 'till-owned',
  payloadSchema: PrescriptionItemPayload,
  owner: 'till',
  scope: 'branch',
  table: 'prescription_items',
  order: 301,
  rest: [RX_CREATE, RX_DISPENSE],
  references: [OF_PRESCRIPTION],
};
/** A hand-over is a sale (hand-over.ts): an entry picked up without one, or a dispensing handing one over, is refused. */
const willCallEntity: EntityRegistration = {
  entity: 'will_call',
  push: authoriseWillCall,
  payloadSchema: WillCallPayload,
  owner: 'till',
  scope: 'branch',
  table: 'will_calls',
  order: 302,
  rest: [{ method: 'post', path: '/dispensing/will-call' }, SALE, WILL_CALL_RETURN],
  references: [OF_PRESCRIPTION],
};
const dispensingEntity: EntityRegistration = {
  entity: 'dispensing',
  push: authoriseDispensing,
  payloadSchema: DispensingPayload,
  owner: 'till',
  scope: 'branch',
  table: 'dispensings',
  order: 303,
  rest: [RX_DISPENSE, SALE, WILL_CALL_RETURN],
  references: [
    OF_PRESCRIPTION,
    { field: 'batch_id', table: 'batches' },
    { field: 'sale_id', table: 'sales' },
    { field: 'will_call_id', table: 'will_calls' },
  ],
};
/**
 * Units held for the will-call shelf (stock/reservations.ts): made by a dispensing prepared for the shelf, sold
 * by the pickup's sale, released by a return to stock. Till-owned like the movements they stand for.
 */
const stockReservationEntity: EntityRegistration = {
  entity: 'stock_reservation',
  push: 'till-owned',
  payloadSchema: StockReservationPayload,
  owner: 'till',
  scope: 'branch',
  table: 'stock_reservations',
  order: 305,
  rest: [RX_DISPENSE, SALE, WILL_CALL_RETURN],
  references: [
    OF_PRESCRIPTION,
    { field: 'batch_id', table: 'batches' },
    { field: 'sale_id', table: 'sales' },
  ],
};
const refillReminderEntity: EntityRegistration = {
  entity: 'refill_reminder',
  push: 'till-owned',
  payloadSchema: RefillReminderPayload,
  owner: 'till',
  scope: 'branch',
  table: 'refill_reminders',
  order: 304,
  rest: [{ method: 'post', path: '/dispensing/refills' }],
  references: [OF_PRESCRIPTION],
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const prescriptionsEntities: readonly EntityRegistration[] = [
  prescriptionEntity,
  prescriptionItemEntity,
  willCallEntity,
  dispensingEntity,
  stockReservationEntity,
  refillReminderEntity,
];
