import { PrinterError, toPrinterError } from './printer-error';
import { DEFAULT_TIMEOUT_MS, withTimeout } from './timeouts';
import type { PrinterTransport } from './transport-types';
import {
  type UsbPrinterDevice,
  formatUsbAddress,
  parseUsbAddress,
  selectPrinterEndpoint,
} from './usb-descriptors';

/** Bounded so each transfer gets its own timeout and a stalled printer is noticed quickly. */
const USB_CHUNK_BYTES = 4096;

export type UsbDeviceFinder = (vendorId: number, productId: number) => Promise<UsbPrinterDevice | undefined>;

/** Finds devices through the `usb` package, loaded lazily so other transports work without its native binary. */
export const findUsbDevice: UsbDeviceFinder = async (vendorId, productId) => {
  const { usb } = await import('usb');
  const device: unknown = await usb.findDeviceByIds(vendorId, productId);
  return device === undefined ? undefined : (device as UsbPrinterDevice);
};

export async function openUsbTransport(
  address: string,
  options: { timeoutMs?: number; findDevice?: UsbDeviceFinder } = {},
): Promise<PrinterTransport> {
  const ids = parseUsbAddress(address);
  if (!ids)
    throw new PrinterError(
      'INVALID_CONFIG',
      `USB printer address must be "vvvv:pppp" in hex, got "${address}"`,
    );
  const where = `USB printer ${formatUsbAddress(ids.vendorId, ids.productId)}`;
  const device = await (options.findDevice ?? findUsbDevice)(ids.vendorId, ids.productId).catch(
    (error: unknown) => {
      throw toPrinterError(error, `Looking for ${where}`);
    },
  );
  if (!device) throw new PrinterError('NOT_FOUND', `${where} is not connected`);
  return claimUsbPrinter(device, { timeoutMs: options.timeoutMs });
}

/** Opens the device, claims its printer interface and returns a transport writing to the bulk OUT endpoint. */
export async function claimUsbPrinter(
  device: UsbPrinterDevice,
  options: { timeoutMs?: number } = {},
): Promise<PrinterTransport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const where = `USB printer ${formatUsbAddress(device.vendorId, device.productId)}`;
  const endpoint = selectPrinterEndpoint(device.configurations);
  if (!endpoint)
    throw new PrinterError('NOT_FOUND', `${where} has no printer interface with a bulk OUT endpoint`);

  let detachedKernelDriver = false;
  try {
    if (!device.opened) await withTimeout(device.open(), timeoutMs, `Opening ${where}`);
    if (device.configuration?.configurationValue !== endpoint.configurationValue) {
      await device.selectConfiguration(endpoint.configurationValue);
    }
    try {
      await device.claimInterface(endpoint.interfaceNumber);
    } catch (claimError) {
      if (!device.detachKernelDriver) throw claimError;
      await device.detachKernelDriver(endpoint.interfaceNumber);
      detachedKernelDriver = true;
      await device.claimInterface(endpoint.interfaceNumber);
    }
    if (endpoint.alternateSetting !== 0) {
      await device.selectAlternateInterface(endpoint.interfaceNumber, endpoint.alternateSetting);
    }
  } catch (error) {
    await device.close().catch(() => undefined);
    throw toPrinterError(error, `Cannot claim ${where}`);
  }

  let closed = false;
  const write = async (bytes: Buffer): Promise<void> => {
    if (closed) throw new PrinterError('IO', `${where} is closed`);
    let offset = 0;
    while (offset < bytes.length) {
      const chunk = bytes.subarray(offset, Math.min(bytes.length, offset + USB_CHUNK_BYTES));
      const result = await withTimeout(
        device.transferOut(endpoint.endpointNumber, chunk, timeoutMs),
        timeoutMs,
        `Writing to ${where}`,
      ).catch((error: unknown) => {
        throw toPrinterError(error, `Writing to ${where}`);
      });
      if (result.status !== 'ok') {
        await device.clearHalt?.('out', endpoint.endpointNumber).catch(() => undefined);
        throw new PrinterError('IO', `${where} answered the transfer with ${result.status}`);
      }
      if (result.bytesWritten <= 0) throw new PrinterError('IO', `${where} accepted no data`);
      offset += result.bytesWritten;
    }
  };

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    try {
      await device.releaseInterface(endpoint.interfaceNumber);
      if (detachedKernelDriver) await device.attachKernelDriver?.(endpoint.interfaceNumber);
    } finally {
      await device.close();
    }
  };

  return { write, close };
}
