import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { credentialFile, writeCredential } from './credential';
import { registerWithCentral } from './register';

/**
 * `npm run till:register -- --central http://host:8000 --email admin@... --password ... [--name "Till 1"]
 * [--branch <branch id>] [--data-dir ./data]`: registers this till with central and stores the device
 * credential in the data folder (mode 0600). The till server starts replicating on its next start. The till's
 * Head office screen does the same through the same registerWithCentral, and starts replicating at once.
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
  const credential = await registerWithCentral({
    centralUrl: central,
    email: values.email,
    password: values.password,
    name: values.name ?? `Till ${os.hostname()}`,
    ...(values.branch && { branchId: values.branch }),
  });
  // The URL as typed (a path prefix included) is what the CLI always stored.
  const file = credentialFile(dataDir);
  writeCredential(file, { ...credential, central_url: central });
  console.log(
    `Registered till "${credential.name}" as device ${credential.device_id} (branch ${credential.branch_id}); credential in ${file}`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
