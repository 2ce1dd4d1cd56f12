import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSerialPorts } from './serial-discovery';

describe('listSerialPorts', () => {
  it('answers without throwing on this machine', async () => {
    const result = await listSerialPorts();
    expect(Array.isArray(result.devices)).toBe(true);
    if (result.warning !== undefined) expect(result.devices).toEqual([]);
  });

  it('returns [] and a warning when udevadm cannot be run', async () => {
    const emptyBin = await mkdtemp(path.join(tmpdir(), 'no-udevadm-'));
    const savedPath = process.env.PATH;
    process.env.PATH = emptyBin;
    try {
      const result = await listSerialPorts();
      expect(result.devices).toEqual([]);
      expect(result.warning).toMatch(/^Serial ports could not be listed: /);
    } finally {
      process.env.PATH = savedPath;
      await rm(emptyBin, { recursive: true, force: true });
    }
  });
});
