/**
 * Raw commands where node-thermal-printer's output is not usable as-is:
 * its ESC p lacks the two pulse-time bytes, its cut() re-initialises the printer afterwards (so the cut
 * would not be the last command), and its Star QR omits the ESC GS y D data command.
 */

const ESC = 0x1b;
const GS = 0x1d;

export type DrawerPin = 2 | 5;

/** ESC p m t1 t2: pulse drawer connector pin 2 or 5 for t1*2 ms on, t2*2 ms off. */
export function kickDrawerBytes(pin: DrawerPin = 2, onMs = 100, offMs = 500): Buffer {
  const t1 = Math.min(255, Math.max(1, Math.round(onMs / 2)));
  const t2 = Math.min(255, Math.max(t1, Math.round(offMs / 2)));
  return Buffer.from([ESC, 0x70, pin === 2 ? 0 : 1, t1, t2]);
}

/** Star Line Mode: ESC BEL n1 n2 sets the pulse, BEL fires drawer 1. */
export function starKickDrawerBytes(): Buffer {
  return Buffer.from([ESC, 0x07, 0x0b, 0x37, 0x07]);
}

/** Feeds the last lines past the cutter and cuts. */
export function feedAndCutBytes(commandSet: 'epson' | 'star', partial: boolean): Buffer {
  if (commandSet === 'star') return Buffer.from([0x0a, 0x0a, 0x0a, ESC, 0x64, partial ? 3 : 2]);
  return Buffer.from([ESC, 0x64, 4, GS, 0x56, partial ? 1 : 0]);
}

/** ESC GS y: model 2, correction M, cell size, data (nL nH), print. */
export function starQrBytes(data: string, cellSize = 4): Buffer {
  const payload = Buffer.from(data, 'latin1');
  return Buffer.concat([
    Buffer.from([ESC, GS, 0x79, 0x53, 0x30, 2]),
    Buffer.from([ESC, GS, 0x79, 0x53, 0x31, 1]),
    Buffer.from([ESC, GS, 0x79, 0x53, 0x32, cellSize]),
    Buffer.from([ESC, GS, 0x79, 0x44, 0x31, 0, payload.length & 0xff, payload.length >> 8]),
    payload,
    Buffer.from([ESC, GS, 0x79, 0x50, 0x0a]),
  ]);
}
