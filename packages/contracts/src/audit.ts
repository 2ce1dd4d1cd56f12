import { z } from 'zod';
import { Id, PageQuery, Timestamp } from './common';

export const AuditEntry = z.object({
  id: z.string(),
  user_id: z.string().nullable(),
  user_name: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  branch_id: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  request_id: z.string().nullable(),
  created_at: Timestamp,
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditListQuery = PageQuery.extend({
  entity: z.string().max(64).optional(),
  entity_id: z.string().max(64).optional(),
  action: z.string().max(64).optional(),
  user_id: Id.optional(),
  branch_id: Id.optional(),
  from: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).optional(),
  to: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).optional(),
});
