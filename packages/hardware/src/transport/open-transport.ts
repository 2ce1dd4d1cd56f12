import { openDeviceTransport } from './device-transport';
import { PrinterError } from './printer-error';
import { openSerialTransport } from './serial-transport';
import { openTcpTransport } from './tcp-transport';
import type { PrinterTransport, TransportConfig } from './transport-types';
import { openUsbTransport } from './usb-transport';

export function openTransport(config: TransportConfig): Promise<PrinterTransport> {
  const { address, timeoutMs } = config;
  const allowGlobs = config.allow?.devicePaths;
  switch (config.transport) {
    case 'tcp':
      return openTcpTransport(address, { timeoutMs, extraPorts: config.allow?.tcpPorts });
    case 'serial':
      return openSerialTransport(address, {
        baudRate: config.baudRate,
        flowControl: config.flowControl,
        timeoutMs,
        allowGlobs,
      });
    case 'device':
      return openDeviceTransport(address, { timeoutMs, allowGlobs });
    case 'usb':
      return openUsbTransport(address, { timeoutMs });
    default:
      return Promise.reject(
        new PrinterError('INVALID_CONFIG', `Unknown printer transport "${String(config.transport)}"`),
      );
  }
}
