import { printableText } from '../encoding/code-pages';
import type { Align, Block } from './blocks';

/** Code points, not UTF-16 units, so one accented letter is one column. */
export function columnWidth(text: string): number {
  let width = 0;
  for (const _ of text) width++;
  return width;
}

function sliceColumns(text: string, start: number, end?: number): string {
  return Array.from(text).slice(start, end).join('');
}

/** Word-wraps to `width` columns, hard-breaking words longer than a line. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.normalize('NFC').split(/\r?\n/)) {
    let line = '';
    for (const word of printableText(paragraph).split(/\s+/).filter(Boolean)) {
      let rest = word;
      while (columnWidth(rest) > width) {
        if (line) {
          lines.push(line);
          line = '';
        }
        lines.push(sliceColumns(rest, 0, width));
        rest = sliceColumns(rest, width);
      }
      if (!rest) continue;
      if (!line) line = rest;
      else if (columnWidth(line) + 1 + columnWidth(rest) <= width) line += ` ${rest}`;
      else {
        lines.push(line);
        line = rest;
      }
    }
    if (line || lines.length === 0) lines.push(line);
  }
  return lines;
}

export interface TextStyle {
  align?: Align;
  bold?: boolean;
  tall?: boolean;
}

export function textBlocks(text: string, width: number, style: TextStyle = {}): Block[] {
  return wrapText(text, width).map((line) => ({
    type: 'text',
    text: line,
    align: style.align ?? 'left',
    bold: style.bold ?? false,
    tall: style.tall ?? false,
  }));
}

/** Label on the left, value on the right; the label wraps above when both do not fit. */
export function leftRight(rawLeft: string, rawRight: string, width: number, style: TextStyle = {}): Block[] {
  const left = printableText(rawLeft);
  const right = printableText(rawRight);
  const rightWidth = columnWidth(right);
  if (rightWidth >= width)
    return [...textBlocks(left, width, style), ...textBlocks(right, width, { ...style, align: 'right' })];
  const leftWidth = columnWidth(left);
  if (leftWidth + 1 + rightWidth <= width) {
    return [textLine(left + ' '.repeat(width - leftWidth - rightWidth) + right, style)];
  }
  const leftLines = wrapText(left, width);
  const last = leftLines.pop() ?? '';
  const blocks = leftLines.length ? textBlocks(leftLines.join('\n'), width, style) : [];
  if (columnWidth(last) + 1 + rightWidth <= width) {
    blocks.push(textLine(last + ' '.repeat(width - columnWidth(last) - rightWidth) + right, style));
  } else {
    blocks.push(textLine(last, style), textLine(' '.repeat(width - rightWidth) + right, style));
  }
  return blocks;
}

/** Fixed columns, each right-aligned except the first; truncates rather than overflow. */
export function columns(cells: readonly string[], widths: readonly number[], style: TextStyle = {}): Block {
  const text = cells
    .map(printableText)
    .map((cell, index) => {
      const width = widths[index] ?? 0;
      const fitted = columnWidth(cell) > width ? sliceColumns(cell, 0, width) : cell;
      const pad = ' '.repeat(width - columnWidth(fitted));
      return index === 0 ? fitted + pad : pad + fitted;
    })
    .join('');
  return textLine(text.trimEnd(), style);
}

export function textLine(text: string, style: TextStyle = {}): Block {
  return {
    type: 'text',
    text: printableText(text),
    align: style.align ?? 'left',
    bold: style.bold ?? false,
    tall: style.tall ?? false,
  };
}

export function rule(char = '-'): Block {
  return { type: 'rule', char };
}

export const BLANK: Block = { type: 'blank' };
