import { EventEmitter } from 'node:events';
import type { SerialPort } from 'serialport';
import { serialDevicePath } from '../transport/device-path';
import { ScanSplitter } from './scan-splitter';

export interface SerialScannerOptions {
  path: string;
  baudRate?: number;
  /** Terminator the scanner appends; CR, LF or CR LF by default. */
  suffix?: string | RegExp;
  /** Extra device path globs (PRINTER_DEVICE_ALLOW) besides the built-in serial device names. */
  allowGlobs?: readonly string[];
}

interface SerialScannerEvents {
  scan: [code: string];
  error: [error: Error];
  close: [];
}

/**
 * A barcode scanner on a serial (or USB-CDC) port. Emits `scan` with each code, suffix removed.
 * Also async-iterable: `for await (const code of scanner)`.
 */
export class SerialScanner extends EventEmitter<SerialScannerEvents> {
  private port: SerialPort | undefined;
  private readonly splitter: ScanSplitter;

  constructor(private readonly options: SerialScannerOptions) {
    super();
    this.splitter = new ScanSplitter(options.suffix);
  }

  get isOpen(): boolean {
    return this.port?.isOpen ?? false;
  }

  async open(): Promise<void> {
    if (this.port) return;
    const path = await serialDevicePath(this.options.path, this.options.allowGlobs);
    const { SerialPort } = await import('serialport');
    const port = new SerialPort({
      path,
      baudRate: this.options.baudRate ?? 9600,
      autoOpen: false,
    });
    await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
    port.on('data', (chunk: Buffer) => {
      for (const code of this.splitter.push(chunk)) this.emit('scan', code);
    });
    port.on('error', (error: Error) => this.emit('error', error));
    port.on('close', () => this.emit('close'));
    this.port = port;
  }

  async close(): Promise<void> {
    const port = this.port;
    this.port = undefined;
    if (!port?.isOpen) return;
    await new Promise<void>((resolve) => port.close(() => resolve()));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    const queue: string[] = [];
    let wake: (() => void) | undefined;
    let closed = false;
    const onScan = (code: string) => {
      queue.push(code);
      wake?.();
    };
    const onClose = () => {
      closed = true;
      wake?.();
    };
    this.on('scan', onScan);
    this.on('close', onClose);
    try {
      while (true) {
        const next = queue.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        if (closed) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      this.off('scan', onScan);
      this.off('close', onClose);
    }
  }
}
