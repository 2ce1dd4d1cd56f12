import type { ApiRouter } from '../../http/route';
import { couponRoutes } from '../coupons/routes';
import { customerRoutes } from '../customers/routes';
import { parkedRoutes } from '../parked/routes';
import { returnRoutes } from '../returns/routes';
import { sessionRoutes } from '../sessions/routes';
import { registerSellingDocuments } from './print-sources';
import { saleRoutes } from './routes';

/** Selling: sessions, sales, returns, parked carts, coupons, customers (one line in modules/index.ts). */
export function sellingRoutes(r: ApiRouter): void {
  sessionRoutes(r);
  saleRoutes(r);
  returnRoutes(r);
  parkedRoutes(r);
  couponRoutes(r);
  customerRoutes(r);
  registerSellingDocuments();
}
