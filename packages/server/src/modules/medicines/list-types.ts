import type { MedicineSort } from '@pharmacy/contracts';
import type { MedicinesTable } from '../../db/tables/medicines';

/** The back office's Medicines table without search, barcode or stock filters. */
export interface BrowseFilter {
  page: number;
  page_size: number;
  category?: string;
  is_active: 'true' | 'false' | 'all';
  requires_prescription?: boolean;
  is_controlled?: boolean;
  sort: MedicineSort;
  order: 'asc' | 'desc';
}

/** A medicine's row with the branch's sellable stock. */
export type MedicineWithStock = MedicinesTable & { stock_quantity: number };

/** A page of ids, with how many match. */
export interface IdPage {
  ids: string[];
  total: number;
}

/** A medicine of a page sorted by stock, with that stock. */
export interface StockRow {
  id: string;
  stock: number;
}

/** The list's conditions on the catalogue itself (its total, the stock filters aside). */
export interface CatalogueFilter {
  search?: string;
  barcode?: string;
  category?: string;
  is_active: 'true' | 'false' | 'all';
  requires_prescription?: boolean;
  is_controlled?: boolean;
}
