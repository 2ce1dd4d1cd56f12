import { BRANCH_MANAGERS, OVERSEERS, SELLERS, SYNC_PUSHERS } from '@pharmacy/contracts/roles';
import type { Request, Response } from 'express';
import {
  ConflictListQuery,
  Device,
  DeviceListQuery,
  Id,
  pageOf,
  RegisterDeviceRequest,
  RegisteredDevice,
  ResolveConflictRequest,
  type Role,
  SyncConflict,
  SyncPullQuery,
  SyncPullResponse,
  SyncPushRequest,
  SyncPushResponse,
  SyncSnapshotQuery,
  SyncStatus,
} from '@pharmacy/contracts';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { scopeBranch } from '../../http/auth';
import { AppError, ServiceUnavailable } from '../../lib/errors';
import { type ApiRouter, created, parsePart, type ResponseDoc } from '../../http/route';
import { actorOf } from '../audit/service';
import { listConflicts, resolveConflict } from './conflicts';
import {
  assertAppVersion,
  assertCentral,
  authenticateSync,
  listDevices,
  registerDevice,
  resolveSyncDevice,
  type SyncCaller,
  setDeviceStatus,
} from './devices';
import { pullChanges, streamSnapshot } from './feed';
import type { FeedAudience } from './served';
import { isTemporary, pushChanges } from './push';
import { syncStatus, tillReplicator } from './runtime';
import { createTestSale, TEST_ENTITIES } from './test-entities';
import { connectRoutes } from './connect-routes';

const DeviceParams = z.object({ deviceId: Id });

const ConflictParams = z.object({ id: Id });

const deviceAuth = (roles: readonly Role[]) =>
  `Authenticated by the device credential (header X-Device-Token, issued by POST /sync/devices/register) or by a signed-in ${['admin', ...roles].join(' or ')} (bearer token; a branch-bound user only for a device of their own branch); any other role gets 403. A revoked device gets 403, a device of another branch 403, an unknown device 404. Header X-App-Version with another major version than central answers 426 APP_VERSION_INCOMPATIBLE.`;

/**
 * Pull and snapshot read what the till of a branch holds, password verifiers of its staff included: only the
 * device itself, or an admin (who gets every user row without its password hash), may read them.
 */
const READ_ROLES: readonly Role[] = [];

const audienceOf = (caller: SyncCaller, device: { branch_id: string }): FeedAudience => ({
  kind: caller.kind,
  branchId: device.branch_id,
});

/**
 * A sync route: documented and authorised like r.route (roles admin, cashier), but a device token is accepted
 * instead of a bearer token, so the till replicator runs without a signed-in user.
 */
export function deviceRoute(
  r: ApiRouter,
  app: () => AppContext,
  def: {
    method: 'get' | 'post';
    path: string;
    /** The people's roles that may call it besides a device (admin always may). */
    roles: readonly Role[];
    summary: string;
    description: string;
    body?: z.ZodType;
    query?: z.ZodType;
    responses: Record<number, ResponseDoc>;
    handler: (ctx: {
      app: AppContext;
      caller: SyncCaller;
      input: unknown;
      req: Request;
      res: Response;
    }) => Promise<unknown>;
  },
): void {
  r.docs.push({
    method: def.method,
    path: def.path,
    tag: 'Sync',
    summary: def.summary,
    description: `${def.description}\n\n${deviceAuth(def.roles)}`,
    access: def.roles,
    body: def.body,
    query: def.query,
    responses: def.responses,
  });
  r.routerFor(def.path)[def.method](def.path, async (req: Request, res: Response) => {
    const ctx = app();
    const caller = await authenticateSync(ctx, req, def.roles);
    const input = def.body
      ? parsePart(def.body, req.body ?? {}, 'body')
      : def.query
        ? parsePart(def.query, req.query, 'query')
        : undefined;
    const result = await def.handler({ app: ctx, caller, input, req, res });
    if (result !== undefined && !res.headersSent) res.json(result);
  });
}

