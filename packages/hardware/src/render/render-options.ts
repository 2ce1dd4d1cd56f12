import type { PaperWidth } from '../layout/blocks';
import type { PrintableDocument } from '../receipt/document-types';
import type { CodePage, CommandSet } from '../encoding/code-pages';
import type { DrawerPin } from './escpos-commands';

export interface TextRenderOptions {
  /** Default 80mm (48 columns). */
  paper?: PaperWidth;
}

export interface EscPosRenderOptions extends TextRenderOptions {
  /** Default "epson" (ESC/POS); "star" is Star Line Mode. */
  commandSet?: CommandSet;
  /** Overrides the page picked from `language`; see codePageForLanguage. */
  codePage?: CodePage;
  /** The organisation's language, e.g. "de" or "pl-PL". */
  language?: string;
  /** Pulse the cash drawer (pin 2 unless a pin is given); see shouldOpenDrawer. */
  openDrawer?: boolean | DrawerPin;
  /** Default "partial". */
  cut?: 'full' | 'partial' | 'none';
}

/** The drawer opens for cash: a cash tender on a sale or a cash refund on a credit note. */
export function shouldOpenDrawer(document: PrintableDocument): boolean {
  if (document.kind === 'sale') return document.payments.some((p) => p.method === 'cash');
  if (document.kind === 'credit-note') return document.refund.method === 'cash';
  return false;
}
