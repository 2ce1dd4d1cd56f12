import type { ApprovalKind, ApprovalStatus } from '@pharmacy/contracts';

export interface ApprovalsTable {
  id: string;
  branch_id: string;
  kind: ApprovalKind;
  /** JSON object describing what is to be approved (sale, line, amount…). */
  payload: string;
  reason: string;
  status: ApprovalStatus;
  requested_by: string;
  decided_by: string | null;
  decision_reason: string | null;
  decided_at: string | null;
  used_by: string | null;
  used_at: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
  /** The device (sync_devices id) a till decided it at; null when decided at head office. */
  decided_at_device: string | null;
}

/** Who signed in at which device, when, for which decision (issue 26 H2): what lets a till carry a decision. */
export interface DeviceSignInsTable {
  id: string;
  branch_id: string;
  /** The till's registered device; null on a till not yet connected to head office. */
  device_id: string | null;
  user_id: string;
  /** The decision it backs: an approval, or a customer's credit terms. */
  approval_id: string | null;
  customer_id: string | null;
  /** override: the manager typed their password at the cashier's till; session: their own sign-in there. */
  method: 'override' | 'session';
  signed_in_at: string;
  created_at: string;
}

export interface ApprovalTables {
  approvals: ApprovalsTable;
  device_sign_ins: DeviceSignInsTable;
}
