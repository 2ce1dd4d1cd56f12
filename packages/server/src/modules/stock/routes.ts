import type { ApiRouter } from '../../http/route';
import { alertRoutes } from '../alerts/routes';
import { categoryRoutes } from '../categories/routes';
import { imageRoutes } from '../images/routes';
import { medicineRoutes } from '../medicines/routes';
import { purchaseRoutes } from '../purchases/routes';
import { stockCountRoutes } from '../stockcount/routes';
import { supplierRoutes } from '../suppliers/routes';
import { transferRoutes } from '../transfers/routes';

/** The catalogue and stock areas: categories, medicines, suppliers, purchases, transfers, counts, alerts, images. */
export function catalogueRoutes(r: ApiRouter): void {
  categoryRoutes(r);
  medicineRoutes(r);
  supplierRoutes(r);
  purchaseRoutes(r);
  transferRoutes(r);
  stockCountRoutes(r);
  alertRoutes(r);
  imageRoutes(r);
}
