import { PrinterError } from './printer-error';

export const DEFAULT_TIMEOUT_MS = 5_000;

/** Rejects with a TIMEOUT PrinterError if `work` has not settled in time; `onTimeout` may abort it. */
export function withTimeout<T>(
  work: Promise<T>,
  timeoutMs: number,
  what: string,
  onTimeout?: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      reject(new PrinterError('TIMEOUT', `${what} timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
