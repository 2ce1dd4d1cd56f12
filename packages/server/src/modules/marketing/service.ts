import type { AppContext } from '../../app-context';
import { TooManyRequests } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { slidingWindowOf } from '../../lib/sliding-window';
import { nowIso } from '../../lib/time';

const MAX_PER_ADDRESS = 5;
const WINDOW_MS = 60 * 60_000;

export async function recordContact(
  app: AppContext,
  input: { name: string; email: string; phone: string; company: string; message: string },
  clientAddress: string,
) {
  const window = slidingWindowOf(app.cache, 'marketing-contact');
  const wait = window.retryAfter(clientAddress, MAX_PER_ADDRESS, WINDOW_MS);
  if (wait > 0)
    throw new TooManyRequests(`Too many enquiries from this address; try again in ${wait} seconds.`, wait);
  window.hit(clientAddress);
  const row = { id: newId(), ...input, client_address: clientAddress, created_at: nowIso() };
  await app.db.insertInto('marketing_contacts').values(row).execute();
  return { id: row.id, received_at: row.created_at };
}
