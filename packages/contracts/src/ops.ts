import { z } from 'zod';
import { Id, OptionalText, PageQuery, Text, Timestamp } from './common';

export const APPROVAL_KINDS = [
  'price_override',
  'discount',
  'return_without_receipt',
  'void',
  'stock_variance',
] as const;
export const ApprovalKind = z.enum(APPROVAL_KINDS);
export type ApprovalKind = z.infer<typeof ApprovalKind>;

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'used'] as const;
export const ApprovalStatus = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

/** What the approval is for: a small flat object (sale id, line, amounts…), at most 30 keys. */
const ApprovalPayload = z
  .record(z.string().max(64), z.union([z.string().max(500), z.number().finite(), z.boolean(), z.null()]), {
    message: 'must be an object of strings, numbers, booleans or null',
  })
  .refine((p) => Object.keys(p).length <= 30, { message: 'must have at most 30 keys' });

export const Approval = z.object({
  id: z.string(),
  branch_id: z.string(),
  kind: ApprovalKind,
  payload: z.record(z.string(), z.unknown()),
  reason: z.string(),
  status: ApprovalStatus,
  is_expired: z
    .boolean()
    .describe('pending or approved past expires_at: it can no longer be decided or used'),
  requested_by: z.string(),
  requested_by_name: z.string().nullable(),
  decided_by: z.string().nullable(),
  decided_by_name: z.string().nullable(),
  decision_reason: z.string().nullable(),
  decided_at: Timestamp.nullable(),
  used_by: z.string().nullable(),
  used_at: Timestamp.nullable(),
  expires_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Approval = z.infer<typeof Approval>;

export const CreateApprovalRequest = z
  .object({
    kind: ApprovalKind,
    payload: ApprovalPayload.default({}),
    reason: Text(500),
  })
  .strict();

export const DecideApprovalRequest = z
  .object({
    status: z.enum(['approved', 'rejected'], { message: 'must be approved or rejected' }),
    reason: Text(500),
  })
  .strict();

export const ApprovalParams = z.object({ approvalId: Id });

export const ApprovalListQuery = PageQuery.extend({
  status: z
    .enum([...APPROVAL_STATUSES, 'all'], { message: 'must be pending, approved, rejected, used or all' })
    .default('pending'),
  kind: ApprovalKind.optional(),
  branch_id: Id.optional(),
});

export const CHANGELOG_KINDS = ['release', 'feature', 'fix', 'organisation', 'announcement'] as const;
export const ChangelogKind = z.enum(CHANGELOG_KINDS);
export type ChangelogKind = z.infer<typeof ChangelogKind>;

export const ChangelogEntry = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  version: z.string().nullable(),
  kind: ChangelogKind,
  created_by: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: Timestamp,
});

export const CreateChangelogRequest = z
  .object({
    title: Text(200),
    body: OptionalText(20_000).default(''),
    version: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z][0-9A-Za-z.+-]{0,39}$/, { message: 'must be a version such as 1.4.0' })
      .nullable()
      .default(null),
    kind: ChangelogKind.default('release'),
  })
  .strict();

export const ChangelogListQuery = PageQuery.extend({ kind: ChangelogKind.optional() });
