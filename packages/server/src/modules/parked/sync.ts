import { ParkedCartPayload } from '@pharmacy/contracts';
import type { EntityRegistration } from '../sync/registry';

/** Parked carts: recalled at any till of the branch; upserted as they move parked -> recalled | voided. */
const parkedCartEntity: EntityRegistration = {
  entity: 'parked_cart',
  push: 'till-owned',
  payloadSchema: ParkedCartPayload,
  owner: 'till',
  scope: 'branch',
  table: 'parked_carts',
  order: 220,
  rest: [
    { method: 'post', path: '/parked' },
    { method: 'post', path: '/parked/:parkedId/recall' },
    { method: 'post', path: '/parked/:parkedId/void' },
  ],
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const parkedEntities: readonly EntityRegistration[] = [parkedCartEntity];
