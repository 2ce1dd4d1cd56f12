import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * Writes resources/icon.png (512x512): a green rounded square with a white pharmacy cross.
 * electron-builder derives the Windows .ico and macOS .icns from it.
 */
const SIZE = 512;

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function pixel(x: number, y: number): [number, number, number, number] {
  const r = 96;
  const m = 16;
  const cx = Math.min(Math.max(x, m + r), SIZE - m - r);
  const cy = Math.min(Math.max(y, m + r), SIZE - m - r);
  const inside = x >= m && y >= m && x < SIZE - m && y < SIZE - m && (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  if (!inside) return [0, 0, 0, 0];
  const arm = 64;
  const len = 170;
  const mid = SIZE / 2;
  const cross =
    (Math.abs(x - mid) <= arm && Math.abs(y - mid) <= len) ||
    (Math.abs(y - mid) <= arm && Math.abs(x - mid) <= len);
  return cross ? [255, 255, 255, 255] : [11, 110, 79, 255];
}

export function iconPng(): Buffer {
  const raw = Buffer.alloc((SIZE * 4 + 1) * SIZE);
  for (let y = 0; y < SIZE; y++) {
    const row = y * (SIZE * 4 + 1);
    raw[row] = 0;
    for (let x = 0; x < SIZE; x++) raw.set(pixel(x, y), row + 1 + x * 4);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const out = path.resolve(import.meta.dirname, '../../../resources/icon.png');
  fs.writeFileSync(out, iconPng());
  console.log(`wrote ${out}`);
}
