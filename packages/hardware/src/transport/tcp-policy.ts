import type { LookupAddress } from 'node:dns';
import {
  AddressRefused,
  blockedAddressProblem,
  hostProblem,
  pinnedLookup,
  resolveCheckedHost,
  systemLookup,
} from '@pharmacy/contracts/net-address';
import { PrinterError } from './printer-error';

/** The address rules are shared with head office's connect (contracts/net-address.ts). */
export { blockedAddressProblem, hostProblem, pinnedLookup };

/**
 * Where a network printer may be: an address the till may connect to (contracts/net-address.ts: no link-local,
 * metadata or multicast address in any spelling), and only on a printer port unless the organisation lists
 * more (printer_extra_ports). Otherwise a printer's status check is a port scanner.
 */
export const PRINTER_PORTS: readonly number[] = [
  ...Array.from({ length: 10 }, (_, i) => 9100 + i), // raw / JetDirect
  515, // LPD
  631, // IPP
];

export function portProblem(port: number, extraPorts: readonly number[] = []): string | undefined {
  if (PRINTER_PORTS.includes(port) || extraPorts.includes(port)) return undefined;
  return `port ${port} is not a printer port (9100-9109, 515, 631); an administrator may allow more in the printer_extra_ports setting`;
}

/** Why `host`:`port` may not be a printer before DNS, or undefined. */
export function tcpTargetProblem(
  host: string,
  port: number,
  extraPorts: readonly number[] = [],
): string | undefined {
  return hostProblem(host) ?? portProblem(port, extraPorts);
}

/**
 * Resolves the host and checks every address it resolves to; the caller connects to these addresses only
 * (`pinnedLookup`), so a name cannot resolve to something else between the check and the connection.
 * `resolve` is the system resolver except in tests that need a name leading to a link-local address.
 */
export async function resolvePrinterHost(
  host: string,
  port: number,
  extraPorts: readonly number[] = [],
  resolve: (host: string) => Promise<LookupAddress[]> = systemLookup,
): Promise<LookupAddress[]> {
  const refused = (why: string) =>
    new PrinterError('INVALID_CONFIG', `Refusing printer ${host}:${port}: ${why}, never a printer`);
  const before = tcpTargetProblem(host, port, extraPorts);
  if (before) throw refused(before);
  let addresses: LookupAddress[];
  try {
    addresses = await resolveCheckedHost(host, resolve);
  } catch (err) {
    if (err instanceof AddressRefused) throw refused(err.message);
    throw err;
  }
  if (addresses.length === 0) throw new PrinterError('NOT_FOUND', `${host} does not resolve to an address`);
  return addresses;
}
