/**
 * Test support of the hardware package, `@pharmacy/hardware/testing`: an ESC/POS decoder, a virtual TCP
 * printer and socat pty pairs. Used by this package's and the server's tests; nothing in production imports
 * it (the package's main entry does not export it).
 */
export {
  decodeEscPos,
  type DecodedEscPos,
  type DecodedLine,
  type EscPosCommand,
} from './escpos-decoder';
export { PTY_DEVICE_ALLOW, type PtyPair, SOCAT, startPtyPair } from './socat-pair';
export {
  StatusResponder,
  startVirtualPrinter,
  statusByteFor,
  type VirtualPrinter,
  type VirtualPrinterOptions,
} from './virtual-printer';