export function syncRoutes(r: ApiRouter): void {
  // ApiRouter keeps its context private; sync routes need it outside r.route (device-token auth).
  const context = r.app;
  const appOf = () => context;
  replicationRoutes(r, appOf);
  conflictAndStatusRoutes(r);
  connectRoutes(r);
  deviceAdminRoutes(r);
  // Test-only (PHARMACY_SYNC_TEST_ENTITIES=1): a till-owned record to replicate until selling lands.
  if (TEST_ENTITIES) testEntityRoutes(r, appOf);
}

/** Registration of a till, and the three replication routes a till calls with its device token. */
function replicationRoutes(r: ApiRouter, appOf: () => AppContext): void {
  r.route({
    method: 'post',
    path: '/sync/devices/register',
    tag: 'Sync',
    summary: 'Register a till',
    description:
      "Admin, or a branch manager for their own branch. Registers a till (device) for a branch (default: the caller's) and returns its device_id and device credential. The credential is shown once and stored hashed; the till sends it as X-Device-Token. Central only (409 CENTRAL_ONLY on a till).",
    roles: BRANCH_MANAGERS,
    body: RegisterDeviceRequest,
    responses: {
      201: { description: 'The device and its credential (shown once)', schema: RegisteredDevice },
      403: { description: 'Another branch' },
      404: { description: 'Unknown branch' },
      409: { description: 'Not a central server' },
    },
    handler: async ({ app, user, body, requestId }) => {
      return created(await registerDevice(app, user, actorOf(user, requestId), body));
    },
  });

  deviceRoute(r, appOf, {
    method: 'post',
    path: '/sync/push',
    summary: 'Push queued till changes',
    description:
      "Replays a till's queued changes in order. Each change stands alone: a failing change is rolled back and refused by itself (each in its own savepoint; on a PostgreSQL central a run of sales and stock movements is applied together and, should one fail, again one by one), and its result is stored under (device_id, client_mutation_id) in the same transaction as its effect: a replay answers the stored result unchanged (exactly once); the same id with a different payload is rejected with MUTATION_ID_REUSED. A permanent failure is a rejected item {client_mutation_id, code, message, conflict_id} and a sync_conflicts row, and never blocks the rest of the batch; codes: VALIDATION (a payload the REST body's rules refuse: control characters, lengths, enums, numbers; nested deeper than 16 levels), UNKNOWN_ENTITY, CENTRAL_ONLY (head office's data: catalogue, prices, coupons, suppliers, supplier finance, announcements, users, settings, currencies; refused whoever pushes it), OTHER_BRANCH (a row of another branch than the device's, named or already stored), FORBIDDEN_ROLE (a record a till may change through REST, such as an approval decision, a purchase order or a batch, naming someone who could not have made the change there: unknown, inactive, another branch or a role the route does not allow; a person's bearer token pushes as that person: a role the entity's REST routes allow, and only their own name in every *_by field; a ledger row, coupon redemption or regulator status that no document or decision of the branch backs), ENTITY_ID_MISMATCH (entity_id is not the payload's key), BAD_BASE_REVISION (a base_revision ahead of central, for any entity), CONFLICT (a central-owned row changed since the till's base_revision), IMMUTABLE, CONSTRAINT (a database rule; its message names, where it can, the record the change names that head office lacks, or the sale already holding the till's invoice counter), MUTATION_ID_REUSED, APPLY_FAILED or the entity's own code. A temporary failure (database busy) stops the batch: the answer lists what was applied and retry_from names the first change to resend. Accepted items carry the central revision covering them and, for fiscal documents, invoice_number and icv. Error bodies are problem+json with detail. 400 without device_id or a changes array.",
    body: SyncPushRequest,
    roles: SYNC_PUSHERS,
    responses: {
      200: { description: 'Per-change results', schema: SyncPushResponse },
      404: { description: 'Unknown device' },
      426: { description: 'APP_VERSION_INCOMPATIBLE' },
      503: { description: 'Temporary failure before anything was applied: retry the whole batch' },
    },
    handler: async ({ app, caller, input, req }) => {
      const body = input as z.output<typeof SyncPushRequest>;
      const device = await resolveSyncDevice(app, caller, body.device_id);
      const version = assertAppVersion(req);
      assertCentral(app);
      try {
        return await pushChanges(app, device, caller.user, body.changes, version);
      } catch (err) {
        if (isTemporary(err))
          throw new ServiceUnavailable('Central is busy; retry the batch shortly.', 'TEMPORARY');
        throw err;
      }
    },
  });

  deviceRoute(r, appOf, {
    method: 'get',
    path: '/sync/pull',
    roles: READ_ROLES,
    summary: 'Pull central changes since a revision',
    description:
      "Changes with revision strictly greater than `since`, ascending, scoped to the device's branch plus organisation-wide data, excluding the changes the device itself pushed. Page with next_revision (use it as the next `since`) while has_more. `epoch` identifies central's database. 409 RESET_REQUIRED when the cursor is older than the retained history (tombstone retention, SYNC_TOMBSTONE_RETENTION_DAYS), ahead of central (restored backup), or the epoch given differs: the till then bootstraps from GET /sync/snapshot. Kinds of change: {revision, entity, entity_id, op: upsert|delete, payload, branch_id}.",
    query: SyncPullQuery,
    responses: {
      200: { description: 'A page of changes', schema: SyncPullResponse },
      404: { description: 'Unknown device' },
      409: { description: 'RESET_REQUIRED' },
      426: { description: 'APP_VERSION_INCOMPATIBLE' },
    },
    handler: async ({ app, caller, input, req }) => {
      const q = input as z.output<typeof SyncPullQuery>;
      const device = await resolveSyncDevice(app, caller, q.device_id);
      assertAppVersion(req);
      assertCentral(app);
      return pullChanges(app, device, q, audienceOf(caller, device));
    },
  });

  deviceRoute(r, appOf, {
    method: 'get',
    path: '/sync/snapshot',
    roles: READ_ROLES,
    summary: "Stream the device's scope as of one revision",
    description:
      'NDJSON (application/x-ndjson), streamed from one read transaction: first line {type:"header", revision, epoch, branch_id, entities}, then {type:"row", entity, id, payload} per record (payload as in pull), last line {type:"end", rows}. A stream without its end line is truncated. The till loads it into staging tables, swaps them in one transaction and pulls from the header revision. The header\'s branch_id is the device\'s branch: the till records it (sync_meta branch_id) and from then on refuses sign-in and every request of a branch-bound user (cashier, pharmacist, branch_manager) of another branch with 403 OTHER_BRANCH_TILL; a snapshot without it records no branch (the till then uses the branch_id of its credential file, if any, else refuses nobody). Branch-bound users pull to the tills of their branch, organisation-wide users (admin, auditor…) to every till; a move or role change that narrows a user\'s scope also sends the new row (new branch_id or role, bumped token_version) to the tills that leave it, so tokens issued there are revoked and the user can no longer sign in there.',
    query: SyncSnapshotQuery,
    responses: {
      200: { description: 'NDJSON stream', contentType: 'application/x-ndjson', schema: z.string() },
      404: { description: 'Unknown device' },
      426: { description: 'APP_VERSION_INCOMPATIBLE' },
    },
    handler: async ({ app, caller, input, req, res }) => {
      const q = input as z.output<typeof SyncSnapshotQuery>;
      const device = await resolveSyncDevice(app, caller, q.device_id);
      assertAppVersion(req);
      assertCentral(app);
      try {
        await streamSnapshot(app, device, res, audienceOf(caller, device));
      } catch (err) {
        if (!res.headersSent) throw err;
        res.destroy(err instanceof Error ? err : undefined);
      }
      return undefined;
    },
  });
}

