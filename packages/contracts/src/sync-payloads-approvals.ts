import { z } from 'zod';
import { ApprovalKind, ApprovalStatus } from './approvals';
import { OptionalText } from './common';
import { RowId, NullableId } from './sync-payload-fields';

/**
 * Approvals and the manager sign-ins that back them, as a till pushes them: see sync-payloads.ts.
 */

/** An approval row: CreateApprovalRequest's kind and reason, a known status. */
export const ApprovalPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  kind: ApprovalKind,
  status: ApprovalStatus,
  reason: OptionalText(500).optional(),
  decision_reason: OptionalText(500).nullable().optional(),
  requested_by: RowId,
  decided_by: NullableId,
  decided_at_device: NullableId,
});

/** A manager's sign-in at a till, backing a decision the till carries for them (issue 26 H2). */
export const DeviceSignInPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  device_id: RowId,
  user_id: RowId,
  approval_id: NullableId,
  customer_id: NullableId,
  method: z.enum(['override', 'session'], { message: 'must be override or session' }),
  signed_in_at: z.string().min(1).max(40),
});
