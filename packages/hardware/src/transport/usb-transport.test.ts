import { describe, expect, it } from 'vitest';
import { listUsbPrinters } from '../discovery/usb-discovery';
import { openTransport } from './open-transport';
import { PrinterError } from './printer-error';
import type {
  UsbConfigurationShape,
  UsbDirection,
  UsbEndpointShape,
  UsbPrinterDevice,
  UsbTransferOutResult,
} from './usb-descriptors';
import { formatUsbAddress, parseUsbAddress, selectPrinterEndpoint } from './usb-descriptors';
import { claimUsbPrinter, openUsbTransport } from './usb-transport';

const bulk = (endpointNumber: number, direction: UsbDirection): UsbEndpointShape => ({
  endpointNumber,
  direction,
  type: 'bulk',
  packetSize: 64,
});

const alternate = (interfaceClass: number, endpoints: UsbEndpointShape[], alternateSetting = 0) => ({
  alternateSetting,
  interfaceClass,
  interfaceSubclass: interfaceClass === 7 ? 1 : 0,
  interfaceProtocol: interfaceClass === 7 ? 2 : 0,
  endpoints,
});

/** An Epson-like receipt printer: a HID interface, then the printer-class interface with bulk OUT 1 / IN 2. */
const EPSON_LIKE: UsbConfigurationShape[] = [
  {
    configurationValue: 1,
    interfaces: [
      { interfaceNumber: 0, alternates: [alternate(3, [])] },
      { interfaceNumber: 1, alternates: [alternate(7, [bulk(2, 'in'), bulk(1, 'out')])] },
    ],
  },
];

/** Behaves like the `usb` package's device object, recording what the transport does to it. */
class FakeUsbPrinter implements UsbPrinterDevice {
  vendorId = 0x04b8;
  productId = 0x0202;
  opened = false;
  configuration: UsbConfigurationShape | null = null;
  calls: string[] = [];
  written: Buffer[] = [];
  kernelDriverAttached: boolean;
  stallNext = false;

  constructor(
    readonly configurations: UsbConfigurationShape[] = EPSON_LIKE,
    options: { kernelDriver?: boolean } = {},
  ) {
    this.kernelDriverAttached = options.kernelDriver ?? false;
  }

  async open() {
    this.calls.push('open');
    this.opened = true;
  }
  async close() {
    this.calls.push('close');
    this.opened = false;
  }
  async selectConfiguration(value: number) {
    this.calls.push(`selectConfiguration ${value}`);
    this.configuration = this.configurations.find((c) => c.configurationValue === value) ?? null;
  }
  async claimInterface(n: number) {
    this.calls.push(`claim ${n}`);
    if (!this.opened) throw new Error('device not open');
    if (this.kernelDriverAttached) throw Object.assign(new Error('LIBUSB_ERROR_BUSY'), { code: 'EBUSY' });
  }
  async releaseInterface(n: number) {
    this.calls.push(`release ${n}`);
  }
  async selectAlternateInterface(n: number, alt: number) {
    this.calls.push(`alternate ${n} ${alt}`);
  }
  async detachKernelDriver(n: number) {
    this.calls.push(`detach ${n}`);
    this.kernelDriverAttached = false;
  }
  async attachKernelDriver(n: number) {
    this.calls.push(`attach ${n}`);
    this.kernelDriverAttached = true;
  }
  async clearHalt(direction: UsbDirection, endpoint: number) {
    this.calls.push(`clearHalt ${direction} ${endpoint}`);
  }
  async transferOut(endpointNumber: number, data: Uint8Array): Promise<UsbTransferOutResult> {
    this.calls.push(`out ${endpointNumber} ${data.length}`);
    if (this.stallNext) return { bytesWritten: 0, status: 'stall' };
    this.written.push(Buffer.from(data));
    return { bytesWritten: data.length, status: 'ok' };
  }
}

