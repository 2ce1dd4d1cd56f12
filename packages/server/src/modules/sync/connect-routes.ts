import { BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import {
  CentralBranchList,
  CentralSignInRequest,
  ConnectTillRequest,
  DisconnectTillRequest,
  HeldRecords,
  HeldRecordsArchive,
  SyncStatus,
} from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { ApiRouter } from '../../http/route';
import { actorOf } from '../audit/service';
import { centralBranches } from '@pharmacy/sync';
import { writeAudit } from '../audit/service';
import { connectTill, disconnectTill, syncNow, syncStatus, viaCentral } from './runtime';
import { archiveHeldRecords, heldRecords } from './held-records';
import { Conflict } from '../../lib/errors';

/** A till's own link to head office: connect (as till:register does), sync now, disconnect. */
export function connectRoutes(r: ApiRouter): void {
  const CONNECT_ERRORS =
    'Errors name the field to fix: 400 BAD_URL or NOT_CENTRAL on central_url (not a web address, or the server there is not a pharmacy head office, or is a till), 400 LOGIN_FAILED or PASSWORD_CHANGE_REQUIRED on password (head office refused the sign-in), 400 NOT_ALLOWED on email (the account may not register tills), 502 CENTRAL_UNREACHABLE (nothing answers at that address).';

  r.route({
    method: 'post',
    path: '/sync/connect/branches',
    tag: 'Sync',
    summary: "Head office's branches, for connecting this till",
    description: `Admin and branch managers, on a till. Signs in to head office with the given account (nothing is stored) and lists the active branches it may register a till for, for the Head office screen's branch picker. ${CONNECT_ERRORS}`,
    roles: BRANCH_MANAGERS,
    body: CentralSignInRequest,
    responses: {
      200: { description: "Head office's branches", schema: CentralBranchList },
      502: { description: 'Head office cannot be reached' },
    },
    handler: async ({ body }) => ({
      items: await viaCentral(() =>
        centralBranches({ centralUrl: body.central_url, email: body.email, password: body.password }),
      ),
    }),
  });

  r.route({
    method: 'post',
    path: '/sync/connect',
    tag: 'Sync',
    summary: 'Connect this till to head office',
    description: `Admin and branch managers, on a till. Registers this till with head office exactly as npm run till:register does (the same code: sign in, POST /sync/devices/register as that person, for branch_id or their own branch), stores the device credential in the data folder (sync-device.json, mode 0600; the password is never stored) and starts replicating at once, without a restart: the till then loads head office's data (bootstrap_progress in GET /sync/status) and sells once bootstrapped. Head office's users replace this till's own at the end of the bootstrap, so everyone signs in again with their head office account. From then on the till issues its sales, credit notes and cash sessions as the registered device (its id on head office's Devices list; that device's invoice chain starts at 1). Before head office is asked: 409 SESSION_OPEN while a cash session is open on this till (close it first), 409 TILL_HOLDS_RECORDS while it holds records of its own head office has not received that it could not take as they are (see GET /sync/connect/held-records: archive them, or connect to their branch); records of the chosen branch are sent once connected. 409 ALREADY_CONNECTED when the till replicates already, CENTRAL_MODE on central. ${CONNECT_ERRORS} Nothing is stored when any step fails. Audited.`,
    roles: BRANCH_MANAGERS,
    body: ConnectTillRequest,
    responses: {
      200: { description: 'The sync status, now configured', schema: SyncStatus },
      409: { description: 'Already connected, or this is central' },
      502: { description: 'Head office cannot be reached' },
    },
    handler: async ({ app, user, body, requestId }) => {
      const status = await connectTill(app, body);
      await writeAudit(app.db, actorOf(user, requestId), {
        action: 'sync.connect',
        entity: 'sync_device',
        entityId: status.device_id ?? 'unknown',
        branchId: user.branchId,
        after: { central_url: status.central_url, device_id: status.device_id, name: body.name },
      });
      return status;
    },
  });

  heldRecordRoutes(r);

  r.route({
    method: 'post',
    path: '/sync/now',
    tag: 'Sync',
    summary: 'Sync with head office now',
    description:
      'Admin and branch managers, on a connected till. Runs one replication cycle (push the outbox, pull) now and answers the status; a failure is reported in last_error, not as an error answer. 409 NOT_CONNECTED on a till that does not replicate.',
    roles: BRANCH_MANAGERS,
    responses: {
      200: { description: 'The sync status after the cycle', schema: SyncStatus },
      409: { description: 'Not connected' },
    },
    handler: ({ app }) => syncNow(app),
  });

  r.route({
    method: 'post',
    path: '/sync/disconnect',
    tag: 'Sync',
    summary: 'Disconnect this till from head office',
    description:
      'Admin only, on a till, with their password (checked by this till, or by head office for an account the till holds no verifier for): the till keeps a verifier for that admin, so they still sign in here once it no longer asks head office. 400 WRONG_PASSWORD, 503 TILL_OFFLINE when head office does not answer to check it. Stops replicating and deletes the stored device credential. Refused (409 PENDING_CHANGES) while any change made here (a sale, a return...) still waits to be sent, so nothing sold here is stranded; 409 NOT_CONNECTED when not connected, CONFIGURED_BY_ENVIRONMENT when SYNC_DEVICE_ID/SYNC_DEVICE_TOKEN set the connection. The till keeps the data it has and sells standalone; the device stays registered on head office until an admin there revokes it. Audited.',
    roles: [],
    body: DisconnectTillRequest,
    responses: {
      200: { description: 'The sync status, no longer configured', schema: SyncStatus },
      400: { description: 'WRONG_PASSWORD: the password is not correct' },
      409: { description: 'Changes still pending, or not connected' },
      503: { description: 'TILL_OFFLINE: head office does not answer to check the password' },
    },
    handler: async ({ app, user, body, requestId }) => {
      const before = await syncStatus(app);
      const status = await disconnectTill(app, user, body.password);
      await writeAudit(app.db, actorOf(user, requestId), {
        action: 'sync.disconnect',
        entity: 'sync_device',
        entityId: before.device_id ?? 'unknown',
        branchId: user.branchId,
        before: { central_url: before.central_url, device_id: before.device_id },
      });
      return status;
    },
  });
}

const onTillOnly = (app: AppContext) => {
  if (app.config.mode === 'central')
    throw new Conflict(
      'This is the head office server: it holds no till records to connect.',
      'CENTRAL_MODE',
    );
};

/** What a till that has sold holds before it connects (issue 28.2), and the archive that lets it connect. */
function heldRecordRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/sync/connect/held-records',
    tag: 'Sync',
    summary: 'Records this till holds that head office has not received',
    description:
      "Admin and branch managers, on a till. Counts this till's own business records head office has not received (sales with their first and last invoice numbers, returns, cash sessions, and the rest: ledger rows, stock movements of its sales, prescriptions…), for the Head office screen's warning before connecting. The demo catalogue's stock is never counted nor sent. branch_id: the branch they belong to when the till held head office's data (connected before, then disconnected): connecting to that branch sends them to head office exactly once. null with records: the till sold against its own catalogue and staff, and must archive them (POST /sync/connect/archive) before connecting (POST /sync/connect answers 409 TILL_HOLDS_RECORDS until then). open_session: a cash session is open on this till (409 SESSION_OPEN on connect until it is closed). 409 CENTRAL_MODE on central.",
    roles: BRANCH_MANAGERS,
    responses: {
      200: { description: "The till's own records", schema: HeldRecords },
      409: { description: 'This is the central server' },
    },
    handler: async ({ app }) => {
      onTillOnly(app);
      return heldRecords(app);
    },
  });

  r.route({
    method: 'post',
    path: '/sync/connect/archive',
    tag: 'Sync',
    summary: "Archive this till's own records before connecting",
    description:
      "Admin and branch managers, on a till. Copies this till's whole database (every sale, return, cash session, ledger row and its fiscal chain) to the archives folder of its data folder (mode 0600; opened as a data folder's pharmacy.db it is the till as it was), then marks its own records as not to be sent to head office, so the till may connect: head office's data replaces them on the till, and the archive keeps them. Nothing is marked when the copy fails; a till with no records of its own gets its copy all the same. 409 CENTRAL_MODE on central. Audited.",
    roles: BRANCH_MANAGERS,
    responses: {
      200: { description: 'The archive file and what it holds', schema: HeldRecordsArchive },
      409: { description: 'This is the central server' },
    },
    handler: async ({ app, user, requestId }) => {
      onTillOnly(app);
      const archive = await archiveHeldRecords(app);
      await writeAudit(app.db, actorOf(user, requestId), {
        action: 'sync.archive_before_connect',
        entity: 'system',
        entityId: 'archive',
        branchId: user.branchId,
        after: { file: archive.file, ...archive.archived },
      });
      return archive;
    },
  });
}
