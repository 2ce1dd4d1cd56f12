import { ADMIN_ONLY, STOCK_MANAGERS } from '@pharmacy/contracts/roles';
import { malformedText } from '../../http/well-formed';
import { summarise } from '../../http/problem';
import {
  AttachImageRequest,
  BrandingLogo,
  MAX_IMAGE_BYTES,
  Medicine,
  MedicineParams,
  UploadUrlRequest,
  UploadUrlResponse,
} from '@pharmacy/contracts';
import express, { type Request, type Response } from 'express';
import type { AppContext } from '../../app-context';
import { z } from 'zod';
import { Forbidden, Invalid, NotFound } from '../../lib/errors';
import type { ApiRouter } from '../../http/route';
import { actorOf } from '../audit/service';
import { getMedicine, getMedicineRow, setMedicineImage } from '../medicines/service';
import { attachableKey, getBrandingLogo, issueUploadUrl, setBrandingLogo } from './service';
import {
  CONTENT_TYPES,
  LocalImageStorage,
  requireStorage,
  sniffImageType,
  uploadUrlUsed,
} from '../../storage/image-storage';

const MEDIA_WRITERS = STOCK_MANAGERS;

const BlobParams = z.object({
  prefix: z.enum(['medicines', 'branding']),
  file: z.string().regex(/^[0-9a-f-]{36}\.(jpg|png|webp)$/),
});
const BlobPutQuery = z.object({
  expires: z.coerce.number().int(),
  ct: z.string(),
  size: z.coerce.number().int().positive(),
  sig: z.string(),
});
const BlobGetQuery = z.object({ expires: z.coerce.number().int(), sig: z.string() });

function parse<T extends z.ZodType>(schema: T, value: unknown, where: 'path' | 'query'): z.output<T> {
  const malformed = malformedText(value, where === 'path' ? 'params' : where);
  if (malformed) throw new Invalid(summarise(malformed), malformed);
  const r = schema.safeParse(value);
  if (!r.success)
    throw new Invalid(`The ${where} of this image URL is invalid; ask for a new URL.`, [
      { path: where, message: r.error.issues[0]?.message ?? 'invalid' },
    ]);
  return r.data;
}

function localStorage(app: AppContext): LocalImageStorage {
  const storage = requireStorage(app);
  if (!(storage instanceof LocalImageStorage)) throw new NotFound('Image blob');
  return storage;
}

