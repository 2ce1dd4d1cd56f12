import { withTimeout } from '../transport/timeouts';
import { DISCOVERY_TIMEOUT_MS, type DiscoveryResult, describeFailure } from './discovery-result';

export interface SerialPortInfo {
  path: string;
  manufacturer?: string;
  serialNumber?: string;
  vendorId?: string;
  productId?: string;
}

/** Lists serial ports for the settings screen. Never throws: on Linux this shells out to udevadm. */
export async function listSerialPorts(): Promise<DiscoveryResult<SerialPortInfo>> {
  try {
    const { SerialPort } = await import('serialport');
    const ports = await withTimeout(SerialPort.list(), DISCOVERY_TIMEOUT_MS, 'Listing serial ports');
    return {
      devices: ports.map((port) => ({
        path: port.path,
        manufacturer: port.manufacturer,
        serialNumber: port.serialNumber,
        vendorId: port.vendorId,
        productId: port.productId,
      })),
    };
  } catch (error) {
    return { devices: [], warning: describeFailure('Serial ports could not be listed', error) };
  }
}
