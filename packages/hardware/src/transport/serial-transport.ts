import { serialDevicePath } from './device-path';
import { PrinterError, toPrinterError } from './printer-error';
import { PrinterLink } from './printer-status';
import { DEFAULT_TIMEOUT_MS, withTimeout } from './timeouts';
import type { FlowControl, PrinterTransport } from './transport-types';

export interface SerialTransportOptions {
  baudRate?: number;
  flowControl?: FlowControl;
  timeoutMs?: number;
  /** Extra device path globs (PRINTER_DEVICE_ALLOW) besides the built-in serial device names. */
  allowGlobs?: readonly string[];
}

export const DEFAULT_BAUD_RATE = 9600;

/** The serialport bindings report errno only inside the message text. */
function serialError(error: unknown, context: string): PrinterError {
  const mapped = toPrinterError(error, context);
  if (mapped.code !== 'IO') return mapped;
  if (/No such file or directory|ENOENT/i.test(mapped.message)) {
    return new PrinterError('NOT_FOUND', mapped.message, { cause: error });
  }
  return mapped;
}

export async function openSerialTransport(
  path: string,
  options: SerialTransportOptions = {},
): Promise<PrinterTransport> {
  if (!path.trim()) throw new PrinterError('INVALID_CONFIG', 'Serial printer path is empty');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const flowControl = options.flowControl ?? 'none';
  const where = `serial printer ${path}`;
  const device = await withTimeout(serialDevicePath(path, options.allowGlobs), timeoutMs, `Opening ${where}`);
  const { SerialPort } = await import('serialport');
  const port = new SerialPort({
    path: device,
    baudRate: options.baudRate ?? DEFAULT_BAUD_RATE,
    rtscts: flowControl === 'rtscts',
    xon: flowControl === 'xonxoff',
    xoff: flowControl === 'xonxoff',
    autoOpen: false,
  });
  const link = new PrinterLink(where, timeoutMs);

  await withTimeout(
    new Promise<void>((resolve, reject) =>
      port.open((error) => (error ? reject(serialError(error, `Cannot open ${where}`)) : resolve())),
    ),
    timeoutMs,
    `Opening ${where}`,
  );
  port.on('data', (chunk: Buffer) => link.receive(chunk));
  port.on('error', (error: Error) => link.fail(serialError(error, `${where} failed`)));

  const write = (bytes: Buffer): Promise<void> => {
    if (link.failure) return Promise.reject(link.failure);
    return withTimeout(
      new Promise<void>((resolve, reject) => {
        port.write(bytes);
        // drain() resolves only once the OS has sent the bytes, so flow control stalls surface as TIMEOUT.
        port.drain((error) => (error ? reject(serialError(error, `Writing to ${where}`)) : resolve()));
      }),
      timeoutMs,
      `Writing to ${where}`,
    );
  };

  const close = async (): Promise<void> => {
    if (!port.isOpen) return;
    await withTimeout(
      new Promise<void>((resolve, reject) =>
        port.close((error) => (error ? reject(toPrinterError(error, `Closing ${where}`)) : resolve())),
      ),
      timeoutMs,
      `Closing ${where}`,
    );
  };

  return { write, readStatus: () => link.readStatus(write), close };
}