/** Conflicts to resolve and this server's replication status. */
function conflictAndStatusRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/sync/conflicts',
    tag: 'Sync',
    summary: 'List sync conflicts',
    description:
      'Admin, branch manager (own branch only) and auditor. Review items: a till edit of a central-owned record that central changed since (kind edit_conflict, both versions) and every rejected pushed change (kind rejected: a rejected sale is shown to staff here, never dropped silently). On a till, its own rejected pushes (under the id central gave the same rejection) and the pulled changes it could not apply. Each item carries title and reason in words ("Sale MAIN-3C37-000004, 6.84" / "rejected: the coupon WELCOME10 is not known at head office"), the actions that fit it while open, and side (central or till). Newest first.',
    roles: OVERSEERS,
    query: ConflictListQuery,
    responses: { 200: { description: 'A page of conflicts', schema: pageOf(SyncConflict) } },
    handler: ({ app, user, query }) =>
      listConflicts(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'post',
    path: '/sync/conflicts/:id/resolve',
    tag: 'Sync',
    summary: 'Resolve a sync conflict',
    description:
      "Admin, or the branch manager of the conflict's branch. On central: keep_central re-publishes central's current record (a new revision every till pulls); keep_till and retry apply the till's version through the push gate (retry: once the record it needed exists); merged applies the given payload; dismiss closes a rejection with a reason (required) and changes nothing. On a till: retry sends the rejected change again under a new mutation id (central judges it afresh and, when it accepts, closes its own record of the rejection), dismiss takes it out of the outbox with a reason. The item's actions list what fits it. 403 when the chosen version may not be made; 409 ACTION_NOT_OFFERED for an action the item does not offer, ALREADY_RESOLVED, RESOLUTION_FAILED when the chosen version still cannot apply, NOTHING_TO_RETRY; never a 500.",
    roles: BRANCH_MANAGERS,
    params: ConflictParams,
    body: ResolveConflictRequest,
    responses: {
      200: { description: 'The resolved conflict', schema: SyncConflict },
      403: { description: 'Another branch' },
      404: { description: 'Unknown conflict' },
      409: { description: 'Already resolved, or the choice cannot apply' },
    },
    handler: async ({ app, user, params, body, requestId }) => {
      const resolved = await resolveConflict(app, user, actorOf(user, requestId), params.id, body);
      // A change sent again on a till leaves at once.
      if (body.resolution === 'retry') tillReplicator(app)?.notify();
      return resolved;
    },
  });

  r.route({
    method: 'get',
    path: '/sync/status',
    tag: 'Sync',
    summary: "This server's replication status",
    description:
      'Any signed-in user (the till shows an offline badge). On a till: online, last success, pending outbox changes, rejected changes, open conflicts, last error, bootstrapped (a till that replicates refuses to sell until it is) and the pull cursor. On central (or a standalone till): configured false.',
    roles: 'any',
    responses: { 200: { description: 'Status', schema: SyncStatus } },
    handler: ({ app }) => syncStatus(app),
  });
}

