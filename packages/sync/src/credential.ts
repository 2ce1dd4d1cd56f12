import fs from 'node:fs';
import path from 'node:path';

/** What `npm run till:register` stores in the till's data folder (mode 0600). */
export interface DeviceCredential {
  central_url: string;
  device_id: string;
  device_token: string;
  branch_id: string;
  name: string;
  registered_at: string;
}

export const credentialFile = (dataDir: string): string => path.join(dataDir, 'sync-device.json');

export function readCredential(file: string): DeviceCredential | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const c = JSON.parse(text) as DeviceCredential;
  if (!c.device_id || !c.device_token) throw new Error(`${file} lacks device_id or device_token`);
  return c;
}

export function writeCredential(file: string, c: DeviceCredential): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(c, null, 2), { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}
