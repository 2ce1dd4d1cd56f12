import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { AppContext } from '../app-context';
import { AppError, Conflict } from '../lib/errors';

/** Where medicine photos and branding images live; the server hands out signed URLs, clients move the bytes. */
export interface ImageStorage {
  readonly kind: 'local' | 's3';
  /** A URL the client PUTs the bytes to, with exactly this Content-Type and size. */
  uploadUrl(key: string, contentType: string, sizeBytes: number, expiresInSeconds: number): Promise<string>;
  /** A URL to read the image; signed, valid until the end of the next hour (stable within an hour for caches). */
  readUrl(key: string): Promise<string>;
  /** Size of a stored object, or null when nothing was uploaded under the key. */
  stat(key: string): Promise<{ size: number } | null>;
  /** The first bytes of a stored object (to check its magic bytes). */
  firstBytes(key: string, count: number): Promise<Buffer>;
}

export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
export const IMAGE_PREFIXES = ['medicines', 'branding'] as const;
export type ImagePrefix = (typeof IMAGE_PREFIXES)[number];
export const KEY_PATTERN =
  /^(medicines|branding)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp)$/;

export const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};
export const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** The image type its bytes say it is (JPEG, PNG or WebP), or null. */
export function sniffImageType(bytes: Uint8Array): string | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return null;
}

export class StorageError extends AppError {
  constructor(detail: string, code = 'STORAGE_UNAVAILABLE') {
    super(500, code, detail);
  }
}

export const uploadUrlUsed = () =>
  new Conflict('This upload URL has been used already; ask for a new one.', 'UPLOAD_URL_USED');

/** End of the next whole hour, in seconds: read URLs stay the same within an hour so browsers can cache them. */
const readExpiry = (now = Date.now()) => (Math.floor(now / 3_600_000) + 2) * 3600;

/** Local disk under DATA_DIR/images; URLs point back at this server and carry an HMAC signature. */
export class LocalImageStorage implements ImageStorage {
  readonly kind = 'local' as const;
  private readonly key: Buffer;

  constructor(
    readonly dir: string,
    secret: Uint8Array,
  ) {
    this.key = createHmac('sha256', secret).update('pharmacy-image-urls').digest();
    fs.mkdirSync(dir, { recursive: true });
  }

  sign(parts: Array<string | number>): string {
    return createHmac('sha256', this.key).update(parts.join('\n')).digest('base64url');
  }

  verify(parts: Array<string | number>, sig: string): boolean {
    const want = Buffer.from(this.sign(parts));
    const got = Buffer.from(sig);
    return want.length === got.length && timingSafeEqual(want, got);
  }

  pathOf(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error(`bad image key ${key}`);
    return path.join(this.dir, key);
  }

  async uploadUrl(key: string, contentType: string, sizeBytes: number, ttl: number): Promise<string> {
    const expires = Math.floor(Date.now() / 1000) + ttl;
    const sig = this.sign(['PUT', key, expires, contentType, sizeBytes]);
    const q = new URLSearchParams({
      expires: String(expires),
      ct: contentType,
      size: String(sizeBytes),
      sig,
    });
    return `/api/v1/images/blob/${key}?${q}`;
  }

  async readUrl(key: string): Promise<string> {
    const expires = readExpiry();
    return `/api/v1/images/blob/${key}?expires=${expires}&sig=${this.sign(['GET', key, expires])}`;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      return { size: (await fs.promises.stat(this.pathOf(key))).size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StorageError(`Image storage could not be read: ${(err as Error).message}`);
    }
  }

