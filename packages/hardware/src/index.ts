// Money
export {
  addDecimals,
  compareDecimals,
  formatDecimal,
  isZeroDecimal,
  negateDecimal,
  normaliseDecimal,
  parseDecimal,
  subtractDecimals,
  type Decimal,
} from '@pharmacy/contracts/money';

// Documents
export type {
  AmountRow,
  BaseCurrencyTotal,
  CreditNote,
  DocumentLabels,
  LabelBarcodeSymbology,
  OrganisationHeader,
  PaymentMethodTotal,
  PaymentRow,
  PrintableDocument,
  ReceiptLine,
  ReceiptModel,
  SaleReceipt,
  ShelfLabel,
  TestPage,
  VatBreakdownRow,
  ZCountedCurrency,
  ZReport,
  ZTenderByCurrency,
} from './receipt/document-types';
export {
  buildSaleReceipt,
  type DocumentBuildOptions,
  type PaymentLineInput,
  type SaleReceiptInput,
} from './receipt/sale-receipt';
export { buildCreditNote, type CreditNoteInput } from './receipt/credit-note';
export { buildZReport, type PaymentTotalInput, type ZReportInput } from './receipt/z-report';
export { buildTestPage, CODE_PAGE_SAMPLE, type TestPageInput } from './receipt/test-page';
export { buildShelfLabel, chooseLabelBarcode, type ShelfLabelInput } from './receipt/shelf-label';
export type { OrganisationFields } from './receipt/organisation-input';
export type { SaleItemInput, VatBreakdownInput } from './receipt/sale-lines';
export { ENGLISH_LABELS, resolveLabels, type LabelOverrides } from './receipt/labels';
export { formatLocalDateTime } from './receipt/local-time';
export {
  decodeZatcaQr,
  encodeFiscalQr,
  encodeSimpleFiscalQr,
  encodeZatcaQr,
  type FiscalQrFields,
  type FiscalQrFormat,
} from './receipt/fiscal-qr';

// Layout and rendering
export { PAPER_COLUMNS, paperColumns, type Block, type PaperWidth } from './layout/blocks';
export { layoutDocument } from './layout/layout-document';
export { markCopy } from './receipt/copy-mark';
export { renderText } from './render/text-renderer';
export { renderEscPos } from './render/escpos-renderer';
export { shouldOpenDrawer, type EscPosRenderOptions, type TextRenderOptions } from './render/render-options';
export {
  CODE_PAGES,
  DEFAULT_CODE_PAGE,
  codePageForLanguage,
  isCodePage,
  encodeForCodePage,
  printableText,
  type CodePage,
  type CommandSet,
} from './encoding/code-pages';
export {
  feedAndCutBytes,
  kickDrawerBytes,
  starKickDrawerBytes,
  type DrawerPin,
} from './render/escpos-commands';

// Transports
export type {
  FlowControl,
  PrinterStatus,
  PrinterTransport,
  TransportAllowances,
  TransportConfig,
  TransportKind,
} from './transport/transport-types';
export {
  PrinterError,
  isPrinterError,
  toPrinterError,
  type PrinterErrorCode,
} from './transport/printer-error';
export { assertPrinterReady, parsePrinterStatus, statusQueryBytes } from './transport/printer-status';
export { openTransport } from './transport/open-transport';
export { DEFAULT_RAW_PORT, openTcpTransport, parseTcpAddress } from './transport/tcp-transport';
export { openSerialTransport } from './transport/serial-transport';
export { openDeviceTransport } from './transport/device-transport';
export {
  deviceAddressProblem,
  deviceGlobProblem,
  devicePathProblem,
  openDeviceForWrite,
  resolveDevicePath,
  serialDevicePath,
  type DeviceKind,
} from './transport/device-path';
export {
  PRINTER_PORTS,
  blockedAddressProblem,
  resolvePrinterHost,
  tcpTargetProblem,
} from './transport/tcp-policy';
export { claimUsbPrinter, openUsbTransport, type UsbDeviceFinder } from './transport/usb-transport';
export {
  USB_CLASS_PRINTER,
  formatUsbAddress,
  parseUsbAddress,
  selectPrinterEndpoint,
  type UsbConfigurationShape,
  type UsbPrinterDevice,
  type UsbPrinterEndpoint,
} from './transport/usb-descriptors';

// Discovery
export type { DiscoveryResult } from './discovery/discovery-result';
export { listSerialPorts, type SerialPortInfo } from './discovery/serial-discovery';
export { listUsbPrinters, type UsbPrinterInfo } from './discovery/usb-discovery';

// Scanners
export { SerialScanner, type SerialScannerOptions } from './scanner/serial-scanner';
export { ScanSplitter } from './scanner/scan-splitter';
export {
  GS,
  Gs1ParseError,
  encodeGs1,
  gs1DateToIso,
  parseGs1,
  type Gs1Data,
  type Gs1Element,
  type Gs1ErrorCode,
  type Gs1Symbology,
} from '@pharmacy/contracts/gs1';
export { classifyScan, type ScanClassification } from '@pharmacy/contracts/gs1';
export { gs1CheckDigit, hasValidGs1CheckDigit, withGs1CheckDigit } from '@pharmacy/contracts/gs1';
export { gtinToEan13, normaliseGtin } from '@pharmacy/contracts/gs1';

// Print worker core
export { printDocument, type PrintRequest, type PrintResult } from './print-worker/print-document';
export { backoffDelay, type BackoffOptions } from './print-worker/backoff';

// Sample documents: the receipt template editor's preview (and this package's tests)
export { sampleCreditNoteInput, sampleSaleInput, sampleZReportInput } from './receipt/sample-documents';
