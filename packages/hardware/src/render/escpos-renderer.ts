import { PrinterTypes, ThermalPrinter } from 'node-thermal-printer';
import { type Align, type Block, paperColumns } from '../layout/blocks';
import { layoutDocument } from '../layout/layout-document';
import type { PrintableDocument } from '../receipt/document-types';
import {
  type CodePage,
  type CommandSet,
  codePageForLanguage,
  encodeForCodePage,
} from '../encoding/code-pages';
import { feedAndCutBytes, kickDrawerBytes, starKickDrawerBytes, starQrBytes } from './escpos-commands';
import type { EscPosRenderOptions } from './render-options';

const INIT = Buffer.from([0x1b, 0x40]);
const EMPTY = Buffer.alloc(0);
const EAN13_FUNCTION_B = 67;
const CODE128_FUNCTION_B = 73;

class EscPosWriter {
  private readonly chunks: Buffer[] = [];
  private alignment: Align = 'left';
  private bold = false;
  private tall = false;

  constructor(
    private readonly printer: ThermalPrinter,
    private readonly commandSet: CommandSet,
    private readonly codePage: CodePage,
    private readonly width: number,
  ) {}

  block(block: Block): void {
    switch (block.type) {
      case 'text':
        this.style(block.align, block.bold, block.tall);
        this.printer.add(encodeForCodePage(block.text, this.codePage));
        this.printer.newLine();
        return;
      case 'rule':
        this.style('left', false, false);
        this.printer.add(Buffer.alloc(this.width, block.char.charCodeAt(0) < 0x80 ? block.char : '-'));
        this.printer.newLine();
        return;
      case 'blank':
        this.printer.newLine();
        return;
      case 'qr':
        this.style('center', false, false);
        this.qr(block.data);
        return;
      case 'barcode':
        this.style('center', false, false);
        this.barcode(block.symbology, block.data);
        return;
    }
  }

  /**
   * The library appends with Buffer.concat over its whole buffer (quadratic in receipt length), so its
   * buffer is emptied after every block and the pieces are joined once at the end.
   */
  flush(): void {
    const buffer = this.printer.getBuffer();
    if (buffer && buffer.length > 0) this.chunks.push(buffer);
    this.printer.setBuffer(EMPTY);
  }

  bytes(): Buffer {
    this.flush();
    return Buffer.concat(this.chunks);
  }

  private style(alignment: Align, bold: boolean, tall: boolean): void {
    if (alignment !== this.alignment) {
      if (alignment === 'center') this.printer.alignCenter();
      else if (alignment === 'right') this.printer.alignRight();
      else this.printer.alignLeft();
      this.alignment = alignment;
    }
    const sizeChanged = tall !== this.tall;
    if (sizeChanged) {
      if (tall) this.printer.setTextDoubleHeight();
      else this.printer.setTextNormal();
      this.tall = tall;
    }
    // On Epson the size command (ESC !) also clears emphasis, so bold is re-sent after it.
    if (bold !== this.bold || (sizeChanged && bold)) {
      this.printer.bold(bold);
      this.bold = bold;
    }
  }

  private qr(data: string): void {
    if (!/^[\x20-\x7e]*$/.test(data)) throw new RangeError('QR payload must be printable ASCII');
    const cellSize = this.width >= 48 ? 5 : 4;
    if (this.commandSet === 'star') this.printer.add(starQrBytes(data, cellSize));
    else {
      this.printer.printQR(data, { cellSize, correction: 'M', model: 2 });
      this.printer.newLine();
    }
  }

  private barcode(symbology: 'ean13' | 'code128', data: string): void {
    if (this.commandSet === 'star') {
      if (symbology === 'ean13') this.printer.printBarcode(data, 3, { height: 80 });
      else this.printer.code128(data, { width: 'MEDIUM', height: 80, text: 2 });
      this.printer.newLine();
      return;
    }
    const settings = { hriPos: 2, hriFont: 0, width: this.width >= 48 ? 3 : 2, height: 80 };
    this.printer.printBarcode(data, symbology === 'ean13' ? EAN13_FUNCTION_B : CODE128_FUNCTION_B, settings);
    this.printer.newLine();
  }
}

/** ESC/POS (or Star Line Mode) bytes for a document; built in memory, no printer needed. */
export function renderEscPos(document: PrintableDocument, options: EscPosRenderOptions = {}): Buffer {
  const commandSet = options.commandSet ?? 'epson';
  const width = paperColumns(options.paper ?? '80mm');
  const codePage = options.codePage ?? codePageForLanguage(options.language);
  const printer = new ThermalPrinter({
    type: commandSet === 'star' ? PrinterTypes.STAR : PrinterTypes.EPSON,
    // No interface: the buffer is only collected here; transports deliver it.
    interface: '',
    width,
  });
  printer.setBuffer(INIT);
  printer.setCharacterSet(codePage);

  const writer = new EscPosWriter(printer, commandSet, codePage, width);
  for (const block of layoutDocument(document, width)) {
    writer.block(block);
    writer.flush();
  }

  const drawerPin = options.openDrawer === true ? 2 : options.openDrawer || undefined;
  if (drawerPin !== undefined)
    printer.add(commandSet === 'star' ? starKickDrawerBytes() : kickDrawerBytes(drawerPin));
  const cut = options.cut ?? 'partial';
  if (cut !== 'none') printer.add(feedAndCutBytes(commandSet, cut === 'partial'));
  return writer.bytes();
}