  async firstBytes(key: string, count: number): Promise<Buffer> {
    const handle = await fs.promises.open(this.pathOf(key), 'r');
    try {
      const buf = Buffer.alloc(count);
      const { bytesRead } = await handle.read(buf, 0, count, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /**
   * Stores an upload once (temporary file, then a hard link that fails if the key exists): every upload URL
   * has its own key, so a second PUT to the same URL, even racing the first, is refused with 409 and the image
   * stays as it was attached.
   */
  async writeOnce(key: string, bytes: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.part`;
    await fs.promises.writeFile(tmp, bytes);
    try {
      await fs.promises.link(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw uploadUrlUsed();
      throw err;
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }
}

export interface S3Settings {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/**
 * The AWS SDK, loaded when a bucket is first used: evaluating it took about 80 ms of CPU at every server's
 * start, and a till (local storage) never uses it.
 */
async function loadS3Sdk() {
  const [client, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return { ...client, getSignedUrl: presigner.getSignedUrl };
}
type S3Sdk = Awaited<ReturnType<typeof loadS3Sdk>>;

/** An S3-compatible bucket; the server presigns, the client talks to the bucket directly. */
export class S3ImageStorage implements ImageStorage {
  readonly kind = 's3' as const;
  private connected: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;
  private readonly readCache = new Map<string, { url: string; expires: number }>();

  constructor(private readonly s3: S3Settings) {}

  /** The SDK and a client of the bucket, made on first use and shared after. */
  private connect(): Promise<{ sdk: S3Sdk; client: S3Client }> {
    this.connected ??= loadS3Sdk().then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: this.s3.region,
        ...(this.s3.endpoint && { endpoint: this.s3.endpoint }),
        forcePathStyle: this.s3.forcePathStyle,
        ...(this.s3.accessKeyId &&
          this.s3.secretAccessKey && {
            credentials: { accessKeyId: this.s3.accessKeyId, secretAccessKey: this.s3.secretAccessKey },
          }),
      }),
    }));
    return this.connected;
  }

  async uploadUrl(key: string, contentType: string, sizeBytes: number, ttl: number): Promise<string> {
    const { sdk, client } = await this.connect();
    return this.guard(() =>
      sdk.getSignedUrl(
        client,
        new sdk.PutObjectCommand({
          Bucket: this.s3.bucket,
          Key: key,
          ContentType: contentType,
          ContentLength: sizeBytes,
        }),
        { expiresIn: ttl },
      ),
    );
  }

  async readUrl(key: string): Promise<string> {
    const expires = readExpiry();
    const hit = this.readCache.get(key);
    if (hit && hit.expires === expires) return hit.url;
    const signingDate = new Date((expires - 7200) * 1000);
    const { sdk, client } = await this.connect();
    const url = await this.guard(() =>
      sdk.getSignedUrl(client, new sdk.GetObjectCommand({ Bucket: this.s3.bucket, Key: key }), {
        expiresIn: 7200,
        signingDate,
      }),
    );
    if (this.readCache.size > 5000) this.readCache.clear();
    this.readCache.set(key, { url, expires });
    return url;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const { sdk, client } = await this.connect();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.s3.bucket, Key: key }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (err) {
      if (
        err instanceof sdk.S3ServiceException &&
        (err.$metadata.httpStatusCode === 404 || err.name === 'NotFound')
      )
        return null;
      throw new StorageError(`Image storage did not answer: ${(err as Error).message}`);
    }
  }

  async firstBytes(key: string, count: number): Promise<Buffer> {
    const { sdk, client } = await this.connect();
    const res = await this.guard(() =>
      client.send(
        new sdk.GetObjectCommand({ Bucket: this.s3.bucket, Key: key, Range: `bytes=0-${count - 1}` }),
      ),
    );
    const bytes = res.Body ? await res.Body.transformToByteArray() : new Uint8Array();
    return Buffer.from(bytes).subarray(0, count);
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new StorageError(`Image storage did not answer: ${(err as Error).message}`);
    }
  }
}

const CACHE_KEY = 'image-storage';

/** The configured storage, or null when IMAGE_STORAGE=off. Built once per server. */
export function imageStorage(app: AppContext): ImageStorage | null {
  if (app.cache.has(CACHE_KEY)) return app.cache.get(CACHE_KEY) as ImageStorage | null;
  const { imageStorage: mode, s3 } = app.config;
  let storage: ImageStorage | null;
  if (mode === 'off') storage = null;
  else if (mode === 's3' || (mode === 'auto' && s3.bucket)) {
    if (!s3.bucket) storage = null;
    else storage = new S3ImageStorage({ ...s3, bucket: s3.bucket });
  } else storage = new LocalImageStorage(path.join(app.config.dataDir, 'images'), app.jwtKey);
  app.cache.set(CACHE_KEY, storage);
  return storage;
}

/** The storage, or the spec's 500 when none is configured. */
export function requireStorage(app: AppContext): ImageStorage {
  const storage = imageStorage(app);
  if (!storage)
    throw new StorageError(
      'Image storage is not configured on this server (IMAGE_STORAGE=off, or s3 without S3_BUCKET).',
      'STORAGE_NOT_CONFIGURED',
    );
  return storage;
}

/** A read URL for an image key, or null (no key, or no storage). */
export async function imageReadUrl(app: AppContext, key: string | null): Promise<string | null> {
  if (!key) return null;
  const storage = imageStorage(app);
  if (!storage) return null;
  try {
    return await storage.readUrl(key);
  } catch {
    return null;
  }
}
