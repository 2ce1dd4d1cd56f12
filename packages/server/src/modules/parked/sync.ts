import { registerEntity } from '../sync/registry';

/** Parked carts: recalled at any till of the branch; upserted as they move parked -> recalled | voided. */
registerEntity({ entity: 'parked_cart', owner: 'till', scope: 'branch', table: 'parked_carts', order: 220 });
