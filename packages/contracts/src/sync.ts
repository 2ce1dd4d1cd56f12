import { z } from 'zod';
import { Id, PageQuery, Text, Timestamp } from './common';
import { SyncPayload } from './sync-payloads';

/** Header carrying the device credential of a registered till (alternative to a user bearer token). */
export const DEVICE_TOKEN_HEADER = 'x-device-token';
/** Header carrying the till app's version; central refuses another major version (426). */
export const APP_VERSION_HEADER = 'x-app-version';

export const SyncOp = z.enum(['upsert', 'delete']);
export type SyncOp = z.infer<typeof SyncOp>;

/** One queued change in a push (spec "Sync push types" plus the sync extensions entity_id, seq, base_revision). */
export const SyncChange = z.object({
  client_mutation_id: z.string().min(1).max(100),
  entity: z.string().min(1).max(64),
  op: SyncOp,
  payload: SyncPayload,
  entity_id: z.string().min(1).max(200).optional().describe('defaults to the entity key field of payload'),
  seq: z.number().int().nonnegative().optional().describe("the device's own monotonic sequence number"),
  base_revision: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .optional()
    .describe('central revision the till had pulled when it made this change (conflict detection)'),
});
export type SyncChange = z.infer<typeof SyncChange>;

export const SyncPushRequest = z.object({
  device_id: z.string({ message: 'device_id is required' }).min(1, { message: 'device_id is required' }),
  changes: z
    .array(z.unknown(), { message: 'changes must be an array of change' })
    .max(1000, { message: 'at most 1000 changes per push' }),
});

export const SyncAcceptedItem = z.object({
  client_mutation_id: z.string(),
  id: z.string(),
  icv: z.number().int().optional(),
  invoice_number: z.string().optional(),
  revision: z.number().int().optional().describe('central revision covering this change'),
});
export type SyncAcceptedItem = z.infer<typeof SyncAcceptedItem>;

export const SyncRejectedItem = z.object({
  client_mutation_id: z.string(),
  code: z.string(),
  message: z.string(),
  conflict_id: z.string().optional(),
});
export type SyncRejectedItem = z.infer<typeof SyncRejectedItem>;

export const SyncPushResponse = z.object({
  accepted: z.array(SyncAcceptedItem),
  rejected: z.array(SyncRejectedItem),
  retry_from: z
    .string()
    .optional()
    .describe('client_mutation_id of the first change not processed (temporary failure); resend from it'),
});
export type SyncPushResponse = z.infer<typeof SyncPushResponse>;

export const SyncPullQuery = z.object({
  device_id: z.string().min(1).max(100),
  since: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(2000).default(500),
  epoch: z.string().max(100).optional().describe('the epoch the till last saw; a different one answers 409'),
});

export const SyncPulledChange = z.object({
  revision: z.number().int(),
  entity: z.string(),
  entity_id: z.string(),
  op: SyncOp,
  payload: z.unknown(),
  branch_id: z.string().nullable(),
});
export type SyncPulledChange = z.infer<typeof SyncPulledChange>;

export const SyncPullResponse = z.object({
  epoch: z.string(),
  changes: z.array(SyncPulledChange),
  next_revision: z.number().int(),
  has_more: z.boolean(),
});
export type SyncPullResponse = z.infer<typeof SyncPullResponse>;

export const SyncSnapshotQuery = z.object({ device_id: z.string().min(1).max(100) });

/** NDJSON lines of GET /sync/snapshot: one header, rows, one end line (a missing end line = truncated). */
export const SnapshotHeader = z.object({
  type: z.literal('header'),
  revision: z.number().int(),
  epoch: z.string(),
  branch_id: z.string(),
  entities: z.array(z.string()),
  /** Rows the snapshot carries (for the till's progress bar); absent from older centrals. */
  total_rows: z.number().int().optional(),
});
export const SnapshotRow = z.object({
  type: z.literal('row'),
  entity: z.string(),
  id: z.string(),
  payload: z.record(z.string(), z.unknown()),
});
export const SnapshotEnd = z.object({ type: z.literal('end'), rows: z.number().int() });
export const SnapshotLine = z.discriminatedUnion('type', [SnapshotHeader, SnapshotRow, SnapshotEnd]);
export type SnapshotLine = z.infer<typeof SnapshotLine>;

