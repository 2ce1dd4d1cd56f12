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
}

export interface ApprovalTables {
  approvals: ApprovalsTable;
}
