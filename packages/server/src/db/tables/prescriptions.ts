/** Tables of 0007_prescriptions: prescriptions, items, dispensings (prescription book), will-call, refill reminders. */

export type StoredPrescriptionStatus = 'active' | 'partially_dispensed' | 'ready' | 'dispensed' | 'cancelled';

export interface PrescriptionsTable {
  id: string;
  branch_id: string;
  /** A customers.id when the selling module's customers exist; plain text, no foreign key. */
  customer_id: string | null;
  patient_name: string;
  patient_id_number: string;
  patient_phone: string;
  prescriber_name: string;
  prescriber_licence_no: string;
  prescriber_facility: string;
  issue_date: string;
  valid_until: string;
  status: StoredPrescriptionStatus;
  notes: string;
  cancel_reason: string | null;
  cancelled_at: string | null;
  cancelled_by: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface PrescriptionItemsTable {
  id: string;
  prescription_id: string;
  /** The prescription's branch (replication scope). */
  branch_id: string;
  line_no: number;
  medicine_id: string;
  /** Units per fill. */
  quantity: number;
  dosage: string;
  refills_allowed: number;
  refills_used: number;
  /** Units dispensed in the current fill. */
  dispensed_quantity: number;
  total_dispensed: number;
}

export interface DispensingsTable {
  id: string;
  dispense_id: string;
  prescription_id: string;
  prescription_item_id: string;
  branch_id: string;
  medicine_id: string;
  quantity: number;
  fill_number: number;
  source: 'dispense' | 'sale';
  /** sales.id of the selling module; plain text, no foreign key. */
  sale_id: string | null;
  pharmacist_id: string | null;
  will_call_id: string | null;
  notes: string;
  created_at: string;
  /** When the prepared goods went back to stock uncollected (the line no longer counts as dispensed). */
  reversed_at: string | null;
}

export interface WillCallsTable {
  id: string;
  prescription_id: string;
  branch_id: string;
  bin_location: string;
  notes: string;
  status: 'waiting' | 'picked_up' | 'returned';
  placed_by: string | null;
  placed_at: string;
  collected_by_name: string | null;
  collector_relationship: string | null;
  collector_id_number: string | null;
  picked_up_by: string | null;
  picked_up_at: string | null;
  /** The sale that paid for the pickup (null for a hand-over recorded at dispensing or before 0025). */
  sale_id: string | null;
  returned_by: string | null;
  returned_at: string | null;
  return_reason: string | null;
}

export interface RefillRemindersTable {
  id: string;
  branch_id: string;
  customer_id: string | null;
  prescription_id: string | null;
  patient_name: string;
  medicine_id: string;
  due_date: string;
  contact: string;
  notes: string;
  created_by: string | null;
  created_at: string;
}

export interface PrescriptionTables {
  prescriptions: PrescriptionsTable;
  prescription_items: PrescriptionItemsTable;
  dispensings: DispensingsTable;
  will_calls: WillCallsTable;
  refill_reminders: RefillRemindersTable;
}
