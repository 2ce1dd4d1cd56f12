import { registerEntity } from '../sync/registry';

/** Parked carts: recalled at any till of the branch; upserted as they move parked -> recalled | voided. */
registerEntity({
  entity: 'parked_cart',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'parked_carts',
  order: 220,
});