/** Central's registered devices, revoked and restored by compliance. */
function deviceAdminRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/compliance/devices',
    tag: 'Compliance',
    summary: 'List registered tills',
    description: 'Admin, or a branch manager (own branch only). Newest first.',
    roles: BRANCH_MANAGERS,
    query: DeviceListQuery,
    responses: { 200: { description: 'A page of devices', schema: pageOf(Device) } },
    handler: ({ app, user, query }) =>
      listDevices(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  for (const [action, status] of [
    ['revoke', 'revoked'],
    ['restore', 'active'],
  ] as const) {
    r.route({
      method: 'post',
      path: `/compliance/devices/:deviceId/${action}`,
      tag: 'Compliance',
      summary: action === 'revoke' ? 'Revoke a till' : 'Restore a revoked till',
      description:
        action === 'revoke'
          ? 'Admin, or the branch manager of its branch. A revoked device gets 403 DEVICE_REVOKED on push, pull and snapshot; its queue stays on the till until it is restored. Idempotent.'
          : 'Admin, or the branch manager of its branch. The device syncs again with its existing credential. Idempotent.',
      roles: BRANCH_MANAGERS,
      params: DeviceParams,
      responses: {
        200: { description: 'The device', schema: Device },
        403: { description: 'Another branch' },
        404: { description: 'Unknown device' },
      },
      handler: ({ app, user, params, requestId }) =>
        setDeviceStatus(app, user, actorOf(user, requestId), params.deviceId, status),
    });
  }
}

function testEntityRoutes(r: ApiRouter, appOf: () => AppContext): void {
  // Test-only (PHARMACY_SYNC_TEST_ENTITIES=1): a till-owned record to replicate until selling lands.
  r.router.post('/sync/test/sales', async (req, res) => {
    const app = appOf();
    const caller = await authenticateSync(app, req, SELLERS);
    const body = req.body as {
      lines: Array<{ item: string; qty: number; price_minor: number }>;
      sold_at?: string;
      poison?: boolean;
    };
    if (!caller.user) throw new AppError(401, 'UNAUTHORIZED', 'sign in');
    res.status(201).json(await createTestSale(app, caller.user.branchId, body));
  });
}
