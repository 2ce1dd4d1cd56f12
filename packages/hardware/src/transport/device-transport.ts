import { openDeviceForWrite } from './device-path';
import { PrinterError, toPrinterError } from './printer-error';
import { DEFAULT_TIMEOUT_MS, withTimeout } from './timeouts';
import type { PrinterTransport } from './transport-types';

/**
 * A printer exposed as a character device by the kernel (usblp's /dev/usb/lp0, parallel /dev/lp0).
 * Only an allowed device name that opens as a character device is written to (`openDeviceForWrite`):
 * never a file, a descriptor of this process or a stream; a missing device is reported, never created.
 */
export async function openDeviceTransport(
  path: string,
  options: { timeoutMs?: number; allowGlobs?: readonly string[] } = {},
): Promise<PrinterTransport> {
  if (!path.trim()) throw new PrinterError('INVALID_CONFIG', 'Printer device path is empty');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const where = `printer device ${path}`;
  const handle = await withTimeout(
    openDeviceForWrite(path, options.allowGlobs),
    timeoutMs,
    `Opening ${where}`,
  ).catch((error: unknown) => {
    const printerError = toPrinterError(error, `Cannot open ${where}`);
    const errno = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    if (errno === 'EACCES' || errno === 'EPERM') {
      printerError.message += ' (the till user needs write access, usually via the lp group)';
    }
    throw printerError;
  });
  let closed = false;

  const write = async (bytes: Buffer): Promise<void> => {
    if (closed) throw new PrinterError('IO', `${where} is closed`);
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await withTimeout(
        handle.write(bytes, offset, bytes.length - offset),
        timeoutMs,
        `Writing to ${where}`,
      ).catch((error: unknown) => {
        throw toPrinterError(error, `Writing to ${where}`);
      });
      offset += bytesWritten;
    }
  };

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close().catch((error: unknown) => {
      throw toPrinterError(error, `Closing ${where}`);
    });
  };

  return { write, close };
}