describe('selectPrinterEndpoint', () => {
  it('picks the bulk OUT endpoint of the printer-class interface', () => {
    expect(selectPrinterEndpoint(EPSON_LIKE)).toEqual({
      configurationValue: 1,
      interfaceNumber: 1,
      alternateSetting: 0,
      interfaceClass: 7,
      endpointNumber: 1,
      packetSize: 64,
    });
  });

  it('prefers class 7 over vendor-specific, falls back to vendor-specific, ignores non-bulk', () => {
    const vendorFirst: UsbConfigurationShape[] = [
      {
        configurationValue: 1,
        interfaces: [
          { interfaceNumber: 0, alternates: [alternate(0xff, [bulk(3, 'out')])] },
          {
            interfaceNumber: 1,
            alternates: [
              alternate(7, [{ ...bulk(4, 'out'), type: 'interrupt' }]),
              alternate(7, [bulk(5, 'out')], 1),
            ],
          },
        ],
      },
    ];
    expect(selectPrinterEndpoint(vendorFirst)).toMatchObject({
      interfaceNumber: 1,
      alternateSetting: 1,
      endpointNumber: 5,
    });
    const vendorOnly = [{ configurationValue: 1, interfaces: [vendorFirst[0]!.interfaces[0]!] }];
    expect(selectPrinterEndpoint(vendorOnly)).toMatchObject({ interfaceClass: 0xff, endpointNumber: 3 });
    expect(selectPrinterEndpoint(vendorOnly, { allowVendorSpecific: false })).toBeUndefined();
    expect(
      selectPrinterEndpoint([
        {
          configurationValue: 1,
          interfaces: [{ interfaceNumber: 0, alternates: [alternate(7, [bulk(2, 'in')])] }],
        },
      ]),
    ).toBeUndefined();
  });

  it('parses vendor:product addresses', () => {
    expect(parseUsbAddress('04b8:0e15')).toEqual({ vendorId: 0x04b8, productId: 0x0e15 });
    expect(parseUsbAddress('0x0519:0x0003')).toEqual({ vendorId: 0x0519, productId: 0x0003 });
    expect(parseUsbAddress('lp0')).toBeUndefined();
    expect(formatUsbAddress(0x4b8, 0x202)).toBe('04b8:0202');
  });
});

describe('USB write path', () => {
  it('claims the interface, writes in chunks and releases on close', async () => {
    const device = new FakeUsbPrinter();
    const transport = await claimUsbPrinter(device, { timeoutMs: 1_000 });
    const bytes = Buffer.alloc(10_000, 0x41);
    await transport.write(bytes);
    await transport.close();
    expect(Buffer.concat(device.written).equals(bytes)).toBe(true);
    expect(device.calls).toEqual([
      'open',
      'selectConfiguration 1',
      'claim 1',
      'out 1 4096',
      'out 1 4096',
      'out 1 1808',
      'release 1',
      'close',
    ]);
  });

  it('detaches the usblp kernel driver when it holds the interface, and gives it back', async () => {
    const device = new FakeUsbPrinter(EPSON_LIKE, { kernelDriver: true });
    const transport = await openUsbTransport('04b8:0202', { findDevice: async () => device });
    await transport.write(Buffer.from([0x1b, 0x40]));
    await transport.close();
    expect(device.calls).toEqual([
      'open',
      'selectConfiguration 1',
      'claim 1',
      'detach 1',
      'claim 1',
      'out 1 2',
      'release 1',
      'attach 1',
      'close',
    ]);
  });

  it('turns a stalled endpoint into an IO error', async () => {
    const device = new FakeUsbPrinter();
    const transport = await claimUsbPrinter(device);
    device.stallNext = true;
    const error = await transport.write(Buffer.from('x')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'IO' });
    expect(device.calls).toContain('clearHalt out 1');
  });

  it('reports missing devices and bad addresses with typed errors', async () => {
    await expect(openUsbTransport('04b8:0202', { findDevice: async () => undefined })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(openUsbTransport('printer')).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
    const noPrinter = new FakeUsbPrinter([{ configurationValue: 1, interfaces: [] }]);
    await expect(claimUsbPrinter(noPrinter)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('fails cleanly through the real usb library when nothing is attached', async () => {
    const error = await openTransport({ transport: 'usb', address: '04b8:0202', timeoutMs: 2_000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PrinterError);
    expect(['NOT_FOUND', 'IO']).toContain((error as PrinterError).code);
  });
});

describe('listUsbPrinters', () => {
  it('never throws and explains an empty answer', async () => {
    const result = await listUsbPrinters();
    expect(Array.isArray(result.devices)).toBe(true);
    if (result.devices.length === 0) expect(typeof (result.warning ?? '')).toBe('string');
    const denied = await listUsbPrinters(async () => {
      throw new Error('LIBUSB_ERROR_ACCESS');
    });
    expect(denied).toEqual({ devices: [], warning: 'USB printers could not be listed: LIBUSB_ERROR_ACCESS' });
  });

  it('lists only devices with a printer-class interface', async () => {
    const printer = new FakeUsbPrinter();
    const vendorOnly = new FakeUsbPrinter([
      {
        configurationValue: 1,
        interfaces: [{ interfaceNumber: 0, alternates: [alternate(0xff, [bulk(1, 'out')])] }],
      },
    ]);
    vendorOnly.productId = 0x1234;
    const result = await listUsbPrinters(async () => [printer, vendorOnly]);
    expect(result).toEqual({
      devices: [{ address: '04b8:0202', vendorId: 0x04b8, productId: 0x0202 }],
    });
  });
});
