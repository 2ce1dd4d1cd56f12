import { withTimeout } from '../transport/timeouts';
import { type UsbPrinterDevice, formatUsbAddress, selectPrinterEndpoint } from '../transport/usb-descriptors';
import { DISCOVERY_TIMEOUT_MS, type DiscoveryResult, describeFailure } from './discovery-result';

export interface UsbPrinterInfo {
  /** "vvvv:pppp", ready for TransportConfig.address. */
  address: string;
  vendorId: number;
  productId: number;
  manufacturer?: string;
  product?: string;
  serialNumber?: string;
}

/** Lists attached USB devices with a printer-class interface. Never throws. */
export async function listUsbPrinters(
  getDevices: () => Promise<readonly UsbPrinterDevice[]> = defaultGetDevices,
): Promise<DiscoveryResult<UsbPrinterInfo>> {
  try {
    const devices = await withTimeout(getDevices(), DISCOVERY_TIMEOUT_MS, 'Listing USB devices');
    const printers: UsbPrinterInfo[] = [];
    for (const device of devices) {
      const info = describePrinter(device);
      if (info) printers.push(info);
    }
    return { devices: printers };
  } catch (error) {
    return { devices: [], warning: describeFailure('USB printers could not be listed', error) };
  }
}

async function defaultGetDevices(): Promise<readonly UsbPrinterDevice[]> {
  const { usb } = await import('usb');
  const devices: unknown[] = await usb.getDevices();
  return devices as UsbPrinterDevice[];
}

function describePrinter(device: UsbPrinterDevice): UsbPrinterInfo | undefined {
  try {
    if (!selectPrinterEndpoint(device.configurations, { allowVendorSpecific: false })) return undefined;
    return {
      address: formatUsbAddress(device.vendorId, device.productId),
      vendorId: device.vendorId,
      productId: device.productId,
      manufacturer: device.manufacturerName ?? undefined,
      product: device.productName ?? undefined,
      serialNumber: device.serialNumber ?? undefined,
    };
  } catch {
    // String descriptors need the device opened; an inaccessible device is simply not offered.
    return undefined;
  }
}
