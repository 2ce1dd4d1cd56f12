import type { PrinterDevices, PrinterStatusReport } from '@pharmacy/contracts';
import {
  PrinterError,
  type PrinterStatus,
  type PrinterTransport,
  type TransportAllowances,
  type TransportConfig,
  listSerialPorts,
  listUsbPrinters,
  openTransport,
  toPrinterError,
} from '@pharmacy/hardware';
import type { AppContext } from '../../app-context';
import { getSettings } from '../settings/service';
import type { PrintersTable } from '../../db/tables/printing';

/**
 * What this till may open besides the built-in printer devices and ports: the operator's PRINTER_DEVICE_ALLOW
 * globs and the organisation's printer_extra_ports. The transports check every printer against them at
 * open time, so a row the API would refuse today (an old install's) still never reaches a file or a port.
 */
export async function transportAllowances(app: AppContext): Promise<TransportAllowances> {
  return {
    devicePaths: app.config.printerDeviceAllow,
    tcpPorts: (await getSettings(app)).printer_extra_ports,
  };
}

export function transportConfig(
  printer: PrintersTable,
  timeoutMs: number,
  allow: TransportAllowances,
): TransportConfig {
  return {
    transport: printer.transport,
    address: printer.address,
    ...(printer.baud_rate !== null && { baudRate: printer.baud_rate }),
    timeoutMs,
    allow,
  };
}

/** Rejects with a TIMEOUT PrinterError when `work` has not settled in time (a native call that ignores its own timeout). */
export function deadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PrinterError('TIMEOUT', `${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/** Printers that answer DLE EOT: Epson-mode printers on a bidirectional link (Star mode answers ASB instead). */
export const canReadStatus = (printer: PrintersTable): boolean =>
  (printer.transport === 'tcp' || printer.transport === 'serial') && printer.command_set === 'epson';

export function stateOf(status: PrinterStatus): string {
  if (status.paperOut) return 'PAPER_OUT';
  if (status.coverOpen) return 'COVER_OPEN';
  if (!status.online) return 'OFFLINE';
  if (status.paperNearEnd) return 'PAPER_NEAR_END';
  return 'READY';
}

/**
 * Asks the printer how it is: opens the transport and, where it can, reads DLE EOT. Never hangs: every step
 * has the status timeout and the whole check a hard deadline; never throws: failures are part of the report.
 */
export async function readPrinterStatus(
  printer: PrintersTable,
  timeoutMs: number,
  allow: TransportAllowances,
): Promise<PrinterStatusReport> {
  const started = Date.now();
  let opened = false;
  let status: PrinterStatus | null = null;
  let error: PrinterError | undefined;
  let transport: PrinterTransport | undefined;
  let done = false;
  const check = async () => {
    const t = await openTransport(transportConfig(printer, timeoutMs, allow));
    // Opened after the deadline: nobody will read it, close it now.
    if (done) return void t.close().catch(() => undefined);
    transport = t;
    opened = true;
    if (canReadStatus(printer) && transport.readStatus) status = await transport.readStatus();
  };
  try {
    await deadline(check(), timeoutMs * 2 + 250, `Checking printer ${printer.name}`);
  } catch (e) {
    error = toPrinterError(e, 'Checking printer');
  } finally {
    done = true;
    const t = transport as PrinterTransport | undefined;
    if (t) void deadline(t.close(), timeoutMs, 'Closing printer').catch(() => undefined);
  }
  const read = status as PrinterStatus | null;
  return {
    printer_id: printer.id,
    transport: printer.transport,
    reachable: opened,
    status: read && {
      online: read.online,
      cover_open: read.coverOpen,
      paper_out: read.paperOut,
      paper_near_end: read.paperNearEnd,
    },
    state: read ? stateOf(read) : error ? (opened ? 'NO_STATUS' : error.code) : 'CONNECTED',
    error: error ? { code: error.code, message: error.message } : null,
    checked_at: new Date(started).toISOString(),
    elapsed_ms: Date.now() - started,
  };
}

/** Serial ports and USB printers attached to this machine; never throws (warnings say what could not be listed). */
export async function discoverDevices(): Promise<PrinterDevices> {
  const [serial, usb] = await Promise.all([listSerialPorts(), listUsbPrinters()]);
  const strip = <T extends object>(o: T): T =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;
  return {
    serial: serial.devices.map((d) =>
      strip({
        path: d.path,
        manufacturer: d.manufacturer,
        serial_number: d.serialNumber,
        vendor_id: d.vendorId,
        product_id: d.productId,
      }),
    ),
    usb: usb.devices.map((d) =>
      strip({
        address: d.address,
        vendor_id: d.vendorId,
        product_id: d.productId,
        manufacturer: d.manufacturer,
        product: d.product,
        serial_number: d.serialNumber,
      }),
    ),
    warnings: [serial.warning, usb.warning].filter((w): w is string => typeof w === 'string'),
  };
}
