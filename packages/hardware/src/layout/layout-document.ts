import type { PrintableDocument } from '../receipt/document-types';
import type { Block } from './blocks';
import { layoutCreditNote, layoutSaleReceipt } from './receipt-layout';
import { layoutShelfLabel, layoutZReport } from './report-layout';
import { layoutTestPage } from './test-page-layout';

export function layoutDocument(document: PrintableDocument, width: number): Block[] {
  switch (document.kind) {
    case 'sale':
      return layoutSaleReceipt(document, width);
    case 'credit-note':
      return layoutCreditNote(document, width);
    case 'z-report':
      return layoutZReport(document, width);
    case 'shelf-label':
      return layoutShelfLabel(document, width);
    case 'test-page':
      return layoutTestPage(document, width);
  }
}
