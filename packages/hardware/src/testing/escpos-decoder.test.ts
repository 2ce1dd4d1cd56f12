import { describe, expect, it } from 'vitest';
import { kickDrawerBytes } from '../render/escpos-commands';
import { decodeEscPos } from './escpos-decoder';

describe('decodeEscPos', () => {
  it('decodes hand-written ESC/POS', () => {
    const bytes = Buffer.concat([
      Buffer.from([0x1b, 0x40, 0x1b, 0x74, 19, 0x1b, 0x61, 1, 0x1b, 0x45, 1]),
      Buffer.from('Caf\x82 \xd55\n', 'latin1'),
      Buffer.from([0x1b, 0x45, 0, 0x1b, 0x61, 0]),
      Buffer.from('plain\n'),
      Buffer.from([0x1d, 0x28, 0x6b, 6, 0, 0x31, 0x50, 0x30, 0x41, 0x42, 0x43]),
      Buffer.from([0x1d, 0x28, 0x6b, 3, 0, 0x31, 0x51, 0x30]),
      kickDrawerBytes(2),
      Buffer.from([0x1d, 0x56, 0x42, 0x00]),
    ]);
    const decoded = decodeEscPos(bytes);
    expect(decoded.lines).toEqual(['Café €5', 'plain']);
    expect(decoded.styledLines[0]).toEqual({ text: 'Café €5', align: 'center', bold: true, tall: false });
    expect(decoded.styledLines[1]).toMatchObject({ align: 'left', bold: false });
    expect(decoded.commands).toEqual([
      { type: 'init' },
      { type: 'codepage', number: 19, codePage: 'PC858_EURO' },
      { type: 'align', align: 'center' },
      { type: 'bold', on: true },
      { type: 'bold', on: false },
      { type: 'align', align: 'left' },
      { type: 'qr', data: 'ABC' },
      { type: 'drawer', pin: 2, onMs: 100, offMs: 500 },
      { type: 'cut', partial: true },
    ]);
  });

  it('decodes Star Line Mode', () => {
    const bytes = Buffer.concat([
      Buffer.from([0x1b, 0x40, 0x1b, 0x1d, 0x74, 4, 0x1b, 0x1d, 0x61, 2, 0x1b, 0x45]),
      Buffer.from('right\n'),
      Buffer.from([0x1b, 0x46, 0x1b, 0x07, 0x0b, 0x37, 0x07, 0x1b, 0x64, 2]),
    ]);
    const decoded = decodeEscPos(bytes, { commandSet: 'star' });
    expect(decoded.styledLines).toEqual([{ text: 'right', align: 'right', bold: true, tall: false }]);
    expect(decoded.commands.map((c) => c.type)).toEqual([
      'init',
      'codepage',
      'align',
      'bold',
      'bold',
      'setting',
      'drawer',
      'cut',
    ]);
  });

  it('refuses unknown or truncated commands', () => {
    expect(() => decodeEscPos(Buffer.from([0x1b, 0x99]))).toThrow(/Unknown ESC\/POS command/);
    expect(() => decodeEscPos(Buffer.from([0x1b, 0x61]))).toThrow(/ends inside a command/);
  });
});
