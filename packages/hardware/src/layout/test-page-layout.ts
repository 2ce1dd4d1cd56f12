import type { TestPage } from '../receipt/document-types';
import { CODE_PAGE_SAMPLE } from '../receipt/test-page';
import type { Block } from './blocks';
import { layoutFields } from './header-layout';
import { BLANK, rule, textBlocks } from './text-layout';

/** Shop name, when, which printer, a line of each size, the code page's letters, a QR code; the renderer cuts. */
export function layoutTestPage(page: TestPage, width: number): Block[] {
  return [
    ...textBlocks(page.shopName, width, { align: 'center', bold: true, tall: true }),
    ...(page.branchName ? textBlocks(page.branchName, width, { align: 'center' }) : []),
    ...textBlocks('TEST PAGE', width, { align: 'center', bold: true }),
    rule(),
    ...layoutFields(
      [
        ['Printed', page.printedAtLocal],
        ['Printer', page.printerName],
        ['Connection', page.connection],
        ['Paper', `${page.paper}, ${width} columns`],
        ['Commands', page.commandSet],
        ['Code page', page.codePage],
      ],
      width,
    ),
    rule(),
    ...textBlocks('Normal text', width),
    ...textBlocks('Bold text', width, { bold: true }),
    ...textBlocks('Tall text', width, { tall: true }),
    ...textBlocks('Bold tall text', width, { bold: true, tall: true }),
    rule(),
    ...textBlocks(CODE_PAGE_SAMPLE, width),
    ...textBlocks('0123456789 '.repeat(8).slice(0, width), width),
    BLANK,
    { type: 'qr', data: `TEST ${page.shopName}` },
    ...textBlocks('If you can read this, the printer works.', width, { align: 'center' }),
  ];
}
