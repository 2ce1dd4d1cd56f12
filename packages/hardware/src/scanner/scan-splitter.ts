/**
 * Splits a scanner byte stream into codes. The default suffix accepts CR, LF or CR LF so that a
 * scanner configured for any of the usual terminators works without changing the till settings.
 */
export class ScanSplitter {
  private pending = '';

  constructor(private readonly suffix: string | RegExp = /\r\n|\r|\n/) {}

  /** Feeds a chunk and returns the codes it completed. */
  push(chunk: Buffer | string): string[] {
    // latin1 keeps every byte (GS = 0x1d included) as one character.
    this.pending += typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    const codes: string[] = [];
    for (;;) {
      const match = this.findSuffix();
      if (!match) break;
      const code = this.pending.slice(0, match.index);
      this.pending = this.pending.slice(match.index + match.length);
      if (code.length > 0) codes.push(code);
    }
    return codes;
  }

  /** Whatever arrived after the last suffix. */
  get buffered(): string {
    return this.pending;
  }

  private findSuffix(): { index: number; length: number } | undefined {
    if (typeof this.suffix === 'string') {
      const index = this.pending.indexOf(this.suffix);
      return index === -1 ? undefined : { index, length: this.suffix.length };
    }
    const match = new RegExp(this.suffix.source).exec(this.pending);
    if (!match) return undefined;
    // A lone CR at the end may be the first half of CR LF still in flight.
    if (match[0] === '\r' && match.index === this.pending.length - 1) return undefined;
    return { index: match.index, length: match[0].length };
  }
}
