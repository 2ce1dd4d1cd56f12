export type TransportKind = 'usb' | 'serial' | 'tcp' | 'device';
export type FlowControl = 'none' | 'rtscts' | 'xonxoff';

export interface TransportConfig {
  transport: TransportKind;
  /** tcp: "host[:port]" (9100 by default); serial/device: a path; usb: "vvvv:pppp" in hex. */
  address: string;
  baudRate?: number;
  flowControl?: FlowControl;
  /** Applies to connecting, each write and each status read. */
  timeoutMs?: number;
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
