/** Catalogue and stock: categories, medicines, suppliers, batches, purchases, transfers, counts, alerts, images. */
export * from './categories';
export * from './medicines';
export * from './suppliers';
export * from './stock';
