import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { makeMedicine } from '../../testing/factory';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(120, 7),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);

type UploadUrl = { key: string; uploadUrl: string; publicUrl: string };

async function upload(t: TestServer, url: string, body: Buffer, contentType: string) {
  const target = url.startsWith('http') ? url : t.baseUrl + url;
  return fetch(target, {
    method: 'PUT',
    body: new Uint8Array(body),
    headers: { 'content-type': contentType },
  });
}

describe('images on the embedded (local disk) storage', () => {
  let t: TestServer;
  let admin: string;
  beforeAll(async () => {
    t = await startTestServer();
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  it('issues a signed upload URL, stores the bytes, attaches the key and serves the image', async () => {
    const m = await makeMedicine(t);
    const res = await t.post<UploadUrl>(
      '/api/v1/images/medicines/upload-url',
      { content_type: 'image/png', size_bytes: PNG.length },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.key).toMatch(/^medicines\/[0-9a-f-]{36}\.png$/);
    expect((await upload(t, res.body.uploadUrl, PNG, 'image/png')).status).toBe(200);
    expect(fs.existsSync(path.join(t.dataDir, 'images', res.body.key))).toBe(true);
    const attached = await t.post(
      `/api/v1/images/medicines/${m.id}/image`,
      { image_key: res.body.key },
      admin,
    );
    expect(attached.status).toBe(200);
    expect(attached.body.image_key).toBe(res.body.key);
    expect(attached.body.image_url).toMatch(/^\/api\/v1\/images\/blob\/medicines\/.+sig=/);
    const img = await fetch(t.baseUrl + (attached.body.image_url as string));
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    // a tampered signature or key is refused
    // (the signature's first character changed to another one: 'A' unless it already is one)
    const tampered = (attached.body.image_url as string).replace(
      /sig=(.)/,
      (_, c) => `sig=${c === 'A' ? 'B' : 'A'}`,
    );
    expect((await fetch(t.baseUrl + tampered)).status).toBe(403);
    const [audit] = await t.query<{ n: number }>(
      "SELECT count(*) AS n FROM audit_log WHERE action = 'medicine.image'",
    );
    expect(audit!.n).toBe(1);
  });

  it('L4: an upload URL stores once; a second PUT after attach is 409 and the image stays as attached', async () => {
    const m = await makeMedicine(t);
    const res = await t.post<UploadUrl>(
      '/api/v1/images/medicines/upload-url',
      { content_type: 'image/png', size_bytes: PNG.length },
      admin,
    );
    expect((await upload(t, res.body.uploadUrl, PNG, 'image/png')).status).toBe(200);
    const attached = await t.post(
      `/api/v1/images/medicines/${m.id}/image`,
      { image_key: res.body.key },
      admin,
    );
    expect(attached.status).toBe(200);
    const other = Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(120, 9)]);
    const again = await upload(t, res.body.uploadUrl, other, 'image/png');
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'UPLOAD_URL_USED' });
    // Two racing PUTs to a fresh URL: one stores, the other is refused.
    const fresh = await t.post<UploadUrl>(
      '/api/v1/images/medicines/upload-url',
      { content_type: 'image/png', size_bytes: PNG.length },
      admin,
    );
    const race = await Promise.all([
      upload(t, fresh.body.uploadUrl, PNG, 'image/png'),
      upload(t, fresh.body.uploadUrl, other, 'image/png'),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    const img = await fetch(t.baseUrl + (attached.body.image_url as string));
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    const leftovers = fs
      .readdirSync(path.join(t.dataDir, 'images', 'medicines'))
      .filter((f) => f.endsWith('.part'));
    expect(leftovers).toEqual([]);
  });

  it('refuses uploads that do not match what was signed', async () => {
    const res = await t.post<UploadUrl>(
      '/api/v1/images/medicines/upload-url',
      { content_type: 'image/jpeg', size_bytes: JPEG.length },
      admin,
    );
    expect((await upload(t, res.body.uploadUrl, JPEG, 'image/png')).status).toBe(400);
    expect(
      (await upload(t, res.body.uploadUrl, Buffer.concat([JPEG, Buffer.from('x')]), 'image/jpeg')).status,
    ).toBe(400);
    expect((await upload(t, res.body.uploadUrl, Buffer.alloc(JPEG.length, 65), 'image/jpeg')).status).toBe(
      400,
    );
    expect(
      (await upload(t, res.body.uploadUrl.replace(/size=\d+/, 'size=1'), JPEG.subarray(0, 1), 'image/jpeg'))
        .status,
    ).toBe(403);
    const expired = res.body.uploadUrl.replace(/expires=\d+/, 'expires=1000');
    expect((await upload(t, expired, JPEG, 'image/jpeg')).status).toBe(403);
  });

  it('validates content type, size and keys with 400, unknown medicine with 404', async () => {
    for (const body of [
      {},
      { content_type: 'image/gif', size_bytes: 10 },
      { content_type: 'image/png', size_bytes: 0 },
      { content_type: 'image/png', size_bytes: -5 },
      { content_type: 'image/png', size_bytes: 1.5 },
      { content_type: 'image/png', size_bytes: 5 * 1024 * 1024 + 1 },
      { content_type: 'image/png', size_bytes: '100' },
    ]) {
      expect(
        (await t.post('/api/v1/images/medicines/upload-url', body, admin)).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect(
      (
        await t.post(
          '/api/v1/images/medicines/upload-url',
          { content_type: 'image/webp', size_bytes: 5 * 1024 * 1024 },
          admin,
        )
      ).status,
    ).toBe(200);
    const m = await makeMedicine(t);
    const attach = (key: string) =>
      t.post(`/api/v1/images/medicines/${m.id}/image`, { image_key: key }, admin);
    const outside = await attach('branding/0192f2c4-0000-7000-8000-000000000000.png');
    expect(outside.status).toBe(400);
    expect(outside.body.code).toBe('KEY_OUTSIDE_PREFIX');
    expect((await attach('medicines/../../jwt-secret')).status).toBe(400);
    const missing = await attach('medicines/0192f2c4-0000-7000-8000-000000000000.png');
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('UPLOAD_MISSING');
    const fake = await t.post<UploadUrl>(
      '/api/v1/images/medicines/upload-url',
      { content_type: 'image/png', size_bytes: 10 },
      admin,
    );
    fs.mkdirSync(path.join(t.dataDir, 'images', 'medicines'), { recursive: true });
    fs.writeFileSync(path.join(t.dataDir, 'images', fake.body.key), 'not an image');
    expect((await attach(fake.body.key)).body.code).toBe('NOT_AN_IMAGE');
    const unknown = await t.post(
      '/api/v1/images/medicines/0192f2c4-0000-7000-8000-000000000000/image',
      { image_key: fake.body.key },
      admin,
    );
    expect(unknown.status).toBe(404);
    const before = m;
    expect((await t.get(`/api/v1/medicines/${before.id}`, admin)).body.image_key).toBeNull();
  });

  it('sets the branding logo (admin only) and reads it back', async () => {
    const res = await t.post<UploadUrl>(
      '/api/v1/images/branding/upload-url',
      { content_type: 'image/jpeg', size_bytes: JPEG.length },
      admin,
    );
    expect(res.body.key.startsWith('branding/')).toBe(true);
    await upload(t, res.body.uploadUrl, JPEG, 'image/jpeg');
    expect(
      (await t.put('/api/v1/images/branding/logo', { image_key: 'medicines/x.png' }, admin)).status,
    ).toBe(400);
    const set = await t.put('/api/v1/images/branding/logo', { image_key: res.body.key }, admin);
    expect(set.status).toBe(200);
    expect(set.body.logo_key).toBe(res.body.key);
    const manager = await t.userWithRole('branch_manager');
    expect(
      (
        await t.post(
          '/api/v1/images/branding/upload-url',
          { content_type: 'image/jpeg', size_bytes: 5 },
          manager.token,
        )
      ).status,
    ).toBe(403);
    const got = await t.get('/api/v1/images/branding/logo', manager.token);
    expect(got.body.logo_key).toBe(res.body.key);
    expect((await fetch(t.baseUrl + (got.body.logo_url as string))).status).toBe(200);
  });
});

describe('images with IMAGE_STORAGE=off', () => {
  it('answers 500 STORAGE_NOT_CONFIGURED', async () => {
    const t = await startTestServer({ imageStorage: 'off' });
    try {
      const admin = await t.adminToken();
      const res = await t.post(
        '/api/v1/images/medicines/upload-url',
        { content_type: 'image/png', size_bytes: 10 },
        admin,
      );
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('STORAGE_NOT_CONFIGURED');
      const m = await makeMedicine(t);
      const attach = await t.post(
        `/api/v1/images/medicines/${m.id}/image`,
        { image_key: 'medicines/0192f2c4-0000-7000-8000-000000000000.png' },
        admin,
      );
      expect(attach.status).toBe(500);
      expect((await t.get('/api/v1/images/branding/logo', admin)).body.logo_url).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describe('images on an S3-compatible store (s3rver on loopback)', () => {
  let s3: S3rver;
  let t: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'pharmacy-images' }],
    });
    const { port } = await s3.run();
    t = await startTestServer({
      imageStorage: 's3',
      s3: {
        endpoint: `http://127.0.0.1:${port}`,
        bucket: 'pharmacy-images',
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: 'true',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('presigns an upload to the bucket, checks the object on attach and presigns reads', async () => {
    const admin = await t.adminToken();
    const m = await makeMedicine(t);
    const res = await t.post<UploadUrl>(
      '/api/v1/images/medicines/upload-url',
      { content_type: 'image/png', size_bytes: PNG.length },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pharmacy-images\/medicines\//);
    const missing = await t.post(
      `/api/v1/images/medicines/${m.id}/image`,
      { image_key: res.body.key },
      admin,
    );
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('UPLOAD_MISSING');
    const put = await upload(t, res.body.uploadUrl, PNG, 'image/png');
    expect(put.status).toBe(200);
    const attached = await t.post(
      `/api/v1/images/medicines/${m.id}/image`,
      { image_key: res.body.key },
      admin,
    );
    expect(attached.status).toBe(200);
    expect(attached.body.image_url).toMatch(/X-Amz-Signature=/);
    const img = await fetch(attached.body.image_url as string);
    expect(img.status).toBe(200);
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    // bytes that are not the declared type are refused at attach time
    const bad = await t.post<UploadUrl>(
      '/api/v1/images/medicines/upload-url',
      { content_type: 'image/webp', size_bytes: 20 },
      admin,
    );
    await upload(t, bad.body.uploadUrl, Buffer.alloc(20, 1), 'image/webp');
    const refused = await t.post(
      `/api/v1/images/medicines/${m.id}/image`,
      { image_key: bad.body.key },
      admin,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('NOT_AN_IMAGE');
    // the embedded blob endpoint is not used with S3
    expect((await fetch(`${t.baseUrl}/api/v1/images/blob/${res.body.key}?expires=1&sig=x`)).status).toBe(404);
  });
});
