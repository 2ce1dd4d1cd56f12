import { createHash, randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { APP_VERSION_HEADER, DEVICE_TOKEN_HEADER, type Device, type Role } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { type AuthUser, assertBranchAccess, authenticate, isBranchBound } from '../../http/auth';
import { AppError, Forbidden, Invalid, NotFound, Unauthorized } from '../../lib/errors';
import { roleAllowed, roleRefusal } from '../../http/route';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { VERSION } from '../../version';
import { type Actor, writeAudit } from '../audit/service';
import type { SyncDevicesTable } from '../../db/tables/sync';
import { paginate } from '../../db/paginate';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

type DeviceRow = SyncDevicesTable & { branch_name: string | null };

const toDevice = (r: DeviceRow): Device => ({
  id: r.id,
  name: r.name,
  branch_id: r.branch_id,
  branch_name: r.branch_name,
  status: r.status,
  app_version: r.app_version,
  last_seen_at: r.last_seen_at,
  last_push_at: r.last_push_at,
  last_pull_revision: r.last_pull_revision,
  revoked_at: r.revoked_at,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const selectDevices = (db: Db) =>
  db
    .selectFrom('sync_devices as d')
    .leftJoin('branches as b', 'b.id', 'd.branch_id')
    .selectAll('d')
    .select('b.name as branch_name');

export async function getDevice(db: Db, id: string): Promise<Device> {
  const row = await selectDevices(db).where('d.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Device', id);
  return toDevice(row);
}

/** Central only: device registration and the device feed are head-office operations. */
export function assertCentral(app: AppContext): void {
  if (app.config.mode !== 'central')
    throw new AppError(409, 'CENTRAL_ONLY', 'This operation is served by the central server, not by a till.');
}

export async function registerDevice(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: { name: string; branch_id?: string },
): Promise<{ device_id: string; device_token: string; device: Device }> {
  const branchId = input.branch_id ?? user.branchId;
  assertBranchAccess(user, branchId, 'branch');
  const branch = await app.db
    .selectFrom('branches')
    .select(['id', 'is_active'])
    .where('id', '=', branchId)
    .executeTakeFirst();
  if (!branch) throw new NotFound('Branch', branchId);
  if (!branch.is_active)
    throw new Invalid(`Branch ${branchId} is inactive.`, [{ path: 'branch_id', message: 'inactive branch' }]);
  assertCentral(app);
  const id = newId();
  // 256 random bits: a bearer secret, stored only as its SHA-256 (high entropy needs no slow hash).
  const token = `dev_${randomBytes(32).toString('base64url')}`;
  const at = nowIso();
  const row: SyncDevicesTable = {
    id,
    branch_id: branchId,
    name: input.name,
    token_hash: hashToken(token),
    status: 'active',
    app_version: null,
    last_seen_at: null,
    last_push_at: null,
    last_pull_revision: null,
    registered_by: user.id,
    revoked_at: null,
    revoked_by: null,
    created_at: at,
    updated_at: at,
  };
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('sync_devices').values(row).execute();
    const { token_hash: _, ...audited } = row;
    await writeAudit(trx, actor, {
      action: 'device.register',
      entity: 'device',
      entityId: id,
      branchId,
      after: audited,
    });
  });
  return { device_id: id, device_token: token, device: await getDevice(app.db, id) };
}

export async function listDevices(
  app: AppContext,
  f: { branch_id?: string; status?: 'active' | 'revoked'; page: number; page_size: number },
) {
  let q = selectDevices(app.db);
  if (f.branch_id) q = q.where('d.branch_id', '=', f.branch_id);
  if (f.status) q = q.where('d.status', '=', f.status);
  const found = await paginate(q, f, (q) => q.orderBy('d.created_at', 'desc').orderBy('d.id'));
  return { ...found, items: found.items.map(toDevice) };
}

export async function setDeviceStatus(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  status: 'active' | 'revoked',
): Promise<Device> {
  const before = await getDevice(app.db, id);
  assertBranchAccess(user, before.branch_id, 'device');
  if (before.status === status) return before;
  const at = nowIso();
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('sync_devices')
      .set({
        status,
        updated_at: at,
        revoked_at: status === 'revoked' ? at : null,
        revoked_by: status === 'revoked' ? user.id : null,
      })
      .where('id', '=', id)
      .execute();
    await writeAudit(trx, actor, {
      action: status === 'revoked' ? 'device.revoke' : 'device.restore',
      entity: 'device',
      entityId: id,
      branchId: before.branch_id,
      before: { status: before.status },
      after: { status },
    });
  });
  return getDevice(app.db, id);
}

/** Who is calling a sync route: the device itself (X-Device-Token) or a signed-in user of the route's roles. */
export interface SyncCaller {
  kind: 'device' | 'user';
  user: AuthUser | null;
  /** The device the token identifies (device callers). */
  tokenDeviceId: string | null;
}

/**
 * Authenticates a sync call. A device token alone is enough (the replicator runs unattended); otherwise a
 * user bearer token of an allowed role. Returns 401 for neither/invalid, 403 for a role not allowed.
 */
export async function authenticateSync(
  app: AppContext,
  req: Request,
  roles: readonly Role[],
): Promise<SyncCaller> {
  const token = req.headers[DEVICE_TOKEN_HEADER];
  if (typeof token === 'string' && token.length > 0) {
    const row = await app.db
      .selectFrom('sync_devices')
      .select('id')
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row)
      throw new Unauthorized(
        'The device token is not valid; register the till again.',
        'INVALID_DEVICE_TOKEN',
      );
    return { kind: 'device', user: null, tokenDeviceId: row.id };
  }
  const user = await authenticate(app, req);
  if (!roleAllowed(roles, user.role)) throw new Forbidden(roleRefusal(roles, user.role));
  return { kind: 'user', user, tokenDeviceId: null };
}

/** Refuses an app of another major version: its change formats may differ. */
export function assertAppVersion(req: Request): string | null {
  const header = req.headers[APP_VERSION_HEADER];
  if (typeof header !== 'string' || header === '') return null;
  const major = (v: string) => v.trim().split('.')[0];
  if (major(header) !== major(VERSION)) {
    throw new AppError(
      426,
      'APP_VERSION_INCOMPATIBLE',
      `This till runs version ${header.slice(0, 40)} but central runs ${VERSION}; update the till app to version ${major(VERSION)}.x before it can sync.`,
    );
  }
  return header.slice(0, 40);
}

/**
 * The device a sync call acts for: 404 unknown, 403 when the token is another device's, when a branch-bound
 * user calls for another branch's device, or when the device is revoked.
 */
export async function resolveSyncDevice(
  app: AppContext,
  caller: SyncCaller,
  deviceId: string,
): Promise<SyncDevicesTable> {
  const device = await app.db
    .selectFrom('sync_devices')
    .selectAll()
    .where('id', '=', deviceId)
    .executeTakeFirst();
  if (!device) throw new NotFound('Device', deviceId);
  if (caller.kind === 'device' && caller.tokenDeviceId !== device.id)
    throw new Forbidden('The device token belongs to another device.', 'OTHER_DEVICE');
  if (caller.user && isBranchBound(caller.user) && caller.user.branchId !== device.branch_id)
    throw new Forbidden('This device belongs to another branch.', 'OTHER_BRANCH');
  if (device.status === 'revoked')
    throw new Forbidden(
      'This device has been revoked; a manager can restore it under Compliance > Devices.',
      'DEVICE_REVOKED',
    );
  return device;
}
