export type TransportKind = 'usb' | 'serial' | 'tcp' | 'device';
export type FlowControl = 'none' | 'rtscts' | 'xonxoff';

/** What an operator or the organisation allows beyond the built-in printer devices and ports. */
export interface TransportAllowances {
  /** Extra device path globs for device and serial links (PRINTER_DEVICE_ALLOW), e.g. /dev/pts/*. */
  devicePaths?: readonly string[];
  /** TCP ports besides the printer ports 9100-9109, 515 and 631 (the printer_extra_ports setting). */
  tcpPorts?: readonly number[];
}

export interface TransportConfig {
  transport: TransportKind;
  /** tcp: "host[:port]" (9100 by default); serial/device: a path; usb: "vvvv:pppp" in hex. */
  address: string;
  baudRate?: number;
  flowControl?: FlowControl;
  /** Applies to connecting, each write and each status read. */
  timeoutMs?: number;
  allow?: TransportAllowances;
}

export interface PrinterStatus {
  online: boolean;
  coverOpen: boolean;
  paperOut: boolean;
  paperNearEnd: boolean;
}

export interface PrinterTransport {
  write(bytes: Buffer): Promise<void>;
  /** Only where the link is bidirectional and the printer answers DLE EOT (tcp, serial). */
  readStatus?(): Promise<PrinterStatus>;
  close(): Promise<void>;
}