export function imageRoutes(r: ApiRouter): void {
  r.route({
    method: 'post',
    path: '/images/medicines/upload-url',
    tag: 'Images',
    summary: 'A presigned URL to upload a medicine photo',
    description:
      'JPEG, PNG or WebP, 1 byte to 5 MB. PUT the bytes to uploadUrl with the same Content-Type within 15 minutes, then attach the key to a medicine. With the embedded storage the URLs are relative to this server and signed by it; with S3 they point at the bucket. 500 STORAGE_NOT_CONFIGURED when IMAGE_STORAGE=off.',
    roles: MEDIA_WRITERS,
    body: UploadUrlRequest,
    responses: {
      200: { description: 'Key and URLs', schema: UploadUrlResponse },
      400: { description: 'Size not a positive whole number up to 5 MB, or type not allowed' },
      500: { description: 'Image storage not configured or unavailable' },
    },
    handler: ({ app, body }) => issueUploadUrl(app, 'medicines', body.content_type, body.size_bytes),
  });

  r.route({
    method: 'post',
    path: '/images/medicines/:medicineId/image',
    tag: 'Images',
    summary: 'Attach an uploaded photo to a medicine',
    description:
      'The key must lie under medicines/ and name an upload that exists, is at most 5 MB and whose bytes are the image type of its extension (400 otherwise). Sets image_key and image_url (audited, replicated).',
    roles: MEDIA_WRITERS,
    params: MedicineParams,
    body: AttachImageRequest,
    responses: {
      200: { description: 'The medicine', schema: Medicine },
      400: { description: 'Key outside the prefix, upload missing, too large or not an image' },
      404: { description: 'Unknown medicine' },
      500: { description: 'Image storage not configured or unavailable' },
    },
    handler: async ({ app, user, params, body, requestId }) => {
      const storage = requireStorage(app);
      const key = attachableKey(body.image_key, 'medicines');
      await getMedicineRow(app.db, params.medicineId);
      await checkUpload(storage, key);
      await setMedicineImage(app, actorOf(user, requestId), params.medicineId, key);
      return getMedicine(app, params.medicineId, user.branchId);
    },
  });

  r.route({
    method: 'post',
    path: '/images/branding/upload-url',
    tag: 'Images',
    summary: 'A presigned URL to upload the organisation logo',
    description:
      'Admin only (branding is organisation-wide). Same rules as medicine photos; the key lies under branding/.',
    roles: ADMIN_ONLY,
    body: UploadUrlRequest,
    responses: {
      200: { description: 'Key and URLs', schema: UploadUrlResponse },
      400: { description: 'Size or type not allowed' },
      500: { description: 'Image storage not configured or unavailable' },
    },
    handler: ({ app, body }) => issueUploadUrl(app, 'branding', body.content_type, body.size_bytes),
  });

  r.route({
    method: 'put',
    path: '/images/branding/logo',
    tag: 'Images',
    summary: 'Set the organisation logo to an uploaded image',
    description: 'Admin only. The key must lie under branding/ and the upload must exist (400).',
    roles: ADMIN_ONLY,
    body: AttachImageRequest,
    responses: {
      200: { description: 'The logo', schema: BrandingLogo },
      400: { description: 'Key outside the prefix, upload missing, too large or not an image' },
      500: { description: 'Image storage not configured or unavailable' },
    },
    handler: async ({ app, user, body, requestId }) => {
      const storage = requireStorage(app);
      const key = attachableKey(body.image_key, 'branding');
      await checkUpload(storage, key);
      return setBrandingLogo(app, actorOf(user, requestId), key);
    },
  });

  r.route({
    method: 'get',
    path: '/images/branding/logo',
    tag: 'Images',
    summary: 'The organisation logo (key and a read URL), for receipts and the UI',
    roles: 'any',
    responses: { 200: { description: 'The logo, or nulls when none is set', schema: BrandingLogo } },
    handler: ({ app }) => getBrandingLogo(app),
  });

  blobRoutes(r);
}

async function checkUpload(storage: ReturnType<typeof requireStorage>, key: string): Promise<void> {
  const stat = await storage.stat(key);
  if (!stat)
    throw new Invalid(
      `Nothing was uploaded under ${key}; PUT the image to the upload URL first.`,
      [{ path: 'image_key', message: 'upload missing' }],
      'UPLOAD_MISSING',
    );
  if (stat.size > MAX_IMAGE_BYTES || stat.size === 0)
    throw new Invalid(
      `The upload under ${key} is ${stat.size} bytes; images must be 1 byte to 5 MB.`,
      [{ path: 'image_key', message: 'upload over 5 MB' }],
      'UPLOAD_TOO_LARGE',
    );
  const type = sniffImageType(await storage.firstBytes(key, 16));
  const expected = CONTENT_TYPES[key.split('.').pop() ?? ''];
  if (type !== expected)
    throw new Invalid(
      `The upload under ${key} is not a ${expected ?? 'supported'} image (its bytes say ${type ?? 'unknown'}).`,
      [{ path: 'image_key', message: 'not an image of the declared type' }],
      'NOT_AN_IMAGE',
    );
}

/**
 * The embedded store's blob endpoints: public, authorised by the URL's HMAC signature and expiry instead of a
 * bearer token (browsers load <img> without headers). Raw bodies, so they are mounted on the router directly
 * and declared in the OpenAPI document by hand.
 */
