import type { Db } from '../../db/connection';
import { Conflict } from '../../lib/errors';
import type { Payload, PushedChange, Pusher } from '../sync/registry';

/**
 * A hand-over is a sale (issue 27.1): goods a prescription names leave the pharmacy only through a paid sale
 * linked to it (Sell with the prescription, or the will-call entry's pickup sale). A dispensing prepares them
 * for the will-call shelf and hands nothing over. One rule for the dispense route and for a till's push.
 */
export const HANDOVER_NEEDS_SALE = 'HANDOVER_NEEDS_SALE';

export const handOverNeedsSale = () =>
  new Conflict(
    'Hand over through Sell: a hand-over is a sale (the prescription is linked to it)',
    HANDOVER_NEEDS_SALE,
  );

/** POST /prescriptions/{id}/dispense: a collector named means a hand-over, which only a sale makes. */
export function assertDispenseHandsNothingOver(input: { collected_by?: unknown }): void {
  if (input.collected_by !== undefined && input.collected_by !== null) throw handOverNeedsSale();
}

/** A will-call entry as a push carries it, or as central holds it. */
interface EntryState {
  status?: unknown;
  sale_id?: unknown;
}

const handedOverWithoutSale = (e: EntryState) => e.status === 'picked_up' && !e.sale_id;

/** The push rule of a will-call entry (gate step 5): picked up only by the sale that paid for it. */
export async function authoriseWillCall(_trx: Db, change: PushedChange): Promise<void> {
  if (change.op === 'upsert' && handedOverWithoutSale(change.payload)) throw handOverNeedsSale();
}

/** The entry as the same push carries it (the till sends an entry before the dispensings that point at it). */
function entryInPush(pusher: Pusher, id: string): EntryState | undefined {
  let found: EntryState | undefined;
  for (const raw of pusher.batch ?? []) {
    const c = raw as { entity?: unknown; entity_id?: unknown; payload?: unknown };
    if (c.entity === 'will_call' && c.entity_id === id && c.payload && typeof c.payload === 'object')
      found = c.payload as EntryState;
  }
  return found;
}

/**
 * The push rule of a dispensing (gate step 5). One that names a will-call entry without a sale of its own: the
 * entry (central's, else the same push's) must not have been handed over without a sale, and must be one central
 * holds (an entry is sent before the dispensings that point at it, so one central lacks was refused).
 */
export async function authoriseDispensing(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  if (change.op !== 'upsert') return;
  const payload: Payload = change.payload;
  const willCallId = payload.will_call_id;
  if (payload.sale_id || typeof willCallId !== 'string' || willCallId === '') return;
  const held = await trx
    .selectFrom('will_calls')
    .select(['status', 'sale_id'])
    .where('id', '=', willCallId)
    .executeTakeFirst();
  const entry = held ?? entryInPush(pusher, willCallId);
  if (!entry)
    throw new Conflict(
      `This dispensing names will-call entry ${willCallId}, which head office does not hold: an entry is sent before the dispensings that point at it.`,
      'WILL_CALL_UNKNOWN',
    );
  if (handedOverWithoutSale(entry)) throw handOverNeedsSale();
}
