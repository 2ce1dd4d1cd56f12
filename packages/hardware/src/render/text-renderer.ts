import { type Block, paperColumns } from '../layout/blocks';
import { layoutDocument } from '../layout/layout-document';
import { columnWidth } from '../layout/text-layout';
import type { PrintableDocument } from '../receipt/document-types';
import { printableText } from '../encoding/code-pages';
import type { TextRenderOptions } from './render-options';

function placeholder(block: Block): string | undefined {
  if (block.type === 'qr') return '[QR]';
  if (block.type === 'barcode')
    return `[${block.symbology === 'ean13' ? 'EAN-13' : 'CODE128'} ${block.data}]`;
  return undefined;
}

function align(text: string, alignment: 'left' | 'center' | 'right', width: number): string {
  const free = Math.max(0, width - columnWidth(text));
  if (alignment === 'right') return ' '.repeat(free) + text;
  if (alignment === 'center') return (' '.repeat(Math.floor(free / 2)) + text).trimEnd();
  return text.trimEnd();
}

/** Plain-text rendering with the paper's column layout, for the on-screen preview. */
export function renderText(document: PrintableDocument, options: TextRenderOptions = {}): string {
  const width = paperColumns(options.paper ?? '80mm');
  const lines: string[] = [];
  for (const block of layoutDocument(document, width)) {
    if (block.type === 'text') lines.push(align(printableText(block.text), block.align, width));
    else if (block.type === 'rule') lines.push(block.char.repeat(width));
    else if (block.type === 'blank') lines.push('');
    else {
      const text = placeholder(block) ?? '';
      lines.push(
        align(columnWidth(text) > width ? Array.from(text).slice(0, width).join('') : text, 'center', width),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
