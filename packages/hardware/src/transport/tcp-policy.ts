import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { PrinterError } from './printer-error';

/**
 * Where a network printer may be: any host on the shop's network or this machine (private and loopback
 * addresses are fine), but never a link-local or cloud metadata address, and only on a printer port unless
 * the organisation lists more (printer_extra_ports). Otherwise a printer's status check is a port scanner.
 */
export const PRINTER_PORTS: readonly number[] = [
  ...Array.from({ length: 10 }, (_, i) => 9100 + i), // raw / JetDirect
  515, // LPD
  631, // IPP
];

const BLOCKED = new net.BlockList();
BLOCKED.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local: AWS/GCP/Azure/OpenStack metadata, ECS task credentials
BLOCKED.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network"
BLOCKED.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
BLOCKED.addAddress('255.255.255.255', 'ipv4');
BLOCKED.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
BLOCKED.addAddress('192.0.0.192', 'ipv4'); // Oracle Cloud metadata (legacy)
BLOCKED.addAddress('168.63.129.16', 'ipv4'); // Azure WireServer
BLOCKED.addSubnet('fe80::', 10, 'ipv6'); // link-local
BLOCKED.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6
BLOCKED.addSubnet('64:ff9b::a9fe:0', 112, 'ipv6'); // NAT64 of 169.254.0.0/16
BLOCKED.addSubnet('ff00::', 8, 'ipv6'); // multicast
BLOCKED.addAddress('::', 'ipv6');

/** Names that resolve to a metadata service inside a cloud. */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
  'metadata.tencentyun.com',
]);

/** Why the IP address may not be a printer, or undefined (net.BlockList also matches IPv4-mapped IPv6). */
export function blockedAddressProblem(ip: string): string | undefined {
  const family = net.isIP(ip);
  if (family === 0) return `${ip} is not an IP address`;
  if (BLOCKED.check(ip, family === 4 ? 'ipv4' : 'ipv6'))
    return `${ip} is a link-local, metadata, multicast or unspecified address, never a printer`;
  return undefined;
}

export function portProblem(port: number, extraPorts: readonly number[] = []): string | undefined {
  if (PRINTER_PORTS.includes(port) || extraPorts.includes(port)) return undefined;
  return `port ${port} is not a printer port (9100-9109, 515, 631); an administrator may allow more in the printer_extra_ports setting`;
}

/**
 * Why a host may not be a printer, judged by its text (before DNS): a literal IP address is checked,
 * a metadata name refused, and a number that is not a dotted-quad IPv4 address (2852039166, 0xa9fea9fe,
 * 0251.0376.0251.0376, which resolvers read as 169.254.169.254) refused.
 */
export function hostProblem(host: string): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (net.isIP(name)) return blockedAddressProblem(name);
  if (METADATA_NAMES.has(name)) return `${host} is a cloud metadata service, never a printer`;
  if (/^(?:0x[0-9a-f]*|\d+)(?:\.(?:0x[0-9a-f]*|\d+))*$/i.test(name))
    return `${host} is not a dotted-quad IPv4 address (write e.g. 192.168.1.50)`;
  return undefined;
}

/** Why `host`:`port` may not be a printer before DNS, or undefined. */
export function tcpTargetProblem(
  host: string,
  port: number,
  extraPorts: readonly number[] = [],
): string | undefined {
  return hostProblem(host) ?? portProblem(port, extraPorts);
}

/** The system resolver (getaddrinfo: hosts file, DNS, mDNS), every address of the name. */
const systemLookup = (host: string): Promise<LookupAddress[]> => lookup(host, { all: true, verbatim: true });

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
    new PrinterError('INVALID_CONFIG', `Refusing printer ${host}:${port}: ${why}`);
  const before = tcpTargetProblem(host, port, extraPorts);
  if (before) throw refused(before);
  const addresses = await resolve(host);
  const blocked = addresses.map((a) => blockedAddressProblem(a.address)).find(Boolean);
  if (blocked) throw refused(`it resolves to ${blocked}`);
  if (addresses.length === 0) throw new PrinterError('NOT_FOUND', `${host} does not resolve to an address`);
  return addresses;
}

/** A `lookup` for net.connect that answers with addresses already checked (happy eyeballs still works). */
export function pinnedLookup(addresses: readonly LookupAddress[]): net.LookupFunction {
  return (_hostname, options, callback) => {
    const first = addresses[0];
    if (options.all) callback(null, [...addresses]);
    else if (first) callback(null, first.address, first.family);
  };
}
