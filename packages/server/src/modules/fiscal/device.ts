import type { Db } from '../../db/connection';
import { newId } from '../../lib/ids';

/**
 * The identity of this database as a fiscal device: a UUIDv7 generated once and kept in `local_state`, a table
 * that never replicates (a restored snapshot or a pulled change can never give two tills the same identity).
 * The sync module registers it with central.
 */
const cache = new WeakMap<object, string>();

export async function getLocalDeviceId(db: Db): Promise<string> {
  const hit = cache.get(db);
  if (hit) return hit;
  const read = async () =>
    (await db.selectFrom('local_state').select('value').where('key', '=', 'device_id').executeTakeFirst())
      ?.value;
  let id = await read();
  if (!id) {
    await db
      .insertInto('local_state')
      .values({ key: 'device_id', value: newId() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    id = (await read())!;
  }
  cache.set(db, id);
  return id;
}

/**
 * Makes `deviceId` this till's fiscal identity (issue 28.3): the id head office registered the till under, so
 * every sale and credit note it issues from now on names a device head office lists, and its chain starts at
 * ICV 1 under that id (the chain is per device). Called when the till connects, before it sells as that device;
 * documents issued earlier keep the identity they were issued under. Answers whether the identity changed.
 */
export async function adoptDeviceId(db: Db, deviceId: string): Promise<boolean> {
  if ((await getLocalDeviceId(db)) === deviceId) return false;
  await db
    .insertInto('local_state')
    .values({ key: 'device_id', value: deviceId })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: deviceId }))
    .execute();
  cache.set(db, deviceId);
  return true;
}

/** The short device tag printed in document numbers: the last four hex digits (the random end of the UUIDv7). */
export const shortDeviceId = (deviceId: string): string =>
  deviceId.replaceAll('-', '').slice(-4).toUpperCase();

/** MAIN-7F3A-000123: branch code, short device id, ICV zero-padded to six digits (more when it outgrows them). */
export const invoiceNumberOf = (branchCode: string, deviceId: string, icv: number): string =>
  `${branchCode}-${shortDeviceId(deviceId)}-${String(icv).padStart(6, '0')}`;

/** CN-MAIN-7F3A-000007: a credit note's number, from the same per-device ICV sequence as invoices. */
export const creditNoteNumberOf = (branchCode: string, deviceId: string, icv: number): string =>
  `CN-${invoiceNumberOf(branchCode, deviceId, icv)}`;
