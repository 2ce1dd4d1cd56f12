import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, realpath, stat } from 'node:fs/promises';
import { PrinterError } from './printer-error';

/**
 * Which paths a printer or serial link may open. A device or serial address names a real printer or serial
 * device node; anything else the server can open (its own database through /dev/fd/N, /dev/stderr, a file,
 * /dev/shm, a disk) is refused, by name before opening and by fstat after. An operator may allow more names
 * (PRINTER_DEVICE_ALLOW, e.g. /dev/pts/* for a socat pty); never through the API.
 */
export type DeviceKind = 'device' | 'serial';

const SERIAL_NAMES = [
  /^\/dev\/tty(?:USB|ACM|S)\d+$/, // Linux: USB serial, USB CDC, on-board UART
  /^\/dev\/serial\/by-(?:id|path)\/[A-Za-z0-9._:+-]+$/, // udev's stable links to the above
  /^\/dev\/(?:cu|tty)\.[A-Za-z0-9._+-]+$/, // macOS
];
const PRINTER_NAMES = [/^\/dev\/usb\/lp\d+$/, /^\/dev\/lp\d+$/, ...SERIAL_NAMES];
const WINDOWS_SERIAL = /^COM(?:[1-9]\d{0,2})$/;
const WINDOWS_PRINTER = /^(?:COM[1-9]\d{0,2}|LPT[1-9])$/;

/** Never a printer, whatever an operator allows: descriptors, standard streams, shared memory, memory. */
const NEVER = /^\/dev\/(?:fd\/|std(?:in|out|err)$|shm(?:\/|$)|mqueue(?:\/|$)|hugepages(?:\/|$)|k?mem$|port$)/;
const SEGMENT = /^[A-Za-z0-9._:+-]+$/;

/** What a glob of PRINTER_DEVICE_ALLOW must not match (the check at start-up). */
const SENSITIVE_SAMPLES = [
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/null',
  '/dev/zero',
  '/dev/full',
  '/dev/random',
  '/dev/urandom',
  '/dev/mem',
  '/dev/kmem',
  '/dev/kmsg',
  '/dev/port',
  '/dev/tty',
  '/dev/console',
  '/dev/ptmx',
  '/dev/sda',
  '/dev/sda1',
  '/dev/vda',
  '/dev/nvme0n1',
  '/dev/mmcblk0',
  '/dev/loop0',
  '/dev/dm-0',
  '/dev/fuse',
];

function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

/** Why a PRINTER_DEVICE_ALLOW glob is unsafe, or undefined: an absolute /dev path whose wildcards (* ?) sit in the last segment only. */
export function deviceGlobProblem(glob: string): string | undefined {
  const segments = glob.split('/');
  const name = segments.pop() ?? '';
  const dir = segments.join('/');
  if (!glob.startsWith('/dev/') || segments.length < 2) return `"${glob}" must be a path under /dev/`;
  if (!segments.slice(1).every((s) => SEGMENT.test(s)) || !/^[A-Za-z0-9._:+*?-]+$/.test(name))
    return `"${glob}": wildcards (* and ?) only in the last segment; no "..", "//" or other characters`;
  if (segments.includes('..') || segments.includes('.') || name === '..' || name === '.')
    return `"${glob}" must not contain . or .. segments`;
  if (NEVER.test(`${dir}/`) || NEVER.test(glob.replace(/[*?]/g, '')))
    return `"${glob}" names descriptors, standard streams or shared memory`;
  const pattern = globToRegExp(glob);
  const sensitive = SENSITIVE_SAMPLES.find((s) => pattern.test(s));
  if (sensitive) return `"${glob}" also matches ${sensitive}: name the printer devices more narrowly`;
  return undefined;
}

function isWellFormed(path: string): boolean {
  const segments = path.split('/').slice(1);
  return path.startsWith('/dev/') && segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');
}

const isWindowsName = (kind: DeviceKind, path: string) =>
  (kind === 'serial' ? WINDOWS_SERIAL : WINDOWS_PRINTER).test(path);

/**
 * Why `path` is not an allowed device name for `kind`, or undefined. Pure: no file system access. Device
 * printers: /dev/usb/lpN, /dev/lpN, and the serial names; serial links: /dev/tty{USB,ACM,S}N,
 * /dev/serial/by-{id,path}/..., macOS /dev/cu.* and /dev/tty.*; on Windows COMn (and LPTn for a device
 * printer). `extraGlobs` are the operator's PRINTER_DEVICE_ALLOW (each must pass `deviceGlobProblem`).
 */
