export type PrinterErrorCode =
  | 'OFFLINE'
  | 'TIMEOUT'
  | 'PAPER_OUT'
  | 'COVER_OPEN'
  | 'NOT_FOUND'
  | 'IO'
  /** The transport configuration itself is unusable (bad address, unknown transport). */
  | 'INVALID_CONFIG';

export class PrinterError extends Error {
  override readonly name = 'PrinterError';
  constructor(
    readonly code: PrinterErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** A configuration error will fail the same way on every retry. */
  get retryable(): boolean {
    return this.code !== 'INVALID_CONFIG';
  }
}

export function isPrinterError(error: unknown): error is PrinterError {
  return error instanceof PrinterError;
}

const OFFLINE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EPIPE',
]);
const NOT_FOUND_ERRNOS = new Set(['ENOENT', 'ENOTFOUND', 'ENODEV', 'ENXIO', 'EAI_AGAIN']);

/** Maps an OS / library error to a PrinterError; passes PrinterErrors through. */
export function toPrinterError(error: unknown, context: string): PrinterError {
  if (error instanceof PrinterError) return error;
  const errno = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const detail = error instanceof Error ? error.message : String(error);
  const message = `${context}: ${detail}`;
  if (OFFLINE_ERRNOS.has(errno)) return new PrinterError('OFFLINE', message, { cause: error });
  if (NOT_FOUND_ERRNOS.has(errno)) return new PrinterError('NOT_FOUND', message, { cause: error });
  if (errno === 'ETIMEDOUT') return new PrinterError('TIMEOUT', message, { cause: error });
  return new PrinterError('IO', message, { cause: error });
}
