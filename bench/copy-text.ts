import type { RowValues } from '../packages/server/src/modules/reports/synthetic-sales';

const nullAsN = (v: string | number | null) => (v === null ? '\\N' : v);

/**
 * A row whose values hold no backslash, tab, newline or carriage return as a line of COPY text, without looking
 * for them (RowSink.addPlain): tab-separated, \N for NULL.
 */
export const plainLine = (values: RowValues): string =>
  `${(values.includes(null) ? values.map(nullAsN) : values).join('\t')}\n`;

const CHUNK = 256 * 1024;

/**
 * A table's rows of a batch as COPY text, written line by line into buffers of 256 KiB (one CopyData message
 * each). Outside the JavaScript heap: a batch held as strings (tens of MB, alive until stored) was promoted and
 * traced by every major collection, and collecting took more of the generator's CPU than making the rows. Each
 * buffer owns its ArrayBuffer, so a sales worker hands them to the main thread without copying (transfer).
 */
export class CopyText {
  readonly chunks: Uint8Array[] = [];
  private buffer = Buffer.allocUnsafeSlow(CHUNK);
  private used = 0;

  constructor(readonly columns: readonly string[]) {}

  add(line: string): void {
    // At most 3 bytes a UTF-16 unit: a line that might not fit starts the next buffer.
    if (this.used + 3 * line.length > CHUNK) {
      this.chunks.push(this.buffer.subarray(0, this.used));
      this.buffer = Buffer.allocUnsafeSlow(Math.max(CHUNK, 3 * line.length));
      this.used = 0;
    }
    this.used += this.buffer.write(line, this.used);
  }

  /** Buffers of COPY text made elsewhere (a sales worker's), stored after those written so far. */
  append(chunks: readonly Uint8Array[]): void {
    this.chunks.push(...chunks);
  }

  /** Every chunk, the last one included. */
  close(): Uint8Array[] {
    if (this.used > 0) this.chunks.push(this.buffer.subarray(0, this.used));
    this.used = 0;
    return this.chunks;
  }
}
