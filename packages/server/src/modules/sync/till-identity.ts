import { credentialFile, readCredential } from '@pharmacy/sync';
import type { AppContext } from '../../app-context';
import { requireSqlite } from '../../db/connection';

/**
 * The branch this till belongs to, per server, kept in memory (authenticate runs on every request): set by the
 * snapshot swap from the header's branch_id, else read once from sync_meta. null: central, or a till that does
 * not know its branch (standalone, or not yet bootstrapped), where nobody is refused.
 */
const tillBranches = new WeakMap<AppContext, string | null>();

/** Called by the snapshot swap once committed; without a branch the next request reads it again. */
export function setTillBranch(app: AppContext, branchId: string | null | undefined): void {
  if (branchId) tillBranches.set(app, branchId);
  else tillBranches.delete(app);
}

function readTillBranch(app: AppContext): string | null {
  const meta = new Map(
    (
      requireSqlite(app, "The till's identity")
        .prepare("SELECT key, value FROM sync_meta WHERE key IN ('branch_id', 'bootstrapped')")
        .all() as Array<{ key: string; value: string }>
    ).map((r) => [r.key, r.value]),
  );
  const fromSnapshot = meta.get('branch_id');
  if (fromSnapshot) return fromSnapshot;
  // Bootstrapped from a snapshot without the field (an older central or app version): the branch the till
  // was registered for, if its credential file names it (and is the device this till syncs as).
  if (meta.get('bootstrapped') !== '1') return null;
  try {
    const { config } = app;
    const cred = readCredential(config.syncDeviceFile ?? credentialFile(config.dataDir));
    if (!cred?.branch_id || (config.syncDeviceId && config.syncDeviceId !== cred.device_id)) return null;
    return cred.branch_id;
  } catch {
    return null;
  }
}

export function tillBranch(app: AppContext): string | null {
  if (app.config.mode === 'central') return null;
  let branch = tillBranches.get(app);
  if (branch === undefined) {
    branch = readTillBranch(app);
    tillBranches.set(app, branch);
  }
  return branch;
}
