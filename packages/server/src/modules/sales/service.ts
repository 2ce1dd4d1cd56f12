import type { CreateSaleRequest, SaleDetail } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { SalesTable } from '../../db/tables/sales';
import type { AuthUser } from '../../http/auth';
import { Conflict } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Actor } from '../audit/service';
import { canonicalJson, sha256Hex } from '../fiscal/chain';
import { getSettings } from '../settings/service';
import { assertBootstrapped } from '../sync/runtime';
import { buildSale } from './create/build';
import { Replay, saleByMutation, writeSale } from './create/write';
import { loadSaleForReceipt } from './read';

/** The request's fingerprint: the same client_mutation_id must always carry the same sale. */
export function payloadHash(userId: string, body: object): string {
  const { client_mutation_id: _, ...rest } = body as Record<string, unknown>;
  return sha256Hex(canonicalJson({ user_id: userId, body: rest }));
}

export interface SaleResult {
  replay: boolean;
  sale: SaleDetail;
}

async function replayOf(
  app: AppContext,
  existing: Pick<SalesTable, 'id' | 'payload_hash'>,
  hash: string,
): Promise<SaleResult> {
  if (existing.payload_hash !== hash)
    throw new Conflict(
      'This client_mutation_id was already used for a different sale; use a new id for a new sale.',
      'MUTATION_ID_REUSED',
    );
  return { replay: true, sale: await loadSaleForReceipt(app, existing.id) };
}

/**
 * POST /sales in three phases: a replayed client_mutation_id answers the sale it made; `buildSale`
 * (create/build.ts, with the line and tender checks of create/lines.ts and create/tenders.ts) reads, checks and
 * prices everything before the transaction; `writeSale` (create/write.ts) writes the sale and all that goes
 * with it in ONE transaction, rolled back whole on any failure.
 */
export async function createSale(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  body: CreateSaleRequest,
): Promise<SaleResult> {
  // A till replicating to central sells only once its first sync has loaded the catalogue and users.
  await assertBootstrapped(app);
  const settings = await getSettings(app);
  const hash = payloadHash(user.id, body);
  const clientMutationId = body.client_mutation_id ?? newId();
  if (body.client_mutation_id) {
    const existing = await saleByMutation.first(app.db, { clientMutationId });
    if (existing) return replayOf(app, existing, hash);
  }
  const plan = await buildSale(app, user, body, settings);
  let answer: () => Promise<SaleDetail>;
  try {
    answer = await writeSale(app, user, actor, plan, { clientMutationId, hash });
  } catch (e) {
    if (e instanceof Replay) return replayOf(app, e.existing, hash);
    throw e;
  }
  return { replay: false, sale: await answer() };
}