export function devicePathProblem(
  kind: DeviceKind,
  path: string,
  extraGlobs: readonly string[] = [],
): string | undefined {
  const examples =
    kind === 'serial'
      ? '/dev/ttyUSB0, /dev/ttyACM0, /dev/ttyS0, /dev/serial/by-id/..., /dev/cu.* or COMn'
      : '/dev/usb/lp0, /dev/lp0, a serial device such as /dev/ttyUSB0, or COMn/LPTn on Windows';
  const problem = `must name a ${kind === 'serial' ? 'serial port' : 'printer device'} node: ${examples}`;
  if (isWindowsName(kind, path)) return undefined;
  if (!isWellFormed(path) || NEVER.test(path)) return problem;
  const names = kind === 'serial' ? SERIAL_NAMES : PRINTER_NAMES;
  if (names.some((re) => re.test(path))) return undefined;
  // A glob the start-up check would refuse (config.ts) is ignored here too.
  const matches = (glob: string) => !deviceGlobProblem(glob) && globToRegExp(glob).test(path);
  if (extraGlobs.some(matches)) return undefined;
  return problem;
}

const errnoOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;

const invalid = (path: string, why: string) =>
  new PrinterError('INVALID_CONFIG', `Refusing device ${path}: ${why}`);

/**
 * The real path of an allowed device name: its name and the name it resolves to (a udev link, an operator's
 * pty) must both be allowed. Rejects with INVALID_CONFIG when not allowed, NOT_FOUND when it does not exist.
 */
export async function resolveDevicePath(
  kind: DeviceKind,
  path: string,
  extraGlobs: readonly string[] = [],
): Promise<string> {
  const named = devicePathProblem(kind, path, extraGlobs);
  if (named) throw invalid(path, named);
  if (isWindowsName(kind, path)) {
    if (process.platform !== 'win32') throw invalid(path, 'COMn and LPTn name ports on Windows only');
    return `\\\\.\\${path}`;
  }
  const real = await realpath(path).catch((error: unknown) => {
    const code = errnoOf(error) === 'ENOENT' ? 'NOT_FOUND' : 'IO';
    throw new PrinterError(code, `Cannot open device ${path}: ${String(errnoOf(error) ?? error)}`, {
      cause: error,
    });
  });
  const resolved = real === path ? undefined : devicePathProblem(kind, real, extraGlobs);
  if (resolved) throw invalid(path, `it leads to ${real}, which is not a device this till prints to`);
  return real;
}

function assertCharacterDevice(path: string, stats: Stats): void {
  if (!stats.isCharacterDevice()) throw invalid(path, 'it is not a character device');
}

/**
 * Why a device address cannot be used, checked on the file system as well as by name (the create/update
 * check): undefined when it is allowed, or allowed by name but not plugged in at the moment. The message
 * names the path: "Refusing device <path>: <why>".
 */
export async function deviceAddressProblem(
  kind: DeviceKind,
  path: string,
  extraGlobs: readonly string[] = [],
): Promise<string | undefined> {
  const named = devicePathProblem(kind, path, extraGlobs);
  // A Windows port name is checked by name alone (it may configure a Windows till's printer).
  if (named || isWindowsName(kind, path)) return named && `Refusing device ${path}: ${named}`;
  try {
    assertCharacterDevice(path, await stat(await resolveDevicePath(kind, path, extraGlobs)));
    return undefined;
  } catch (error) {
    if (error instanceof PrinterError && error.code === 'INVALID_CONFIG') return error.message;
    return undefined; // not plugged in (or not readable) now: the print attempt reports it
  }
}

/** A serial port's real path, once it is known to be an allowed character device (serialport opens it itself). */
export async function serialDevicePath(path: string, extraGlobs: readonly string[] = []): Promise<string> {
  const real = await resolveDevicePath('serial', path, extraGlobs);
  if (process.platform !== 'win32') assertCharacterDevice(path, await stat(real));
  return real;
}

/**
 * Opens an allowed printer device for writing: write-only, never creating or truncating, no controlling
 * terminal, no symlink at the last step; then fstat()s the descriptor and refuses anything but a character
 * device before a byte is written.
 */
export async function openDeviceForWrite(
  path: string,
  extraGlobs: readonly string[] = [],
): Promise<FileHandle> {
  const real = await resolveDevicePath('device', path, extraGlobs);
  const flags = constants.O_WRONLY | (constants.O_NOCTTY ?? 0) | (constants.O_NOFOLLOW ?? 0);
  const handle = await open(real, flags);
  try {
    assertCharacterDevice(path, await handle.stat());
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}
