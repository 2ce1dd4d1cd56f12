/** Device-independent print layout: both renderers walk the same blocks, so preview and paper match. */

export type Align = 'left' | 'center' | 'right';

export type Block =
  | { type: 'text'; text: string; align: Align; bold: boolean; tall: boolean }
  | { type: 'rule'; char: string }
  | { type: 'blank' }
  | { type: 'qr'; data: string }
  | { type: 'barcode'; symbology: 'ean13' | 'code128'; data: string };

export type PaperWidth = '58mm' | '80mm';

/** Font A columns on common thermal heads: 384 dots / 12 = 32, 576 dots / 12 = 48. */
export const PAPER_COLUMNS: Readonly<Record<PaperWidth, number>> = { '58mm': 32, '80mm': 48 };

export function paperColumns(paper: PaperWidth): number {
  return PAPER_COLUMNS[paper];
}
