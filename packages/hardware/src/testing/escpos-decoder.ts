import { type CodePage, type CommandSet, codePageByNumber, decodeFromCodePage } from '../encoding/code-pages';

/**
 * Reads ESC/POS (Epson) or Star Line Mode bytes back into paper text and commands, for tests and for
 * checking what reached a printer. Throws on a command it does not know, so malformed output is caught.
 */

export type Alignment = 'left' | 'center' | 'right';

export type EscPosCommand =
  | { type: 'init' }
  | { type: 'align'; align: Alignment }
  | { type: 'bold'; on: boolean }
  | { type: 'size'; tall: boolean; wide: boolean }
  | { type: 'codepage'; number: number; codePage?: CodePage }
  | { type: 'feed'; lines: number }
  | { type: 'cut'; partial: boolean }
  | { type: 'drawer'; pin: 2 | 5; onMs?: number; offMs?: number }
  | { type: 'qr'; data: string }
  | { type: 'barcode'; system: number; data: string }
  | { type: 'status-query'; n: number }
  | { type: 'setting'; bytes: number[] };

export interface DecodedLine {
  text: string;
  align: Alignment;
  bold: boolean;
  tall: boolean;
}

export interface DecodedEscPos {
  /** Printed text lines, in order. */
  lines: string[];
  styledLines: DecodedLine[];
  /** Every command in order (text excluded). */
  commands: EscPosCommand[];
}

const ESC = 0x1b;
const GS = 0x1d;
const DLE = 0x10;
const LF = 0x0a;
const CR = 0x0d;
const BEL = 0x07;
const RS = 0x1e;

