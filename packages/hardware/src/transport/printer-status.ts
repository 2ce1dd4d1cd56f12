import { PrinterError } from './printer-error';
import { withTimeout } from './timeouts';
import type { PrinterStatus } from './transport-types';

const DLE = 0x10;
const EOT = 0x04;

/**
 * DLE EOT 1 (printer), DLE EOT 2 (offline cause), DLE EOT 4 (roll paper sensor), sent together;
 * an ESC/POS printer answers each with one byte, in order, even while offline.
 */
export function statusQueryBytes(): Buffer {
  return Buffer.from([DLE, EOT, 1, DLE, EOT, 2, DLE, EOT, 4]);
}

export const STATUS_RESPONSE_LENGTH = 3;

/** Every DLE EOT answer has bit 1 and bit 4 set and bits 0 and 7 clear. */
function isStatusByte(byte: number): boolean {
  return (byte & 0b1001_0011) === 0b0001_0010;
}

/** Parses the three answers to statusQueryBytes(). */
export function parsePrinterStatus(response: Uint8Array): PrinterStatus {
  const [printer, offlineCause, paperSensor] = response;
  if (printer === undefined || offlineCause === undefined || paperSensor === undefined) {
    throw new PrinterError('IO', `Expected ${STATUS_RESPONSE_LENGTH} status bytes, got ${response.length}`);
  }
  for (const byte of [printer, offlineCause, paperSensor]) {
    if (!isStatusByte(byte)) {
      throw new PrinterError('IO', `Not a DLE EOT status byte: 0x${byte.toString(16).padStart(2, '0')}`);
    }
  }
  return {
    online: (printer & 0x08) === 0,
    coverOpen: (offlineCause & 0x04) !== 0,
    paperOut: (paperSensor & 0x60) !== 0 || (offlineCause & 0x20) !== 0,
    paperNearEnd: (paperSensor & 0x0c) !== 0,
  };
}

/** Turns a status that cannot print into the matching typed error. */
export function assertPrinterReady(status: PrinterStatus): void {
  if (status.paperOut) throw new PrinterError('PAPER_OUT', 'Printer is out of paper');
  if (status.coverOpen) throw new PrinterError('COVER_OPEN', 'Printer cover is open');
  if (!status.online) throw new PrinterError('OFFLINE', 'Printer reports it is offline');
}

/**
 * The receiving side of a two-way printer link (serial, TCP): what arrived, the link's failure once it failed,
 * and a status read (send the query, wait for the answer, the failure or the timeout).
 */
export class PrinterLink {
  failure: PrinterError | undefined;
  private received = Buffer.alloc(0);
  private onReceive: (() => void) | undefined;

  constructor(
    private readonly where: string,
    private readonly timeoutMs: number,
  ) {}

  receive(chunk: Buffer): void {
    this.received = Buffer.concat([this.received, chunk]);
    this.onReceive?.();
  }

  fail(error: PrinterError): void {
    this.failure = error;
    this.onReceive?.();
  }

  async readStatus(write: (bytes: Buffer) => Promise<void>): Promise<PrinterStatus> {
    this.received = Buffer.alloc(0);
    await write(statusQueryBytes());
    const response = await withTimeout(
      new Promise<Buffer>((resolve, reject) => {
        this.onReceive = () => {
          if (this.received.length >= STATUS_RESPONSE_LENGTH)
            resolve(this.received.subarray(0, STATUS_RESPONSE_LENGTH));
          else if (this.failure) reject(this.failure);
        };
        this.onReceive();
      }),
      this.timeoutMs,
      `Reading status from ${this.where}`,
    ).finally(() => {
      this.onReceive = undefined;
    });
    return parsePrinterStatus(response);
  }
}
