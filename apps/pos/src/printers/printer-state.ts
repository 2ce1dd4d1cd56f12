import type { PrinterStatusReport } from '@pharmacy/contracts';

/** The words the Printers screen shows for a status report's state (online, paper out, cover open, offline). */
export function printerStateText(report: PrinterStatusReport | undefined): string {
  if (!report) return 'Checking…';
  switch (report.state) {
    case 'READY':
      return 'Online';
    case 'CONNECTED':
      return 'Online (no status)';
    case 'PAPER_NEAR_END':
      return 'Online, paper low';
    case 'PAPER_OUT':
      return 'Paper out';
    case 'COVER_OPEN':
      return 'Cover open';
    case 'NO_STATUS':
      return 'Connected, does not answer status';
    case 'INVALID_CONFIG':
      return 'Address not allowed';
    case 'NOT_FOUND':
      return 'Offline (not found)';
    default:
      return 'Offline';
  }
}

export const isPrinterOk = (report: PrinterStatusReport | undefined): boolean =>
  !!report && ['READY', 'CONNECTED', 'PAPER_NEAR_END'].includes(report.state);

/** Code pages the hardware package prints (the server refuses any other); '' lets the language decide. */
export const CODE_PAGE_OPTIONS = [
  { value: '', label: 'Automatic (from language)' },
  { value: 'PC858_EURO', label: 'PC858 Western Europe + €' },
  { value: 'PC437_USA', label: 'PC437 USA' },
  { value: 'WPC1252', label: 'Windows-1252 Western' },
  { value: 'PC852_LATIN2', label: 'PC852 Central Europe' },
  { value: 'WPC1250_LATIN2', label: 'Windows-1250 Central Europe' },
  { value: 'PC857_TURKISH', label: 'PC857 Turkish' },
  { value: 'PC737_GREEK', label: 'PC737 Greek' },
  { value: 'PC866_CYRILLIC2', label: 'PC866 Cyrillic' },
  { value: 'WPC1251_CYRILLIC', label: 'Windows-1251 Cyrillic' },
  { value: 'PC862_HEBREW', label: 'PC862 Hebrew' },
  { value: 'PC864_ARABIC', label: 'PC864 Arabic' },
] as const;

export const CONNECTION_HINTS: Record<string, string> = {
  tcp: 'Network printer: IP address and port, e.g. 192.168.1.50:9100',
  usb: 'USB printer: vendor:product in hex, e.g. 04b8:0202 (use Find printers)',
  serial: 'Serial port, e.g. /dev/ttyUSB0 or COM3 (use Find printers)',
  device: 'Printer device node, e.g. /dev/usb/lp0',
};
