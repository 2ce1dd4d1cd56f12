import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { credentialFile, writeCredential } from './credential';

/**
 * `npm run till:register -- --central http://host:8000 --email admin@... --password ... [--name "Till 1"]
 * [--branch <branch id>] [--data-dir ./data]`: registers this till with central and stores the device
 * credential in the data folder (mode 0600). The till server starts replicating on its next start.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      central: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      branch: { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  const central = values.central ?? process.env.CENTRAL_URL;
  if (!central || !values.email || !values.password) {
    console.error(
      'usage: npm run till:register -- --central <url> --email <email> --password <password> [--name <name>] [--branch <branch id>] [--data-dir <dir>]',
    );
    process.exit(2);
  }
  const dataDir = path.resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');
  const api = (p: string) => new URL(`/api/v1${p}`, central).toString();
  const login = await fetch(api('/auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: values.email, password: values.password }),
  });
  const loginBody = (await login.json()) as {
    access_token?: string;
    detail?: string;
    must_change_password?: boolean;
  };
  if (!login.ok || !loginBody.access_token)
    throw new Error(`login failed (${login.status}): ${loginBody.detail ?? ''}`);
  if (loginBody.must_change_password)
    throw new Error(
      `${values.email} still has a password someone else set: sign in to head office (${central}) once and choose a new one, then register with it.`,
    );
  const name = values.name ?? `Till ${os.hostname()}`;
  const res = await fetch(api('/sync/devices/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${loginBody.access_token}` },
    body: JSON.stringify({ name, ...(values.branch && { branch_id: values.branch }) }),
  });
  const body = (await res.json()) as {
    device_id?: string;
    device_token?: string;
    device?: { branch_id: string };
    detail?: string;
  };
  if (res.status !== 201 || !body.device_id || !body.device_token || !body.device)
    throw new Error(`registration failed (${res.status}): ${body.detail ?? JSON.stringify(body)}`);
  const file = credentialFile(dataDir);
  writeCredential(file, {
    central_url: central,
    device_id: body.device_id,
    device_token: body.device_token,
    branch_id: body.device.branch_id,
    name,
    registered_at: new Date().toISOString(),
  });
  console.log(
    `Registered till "${name}" as device ${body.device_id} (branch ${body.device.branch_id}); credential in ${file}`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
