/**
 * GS1 and retail barcodes, once for the server, the hardware package (serial scanners, shelf labels) and the
 * till's keyboard-wedge scans (zod-free: `@pharmacy/contracts/gs1`).
 */
export { classifyScan, type ScanClassification } from './classify-scan';
export { gs1CheckDigit, hasValidGs1CheckDigit, withGs1CheckDigit } from './check-digit';
export * from './gs1-parser';
export { gtinToEan13, normaliseGtin } from './gtin';