export const DeviceStatus = z.enum(['active', 'revoked']);

export const Device = z.object({
  id: z.string(),
  name: z.string(),
  branch_id: z.string(),
  branch_name: z.string().nullable(),
  status: DeviceStatus,
  app_version: z.string().nullable(),
  last_seen_at: Timestamp.nullable(),
  last_push_at: Timestamp.nullable(),
  last_pull_revision: z.number().int().nullable(),
  revoked_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Device = z.infer<typeof Device>;

export const RegisterDeviceRequest = z.object({
  name: Text(80),
  branch_id: Id.optional().describe("defaults to the caller's branch"),
});

export const RegisteredDevice = z.object({
  device_id: z.string(),
  device_token: z.string().describe('shown once; send it as X-Device-Token'),
  device: Device,
});

export const DeviceListQuery = PageQuery.extend({
  branch_id: Id.optional(),
  status: DeviceStatus.optional(),
});

export const ConflictKind = z.enum(['edit_conflict', 'rejected']);
export const ConflictStatus = z.enum(['open', 'resolved']);
/**
 * keep_central, keep_till and merged settle an edit conflict; retry sends a rejected change again (once the
 * record it needed exists); dismiss closes a rejection with a reason, the change never applied.
 */
export const ConflictResolution = z.enum(['keep_central', 'keep_till', 'merged', 'retry', 'dismiss']);
/** What a manager may do about an open review item, in the order the screen offers them. */
export const ConflictAction = z.enum(['retry', 'keep_central', 'keep_till', 'dismiss']);
export type ConflictAction = z.infer<typeof ConflictAction>;

export const SyncConflict = z.object({
  id: z.string(),
  device_id: z.string().nullable(),
  branch_id: z.string().nullable(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  client_mutation_id: z.string().nullable(),
  kind: ConflictKind,
  code: z.string(),
  message: z.string(),
  till_payload: z.unknown(),
  central_payload: z.unknown(),
  base_revision: z.number().int().nullable(),
  central_revision: z.number().int().nullable(),
  status: ConflictStatus,
  resolution: ConflictResolution.nullable(),
  resolved_payload: z.unknown(),
  resolved_by: z.string().nullable(),
  resolved_at: Timestamp.nullable(),
  resolved_revision: z.number().int().nullable(),
  created_at: Timestamp,
  /** Where this review item lives: central's record of a rejected push, or the till's own. */
  side: z.enum(['central', 'till']),
  /** The record in words: "Sale MAIN-3C37-000004, 6.84". */
  title: z.string(),
  /** Why, in words: "rejected: the coupon WELCOME10 is not known at head office". */
  reason: z.string(),
  /** The actions that make sense for it while open (none once resolved). */
  actions: z.array(ConflictAction),
  /** Why it was dismissed (empty otherwise). */
  resolution_note: z.string(),
});
export type SyncConflict = z.infer<typeof SyncConflict>;

export const ConflictListQuery = PageQuery.extend({
  branch_id: Id.optional(),
  status: ConflictStatus.optional(),
  entity: z.string().max(64).optional(),
});

export const ResolveConflictRequest = z
  .object({
    resolution: ConflictResolution,
    payload: z.record(z.string(), z.unknown()).optional(),
    reason: Text(300).optional().describe('why it is dismissed: required with dismiss'),
  })
  .refine((b) => b.resolution !== 'merged' || b.payload !== undefined, {
    message: 'payload is required when resolution is merged',
    path: ['payload'],
  })
  .refine((b) => b.resolution !== 'dismiss' || (b.reason ?? '').trim() !== '', {
    message: 'say why it is dismissed',
    path: ['reason'],
  });

export const SyncStatus = z.object({
  mode: z.enum(['till', 'central']),
  configured: z.boolean(),
  central_url: z.string().nullable(),
  device_id: z.string().nullable(),
  running: z.boolean(),
  online: z.boolean(),
  bootstrapped: z.boolean(),
  last_attempt_at: Timestamp.nullable(),
  last_success_at: Timestamp.nullable(),
  /** When the till last pushed its whole outbox to central, and last pulled central's changes up to date. */
  last_push_at: Timestamp.nullable(),
  last_pull_at: Timestamp.nullable(),
  last_error: z.object({ code: z.string(), message: z.string(), at: Timestamp }).nullable(),
  pending: z.number().int(),
  rejected: z.number().int(),
  open_conflicts: z.number().int(),
  cursor: z.number().int().nullable(),
  epoch: z.string().nullable(),
  /** The till's name and branch as registered (from its credential). */
  device_name: z.string().nullable().optional(),
  branch_id: z.string().nullable().optional(),
  /** While a snapshot loads: rows received of the total central announced (null when it did not). */
  bootstrap_progress: z
    .object({ received: z.number().int(), total: z.number().int().nullable() })
    .nullable()
    .optional(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

const CentralUrl = z
  .string({ message: 'must be a string' })
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(300, { message: 'must be at most 300 characters' })
  .regex(/^https?:\/\/[^\s]+$/i, { message: 'must be a web address such as http://hq.example:8000' });

/** The head office sign-in the Head office screen asks for (never stored: only the device credential is). */
export const CentralSignInRequest = z.object({
  central_url: CentralUrl,
  email: z.string({ message: 'must be a string' }).trim().min(1, { message: 'must not be empty' }).max(254),
  password: z.string({ message: 'must be a string' }).min(1, { message: 'must not be empty' }).max(200),
});
export type CentralSignInRequest = z.infer<typeof CentralSignInRequest>;

export const CentralBranchList = z.object({
  items: z.array(z.object({ id: z.string(), name: z.string(), code: z.string() })),
});

export const ConnectTillRequest = CentralSignInRequest.extend({
  name: Text(80),
  branch_id: Id.optional().describe("central's branch id; default: the signing-in person's branch"),
});
export type ConnectTillRequest = z.infer<typeof ConnectTillRequest>;

/**
 * The business records this till made itself and head office has not received (sales, returns, cash sessions,
 * ledger rows, stock movements of its sales, prescriptions…), as the Head office screen warns of them before
 * connecting. `branch_id` is the branch they belong to when the till holds head office's data (it was
 * connected before): they are sent to head office when the till connects to that branch. null: the till never
 * held head office's data, so they name its own catalogue and staff and must be archived before connecting.
 */
export const HeldRecords = z.object({
  total: z.number().int(),
  sales: z.number().int(),
  returns: z.number().int(),
  cash_sessions: z.number().int(),
  first_invoice: z.string().nullable(),
  last_invoice: z.string().nullable(),
  branch_id: z.string().nullable(),
  /** A cash session still open on this till: it is closed (Z report) before the till connects. */
  open_session: z.boolean(),
});
export type HeldRecords = z.infer<typeof HeldRecords>;

/** The archive made of a till's own records before it connects: a copy of its whole database. */
export const HeldRecordsArchive = z.object({
  file: z.string(),
  archived: HeldRecords,
});
export type HeldRecordsArchive = z.infer<typeof HeldRecordsArchive>;

/** Disconnecting asks for the admin's password: the till keeps a verifier for them to sign in offline. */
export const DisconnectTillRequest = z.object({
  password: z.string({ message: 'must be a string' }).min(1, { message: 'must not be empty' }).max(200),
});
export type DisconnectTillRequest = z.infer<typeof DisconnectTillRequest>;
