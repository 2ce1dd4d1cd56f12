import type { z } from 'zod';
import type { Call, Page, Query } from './api-call';
import type {
  CentralBranchList,
  CentralSignInRequest,
  ConnectTillRequest,
  Device,
  DisconnectTillRequest,
  HeldRecords,
  HeldRecordsArchive,
  ResolveConflictRequest,
  SyncConflict,
  SyncStatus,
} from './sync';

/**
 * The calls of the link to head office (connecting a till, syncing, held records, conflicts) and of the tills
 * head office knows (revoke, restore), spread into the typed client by createApiClient. Types only.
 */
export function syncCalls(call: Call) {
  return {
    sync: {
      status: (): Promise<SyncStatus> => call('GET', '/sync/status'),
      centralBranches: (
        body: z.input<typeof CentralSignInRequest>,
      ): Promise<z.infer<typeof CentralBranchList>> => call('POST', '/sync/connect/branches', { body }),
      connect: (body: z.input<typeof ConnectTillRequest>): Promise<SyncStatus> =>
        call('POST', '/sync/connect', { body, timeoutMs: 60_000 }),
      syncNow: (): Promise<SyncStatus> => call('POST', '/sync/now', { timeoutMs: 60_000 }),
      heldRecords: (): Promise<HeldRecords> => call('GET', '/sync/connect/held-records'),
      archiveHeldRecords: (): Promise<HeldRecordsArchive> =>
        call('POST', '/sync/connect/archive', { timeoutMs: 60_000 }),
      disconnect: (body: z.input<typeof DisconnectTillRequest>): Promise<SyncStatus> =>
        call('POST', '/sync/disconnect', { body }),
      conflicts: (query: Query<'GET', '/sync/conflicts'> = {}): Promise<Page<SyncConflict>> =>
        call('GET', '/sync/conflicts', { query }),
      resolveConflict: (
        conflictId: string,
        body: z.input<typeof ResolveConflictRequest>,
      ): Promise<SyncConflict> =>
        call('POST', '/sync/conflicts/{id}/resolve', { params: { id: conflictId }, body }),
    },
    devices: {
      list: (query: Query<'GET', '/compliance/devices'> = {}): Promise<Page<Device>> =>
        call('GET', '/compliance/devices', { query }),
      revoke: (deviceId: string): Promise<Device> =>
        call('POST', '/compliance/devices/{deviceId}/revoke', { params: { deviceId } }),
      restore: (deviceId: string): Promise<Device> =>
        call('POST', '/compliance/devices/{deviceId}/restore', { params: { deviceId } }),
    },
  };
}
