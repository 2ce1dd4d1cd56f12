/**
 * The subset of the `usb` (v3, WebUSB-style) device API this package relies on. Kept structural so the
 * endpoint choice and write path can be exercised with plain objects when no printer is attached.
 */

export type UsbDirection = 'in' | 'out';
export type UsbEndpointType = 'bulk' | 'interrupt' | 'isochronous';

export interface UsbEndpointShape {
  endpointNumber: number;
  direction: UsbDirection;
  type: UsbEndpointType;
  packetSize: number;
}

export interface UsbAlternateShape {
  alternateSetting: number;
  interfaceClass: number;
  interfaceSubclass: number;
  interfaceProtocol: number;
  endpoints: readonly UsbEndpointShape[];
}

export interface UsbInterfaceShape {
  interfaceNumber: number;
  alternates: readonly UsbAlternateShape[];
}

export interface UsbConfigurationShape {
  configurationValue: number;
  interfaces: readonly UsbInterfaceShape[];
}

export interface UsbTransferOutResult {
  bytesWritten: number;
  status: 'ok' | 'stall' | 'babble';
}

export interface UsbPrinterDevice {
  vendorId: number;
  productId: number;
  readonly opened: boolean;
  readonly configuration: UsbConfigurationShape | null | undefined;
  readonly configurations: readonly UsbConfigurationShape[];
  readonly manufacturerName?: string | null;
  readonly productName?: string | null;
  readonly serialNumber?: string | null;
  open(): Promise<void>;
  close(): Promise<void>;
  selectConfiguration(configurationValue: number): Promise<void>;
  claimInterface(interfaceNumber: number): Promise<void>;
  releaseInterface(interfaceNumber: number): Promise<void>;
  selectAlternateInterface(interfaceNumber: number, alternateSetting: number): Promise<void>;
  transferOut(endpointNumber: number, data: Uint8Array, timeout?: number): Promise<UsbTransferOutResult>;
  clearHalt?(direction: UsbDirection, endpointNumber: number): Promise<void>;
  /** Linux: usblp binds printer-class interfaces, so it must let go before we can claim one. */
  detachKernelDriver?(interfaceNumber: number): Promise<void>;
  attachKernelDriver?(interfaceNumber: number): Promise<void>;
}

export const USB_CLASS_PRINTER = 0x07;
export const USB_CLASS_VENDOR_SPECIFIC = 0xff;

export interface UsbPrinterEndpoint {
  configurationValue: number;
  interfaceNumber: number;
  alternateSetting: number;
  interfaceClass: number;
  endpointNumber: number;
  packetSize: number;
}

/**
 * Picks the bulk OUT endpoint to print through: a printer-class interface first; failing that a
 * vendor-specific one, because many low-cost receipt printers only expose class 0xff.
 */
export function selectPrinterEndpoint(
  configurations: readonly UsbConfigurationShape[],
  options: { allowVendorSpecific?: boolean } = {},
): UsbPrinterEndpoint | undefined {
  const classes =
    options.allowVendorSpecific === false
      ? [USB_CLASS_PRINTER]
      : [USB_CLASS_PRINTER, USB_CLASS_VENDOR_SPECIFIC];
  for (const wantedClass of classes) {
    for (const configuration of configurations) {
      for (const usbInterface of configuration.interfaces) {
        for (const alternate of usbInterface.alternates) {
          if (alternate.interfaceClass !== wantedClass) continue;
          const endpoint = alternate.endpoints.find((e) => e.direction === 'out' && e.type === 'bulk');
          if (!endpoint) continue;
          return {
            configurationValue: configuration.configurationValue,
            interfaceNumber: usbInterface.interfaceNumber,
            alternateSetting: alternate.alternateSetting,
            interfaceClass: alternate.interfaceClass,
            endpointNumber: endpoint.endpointNumber,
            packetSize: endpoint.packetSize,
          };
        }
      }
    }
  }
  return undefined;
}

/** "04b8:0202" -> { vendorId: 0x04b8, productId: 0x0202 }. */
export function parseUsbAddress(address: string): { vendorId: number; productId: number } | undefined {
  const match = /^\s*(?:0x)?([0-9a-f]{1,4}):(?:0x)?([0-9a-f]{1,4})\s*$/i.exec(address);
  if (!match?.[1] || !match[2]) return undefined;
  return { vendorId: Number.parseInt(match[1], 16), productId: Number.parseInt(match[2], 16) };
}

export function formatUsbAddress(vendorId: number, productId: number): string {
  return `${vendorId.toString(16).padStart(4, '0')}:${productId.toString(16).padStart(4, '0')}`;
}