function blobRoutes(r: ApiRouter): void {
  const path = '/images/blob/:prefix/:file';
  // ApiRouter keeps the context to itself; these raw handlers need it for the storage.
  const { app } = r;
  r.docs.push({
    method: 'put',
    path,
    tag: 'Images',
    summary: 'Upload image bytes to a signed URL (embedded storage)',
    description:
      'Public; the signature in the query authorises it. Body: the raw image with the signed Content-Type and exactly the signed size. 403 for a bad signature or an expired URL; 400 for a size, type or magic-byte mismatch; 409 UPLOAD_URL_USED when the URL was used already (each upload URL names a fresh key and stores once, so an attached image cannot be replaced through its old URL); 404 when the server stores images in S3.',
    access: 'public',
    params: BlobParams,
    query: BlobPutQuery,
    responses: {
      200: { description: 'Stored' },
      400: { description: 'Size, Content-Type or bytes do not match the signed upload' },
      403: { description: 'Bad signature or expired URL' },
      404: { description: 'Not the embedded storage' },
      409: { description: 'The upload URL was used already' },
      413: { description: 'Larger than 5 MB' },
    },
  });
  r.docs.push({
    method: 'get',
    path,
    tag: 'Images',
    summary: 'Read an image through a signed URL (embedded storage)',
    description: 'Public; the signature in the query authorises it (403 when bad or expired).',
    access: 'public',
    params: BlobParams,
    query: BlobGetQuery,
    responses: {
      200: { description: 'The image bytes', contentType: 'image/*' },
      403: { description: 'Bad signature or expired URL' },
      404: { description: 'No such image' },
    },
  });

  const raw = express.raw({ type: () => true, limit: MAX_IMAGE_BYTES });
  r.routerFor(path).put(path, raw, async (req: Request, res: Response) => {
    const storage = localStorage(app);
    const params = parse(BlobParams, req.params, 'path');
    const query = parse(BlobPutQuery, req.query, 'query');
    const key = `${params.prefix}/${params.file}`;
    if (!storage.verify(['PUT', key, query.expires, query.ct, query.size], query.sig))
      throw new Forbidden('The upload URL signature is not valid.', 'BAD_SIGNATURE');
    if (query.expires * 1000 < Date.now())
      throw new Forbidden('The upload URL has expired; ask for a new one.', 'URL_EXPIRED');
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim();
    if (contentType !== query.ct)
      throw new Invalid(`Content-Type must be ${query.ct}, as signed.`, [
        { path: 'content-type', message: 'mismatch' },
      ]);
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (body.length !== query.size)
      throw new Invalid(
        `The body is ${body.length} bytes; the URL was signed for ${query.size}.`,
        [{ path: 'body', message: 'size mismatch' }],
        'SIZE_MISMATCH',
      );
    if (sniffImageType(body.subarray(0, 16)) !== query.ct)
      throw new Invalid(
        `The bytes are not a ${query.ct} image.`,
        [{ path: 'body', message: 'not an image' }],
        'NOT_AN_IMAGE',
      );
    if (await storage.stat(key)) throw uploadUrlUsed();
    await storage.writeOnce(key, body);
    res.status(200).end();
  });

  r.routerFor(path).get(path, async (req: Request, res: Response) => {
    const storage = localStorage(app);
    const params = parse(BlobParams, req.params, 'path');
    const query = parse(BlobGetQuery, req.query, 'query');
    const key = `${params.prefix}/${params.file}`;
    if (!storage.verify(['GET', key, query.expires], query.sig))
      throw new Forbidden('The image URL signature is not valid.', 'BAD_SIGNATURE');
    if (query.expires * 1000 < Date.now()) throw new Forbidden('The image URL has expired.', 'URL_EXPIRED');
    if (!(await storage.stat(key))) throw new NotFound('Image', key);
    const ext = key.split('.').pop() ?? '';
    res.setHeader('Content-Type', CONTENT_TYPES[ext] ?? 'application/octet-stream');
    res.setHeader(
      'Cache-Control',
      `private, max-age=${Math.max(0, query.expires - Math.floor(Date.now() / 1000))}`,
    );
    res.setHeader('Cross-Origin-Resource-Policy', 'same-site');
    await new Promise<void>((resolve, reject) =>
      res.sendFile(storage.pathOf(key), { dotfiles: 'deny' }, (err) => (err ? reject(err) : resolve())),
    );
  });
}
