import { z } from 'zod';

/**
 * What central checks in a change a till pushes, before it decides anything else (modules/sync/gate.ts): the
 * same text, length, enum and number rules as the REST body that makes the row. A row travels as its table's
 * columns (money in integer minor units, booleans as 0/1), so these schemas are the row's shape with the REST
 * body's field rules; columns they do not name pass through and meet the table's own constraints. The rows' schemas
 * live by area (sync-payloads-counter, -approvals, -stock, -dispensing; their shared field rules in
 * sync-payload-fields.ts) and are exported from here.
 */

export * from './sync-payloads-approvals';
export * from './sync-payloads-counter';
export * from './sync-payloads-dispensing';
export * from './sync-payloads-stock';

/** How deep a pushed payload may nest (a sale with its lines is 3): deeper is refused at parse. */
export const MAX_PAYLOAD_DEPTH = 16;
/** The longest text any pushed field may carry (the longest REST text is 10,000 characters). */
export const MAX_PAYLOAD_TEXT = 20_000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse control characters
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The depth of a JSON value, walked without recursion (a hostile payload may nest 200,000 deep). */
export function payloadDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<{ v: unknown; d: number }> = [{ v: value, d: 0 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    if (deepest > MAX_PAYLOAD_DEPTH) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, d: d + 1 });
  }
  return deepest;
}

/**
 * The first text of a payload (at any depth) that no REST body would take: control characters (ESC/POS
 * commands on a receipt), or longer than MAX_PAYLOAD_TEXT. Null when every text is plain.
 */
export function payloadTextProblem(value: unknown): { path: string; message: string } | null {
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: '' }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (CONTROL_CHARACTERS.test(v)) return { path, message: 'must not contain control characters' };
      if (v.length > MAX_PAYLOAD_TEXT)
        return { path, message: `must be at most ${MAX_PAYLOAD_TEXT} characters` };
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) stack.push({ v: child, path: path ? `${path}.${k}` : k });
    }
  }
  return null;
}

/** A pushed change's payload: an object nested at most MAX_PAYLOAD_DEPTH deep. */
export const SyncPayload = z
  .record(z.string(), z.unknown())
  .refine((p) => payloadDepth(p) <= MAX_PAYLOAD_DEPTH, {
    message: `must not nest deeper than ${MAX_PAYLOAD_DEPTH} levels`,
  });
