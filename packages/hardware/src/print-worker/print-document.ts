import { isPrinterError, PrinterError, toPrinterError } from '../transport/printer-error';
import { assertPrinterReady } from '../transport/printer-status';
import { openTransport } from '../transport/open-transport';
import type { PrinterStatus, TransportConfig } from '../transport/transport-types';

export interface PrintRequest {
  transport: TransportConfig;
  bytes: Buffer;
  /** Default 1. */
  copies?: number;
  /** Ask the printer (DLE EOT) before writing, where the transport can read; fails fast on paper out / cover open. */
  checkStatus?: boolean;
}

export interface PrintResult {
  bytesWritten: number;
  status?: PrinterStatus;
}

/**
 * One attempt at a print job: open, optionally check status, write every copy, always close.
 * Every failure is a PrinterError; the server decides from its code whether to retry (see backoffDelay).
 */
export async function printDocument(request: PrintRequest): Promise<PrintResult> {
  const copies = request.copies ?? 1;
  if (!Number.isInteger(copies) || copies < 1)
    throw new PrinterError('INVALID_CONFIG', `Invalid copies: ${copies}`);
  const transport = await openTransport(request.transport).catch((error: unknown) => {
    throw toPrinterError(error, 'Opening printer');
  });
  let status: PrinterStatus | undefined;
  let bytesWritten = 0;
  try {
    if (request.checkStatus && transport.readStatus) {
      status = await transport.readStatus();
      assertPrinterReady(status);
    }
    for (let copy = 0; copy < copies; copy++) {
      await transport.write(request.bytes);
      bytesWritten += request.bytes.length;
    }
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw isPrinterError(error) ? error : toPrinterError(error, 'Printing');
  }
  await transport.close().catch((error: unknown) => {
    throw toPrinterError(error, 'Closing printer');
  });
  return { bytesWritten, status };
}
