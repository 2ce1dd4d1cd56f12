import type { AppContext } from '../../app-context';
import { recordChange } from '../../db/changes';
import { Invalid } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import {
  EXTENSIONS,
  type ImagePrefix,
  imageReadUrl,
  KEY_PATTERN,
  requireStorage,
  UPLOAD_URL_TTL_SECONDS,
} from '../../storage/image-storage';

/** A fresh key under the prefix and the URLs to upload and later read it. */
export async function issueUploadUrl(
  app: AppContext,
  prefix: ImagePrefix,
  contentType: string,
  sizeBytes: number,
) {
  const storage = requireStorage(app);
  const key = `${prefix}/${newId()}.${EXTENSIONS[contentType]}`;
  const uploadUrl = await storage.uploadUrl(key, contentType, sizeBytes, UPLOAD_URL_TTL_SECONDS);
  const publicUrl = await storage.readUrl(key);
  return {
    key,
    uploadUrl,
    publicUrl,
    expiresAt: new Date(Date.now() + UPLOAD_URL_TTL_SECONDS * 1000).toISOString(),
  };
}

/** Checks a key to attach lies under the prefix and has the shape this server issues (400 otherwise). */
export function attachableKey(key: string, prefix: ImagePrefix): string {
  if (!key.startsWith(`${prefix}/`))
    throw new Invalid(
      `image_key must lie under ${prefix}/.`,
      [{ path: 'image_key', message: `must start with ${prefix}/` }],
      'KEY_OUTSIDE_PREFIX',
    );
  if (!KEY_PATTERN.test(key))
    throw new Invalid('image_key is not a key issued by the upload-url endpoint.', [
      { path: 'image_key', message: 'unknown key format' },
    ]);
  return key;
}

export async function getBrandingLogo(app: AppContext) {
  const row = await app.db
    .selectFrom('branding_assets')
    .selectAll()
    .where('name', '=', 'logo')
    .executeTakeFirst();
  if (!row) return { logo_key: null, logo_url: null, updated_at: null };
  return {
    logo_key: row.image_key,
    logo_url: await imageReadUrl(app, row.image_key),
    updated_at: row.updated_at,
  };
}

export async function setBrandingLogo(app: AppContext, actor: Actor, key: string) {
  const at = nowIso();
  await app.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('branding_assets')
      .selectAll()
      .where('name', '=', 'logo')
      .executeTakeFirst();
    const row = { name: 'logo', image_key: key, updated_by: actor.userId, updated_at: at };
    await trx
      .insertInto('branding_assets')
      .values(row)
      .onConflict((oc) => oc.column('name').doUpdateSet(row))
      .execute();
    await recordChange(trx, {
      entity: 'branding_asset',
      entityId: 'logo',
      op: 'upsert',
      payload: row,
      branchId: null,
    });
    await writeAudit(trx, actor, {
      action: 'branding.logo',
      entity: 'branding_asset',
      entityId: 'logo',
      branchId: null,
      before: before ?? null,
      after: row,
    });
  });
  return getBrandingLogo(app);
}