class Reader {
  pos = 0;
  constructor(private readonly bytes: Uint8Array) {}
  get done(): boolean {
    return this.pos >= this.bytes.length;
  }
  peek(offset = 0): number | undefined {
    return this.bytes[this.pos + offset];
  }
  byte(): number {
    const value = this.bytes[this.pos];
    if (value === undefined) throw new Error(`ESC/POS stream ends inside a command at byte ${this.pos}`);
    this.pos++;
    return value;
  }
  take(count: number): Uint8Array {
    if (this.pos + count > this.bytes.length) throw new Error(`ESC/POS stream truncated at byte ${this.pos}`);
    const slice = this.bytes.subarray(this.pos, this.pos + count);
    this.pos += count;
    return slice;
  }
  until(terminator: number): Uint8Array {
    const start = this.pos;
    while (!this.done && this.peek() !== terminator) this.pos++;
    const slice = this.bytes.subarray(start, this.pos);
    this.byte();
    return slice;
  }
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
const alignment = (n: number): Alignment => (n % 48 === 1 ? 'center' : n % 48 === 2 ? 'right' : 'left');

export function decodeEscPos(bytes: Uint8Array, options: { commandSet?: CommandSet } = {}): DecodedEscPos {
  const commandSet = options.commandSet ?? 'epson';
  const reader = new Reader(bytes);
  const commands: EscPosCommand[] = [];
  const styledLines: DecodedLine[] = [];
  const state = { align: 'left' as Alignment, bold: false, tall: false, codePage: 'PC437_USA' as CodePage };
  let line = '';
  let lineBold = false;
  let lineTall = false;
  let qrData = '';

  const emit = (command: EscPosCommand) => {
    commands.push(command);
    if (command.type === 'init')
      Object.assign(state, { align: 'left', bold: false, tall: false, codePage: 'PC437_USA' });
    if (command.type === 'align') state.align = command.align;
    if (command.type === 'bold') state.bold = command.on;
    if (command.type === 'size') state.tall = command.tall;
    if (command.type === 'codepage' && command.codePage) state.codePage = command.codePage;
  };
  const endLine = () => {
    styledLines.push({
      text: line,
      align: state.align,
      bold: lineBold || state.bold,
      tall: lineTall || state.tall,
    });
    line = '';
    lineBold = false;
    lineTall = false;
  };

  while (!reader.done) {
    const byte = reader.byte();
    if (byte === LF) endLine();
    else if (byte === CR) continue;
    else if (byte >= 0x20) {
      const start = reader.pos - 1;
      while (!reader.done && (reader.peek() ?? 0) >= 0x20) reader.pos++;
      line += decodeFromCodePage(bytes.subarray(start, reader.pos), state.codePage);
      lineBold ||= state.bold;
      lineTall ||= state.tall;
    } else if (byte === DLE && reader.peek() === 0x04) {
      reader.byte();
      emit({ type: 'status-query', n: reader.byte() });
    } else if (commandSet === 'star') {
      qrData = decodeStar(byte, reader, emit, qrData);
    } else {
      qrData = decodeEpson(byte, reader, emit, qrData);
    }
  }
  if (line) endLine();
  return { lines: styledLines.map((l) => l.text), styledLines, commands };
}

type Emit = (command: EscPosCommand) => void;

function codePageCommand(commandSet: CommandSet, number: number): EscPosCommand {
  return { type: 'codepage', number, codePage: codePageByNumber(commandSet, number) };
}

function decodeEpson(byte: number, reader: Reader, emit: Emit, qrData: string): string {
  const at = reader.pos - 1;
  if (byte === ESC) {
    const command = reader.byte();
    switch (command) {
      case 0x40:
        emit({ type: 'init' });
        return qrData;
      case 0x61:
        emit({ type: 'align', align: alignment(reader.byte()) });
        return qrData;
      case 0x45:
        emit({ type: 'bold', on: (reader.byte() & 1) === 1 });
        return qrData;
      case 0x21: {
        const n = reader.byte();
        emit({ type: 'size', tall: (n & 0x10) !== 0, wide: (n & 0x20) !== 0 });
        emit({ type: 'bold', on: (n & 0x08) !== 0 });
        return qrData;
      }
      case 0x74:
        emit(codePageCommand('epson', reader.byte()));
        return qrData;
      case 0x64:
        emit({ type: 'feed', lines: reader.byte() });
        return qrData;
      case 0x70: {
        const pin = reader.byte() % 48 === 0 ? 2 : 5;
        emit({ type: 'drawer', pin, onMs: reader.byte() * 2, offMs: reader.byte() * 2 });
        return qrData;
      }
      case 0x32:
        emit({ type: 'setting', bytes: [ESC, command] });
        return qrData;
      case 0x33:
      case 0x2d:
      case 0x4d:
      case 0x52:
      case 0x4a:
      case 0x7b:
        emit({ type: 'setting', bytes: [ESC, command, reader.byte()] });
        return qrData;
    }
  } else if (byte === GS) {
    const command = reader.byte();
    switch (command) {
      case 0x56: {
        const m = reader.byte();
        if (m >= 65) reader.byte();
        emit({ type: 'cut', partial: m % 2 === 1 || m === 66 || m === 98 || m === 104 });
        return qrData;
      }
      case 0x21: {
        const n = reader.byte();
        emit({ type: 'size', tall: (n & 0x0f) !== 0, wide: (n & 0xf0) !== 0 });
        return qrData;
      }
      case 0x28: {
        if (reader.byte() !== 0x6b) throw new Error(`Unsupported GS ( function at byte ${at}`);
        const length = reader.byte() + reader.byte() * 256;
        const body = reader.take(length);
        const [symbol, fn] = body;
        if (symbol === 0x31 && fn === 0x50) return latin1(body.subarray(3));
        if (symbol === 0x31 && fn === 0x51) {
          emit({ type: 'qr', data: qrData });
          return '';
        }
        emit({ type: 'setting', bytes: [GS, 0x28, 0x6b, ...body] });
        return qrData;
      }
      case 0x48:
      case 0x66:
      case 0x77:
      case 0x68:
      case 0x42:
      case 0x72:
        emit({ type: 'setting', bytes: [GS, command, reader.byte()] });
        return qrData;
      case 0x6b: {
        const system = reader.byte();
        const data = system <= 6 ? reader.until(0) : reader.take(reader.byte());
        emit({ type: 'barcode', system, data: latin1(data) });
        return qrData;
      }
    }
  }
  throw new Error(
    `Unknown ESC/POS command 0x${byte.toString(16)} 0x${(reader.peek(-1) ?? 0).toString(16)} at byte ${at}`,
  );
}

function decodeStar(byte: number, reader: Reader, emit: Emit, qrData: string): string {
  const at = reader.pos - 1;
  if (byte === BEL) {
    emit({ type: 'drawer', pin: 2 });
    return qrData;
  }
  if (byte !== ESC) throw new Error(`Unknown Star command 0x${byte.toString(16)} at byte ${at}`);
  const command = reader.byte();
  switch (command) {
    case 0x40:
      emit({ type: 'init' });
      return qrData;
    case 0x45:
      emit({ type: 'bold', on: true });
      return qrData;
    case 0x46:
      emit({ type: 'bold', on: false });
      return qrData;
    case 0x69: {
      const tall = reader.byte();
      const wide = reader.byte();
      emit({ type: 'size', tall: tall > 0, wide: wide > 0 });
      return qrData;
    }
    case 0x64:
      emit({ type: 'cut', partial: reader.byte() % 2 === 1 });
      return qrData;
    case 0x61:
      emit({ type: 'feed', lines: reader.byte() });
      return qrData;
    case 0x07:
      emit({ type: 'setting', bytes: [ESC, BEL, reader.byte(), reader.byte()] });
      return qrData;
    case 0x2d:
      emit({ type: 'setting', bytes: [ESC, command, reader.byte()] });
      return qrData;
    case 0x34:
    case 0x35:
      emit({ type: 'setting', bytes: [ESC, command] });
      return qrData;
    case 0x62: {
      const system = reader.byte();
      reader.take(3);
      emit({ type: 'barcode', system, data: latin1(reader.until(RS)) });
      return qrData;
    }
    case GS: {
      const sub = reader.byte();
      if (sub === 0x61) {
        emit({ type: 'align', align: alignment(reader.byte()) });
        return qrData;
      }
      if (sub === 0x74) {
        emit(codePageCommand('star', reader.byte()));
        return qrData;
      }
      if (sub === 0x79) {
        const fn = reader.byte();
        if (fn === 0x53) {
          emit({ type: 'setting', bytes: [ESC, GS, 0x79, fn, reader.byte(), reader.byte()] });
          return qrData;
        }
        if (fn === 0x44) {
          reader.take(2);
          const length = reader.byte() + reader.byte() * 256;
          return latin1(reader.take(length));
        }
        if (fn === 0x50) {
          emit({ type: 'qr', data: qrData });
          return '';
        }
      }
    }
  }
  throw new Error(`Unknown Star command ESC 0x${command.toString(16)} at byte ${at}`);
}
