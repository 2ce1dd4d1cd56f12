export interface SupplierInvoicesTable {
  id: string;
  supplier_id: string;
  branch_id: string;
  invoice_no: string;
  /** Minor units of the base currency. */
  total_amount: number;
  paid_amount: number;
  status: 'unpaid' | 'partial' | 'paid';
  due_date: string | null;
  notes: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface SupplierPaymentsTable {
  id: string;
  invoice_id: string;
  branch_id: string;
  amount: number;
  method: string;
  reference: string;
  paid_by: string | null;
  paid_at: string;
}

export interface SupplierFinanceTables {
  supplier_invoices: SupplierInvoicesTable;
  supplier_payments: SupplierPaymentsTable;
}
