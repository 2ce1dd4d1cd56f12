import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import net from 'node:net';

/**
 * Where the till may connect when a person types an address (Node only, never in the UI's bundle): a network
 * printer and head office (issue 26 M3). Any host on the shop's network or this machine is fine (private and
 * loopback addresses: printers and a head office on the LAN), but never a link-local, cloud metadata,
 * multicast or unspecified address, in any spelling (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d,
 * NAT64 64:ff9b::a.b.c.d, numeric host names), before DNS and again for every address a name resolves to.
 * Otherwise a printer's status check or a head office connect is a port scanner.
 */
const BLOCKED = new net.BlockList();

/** Blocks an IPv4 range and its IPv6 spellings (compatible ::a.b.c.d and NAT64; BlockList matches ::ffff: itself). */
function blockV4(address: string, prefix: number): void {
  BLOCKED.addSubnet(address, prefix, 'ipv4');
  const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
  const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  BLOCKED.addSubnet(`::${hex}`, 96 + prefix, 'ipv6');
  BLOCKED.addSubnet(`64:ff9b::${hex}`, 96 + prefix, 'ipv6');
}

blockV4('169.254.0.0', 16); // link-local: AWS/GCP/Azure/OpenStack metadata, ECS task credentials
blockV4('224.0.0.0', 4); // multicast
blockV4('255.255.255.255', 32);
blockV4('100.100.100.200', 32); // Alibaba Cloud metadata
blockV4('192.0.0.192', 32); // Oracle Cloud metadata (legacy)
blockV4('168.63.129.16', 32); // Azure WireServer
BLOCKED.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network" (its ::-spelling would cover ::1, loopback)
BLOCKED.addSubnet('fe80::', 10, 'ipv6'); // link-local
BLOCKED.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6
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

/** Why the till may not connect to the IP address, or undefined. */
export function blockedAddressProblem(ip: string): string | undefined {
  const family = net.isIP(ip);
  if (family === 0) return `${ip} is not an IP address`;
  if (BLOCKED.check(ip, family === 4 ? 'ipv4' : 'ipv6'))
    return `${ip} is a link-local, metadata, multicast or unspecified address`;
  return undefined;
}

/**
 * Why the till may not connect to a host, judged by its text (before DNS): a literal IP address is checked
 * (with or without [brackets]), a metadata name refused, and a number that is not a dotted-quad IPv4 address
 * (2852039166, 0xa9fea9fe, 0251.0376.0251.0376, which resolvers read as 169.254.169.254) refused.
 */
export function hostProblem(host: string): string | undefined {
  const name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (net.isIP(name)) return blockedAddressProblem(name);
  if (METADATA_NAMES.has(name)) return `${host} is a cloud metadata service`;
  if (/^(?:0x[0-9a-f]*|\d+)(?:\.(?:0x[0-9a-f]*|\d+))*$/i.test(name))
    return `${host} is not a dotted-quad IPv4 address (write e.g. 192.168.1.50)`;
  return undefined;
}

/** The system resolver (getaddrinfo: hosts file, DNS, mDNS), every address of the name. */
export const systemLookup = (host: string): Promise<LookupAddress[]> =>
  lookup(host, { all: true, verbatim: true });

/** A host the till may not connect to, with the reason. */
export class AddressRefused extends Error {}

/**
 * Resolves the host and checks every address it resolves to; the caller connects to these addresses only
 * (`pinnedLookup`), so a name cannot resolve to something else between the check and the connection.
 * `resolve` is the system resolver except in tests that need a name leading to a link-local address.
 * Throws AddressRefused (the host or an address it resolves to is refused), or the resolver's error.
 */
export async function resolveCheckedHost(
  host: string,
  resolve: (host: string) => Promise<LookupAddress[]> = systemLookup,
): Promise<LookupAddress[]> {
  const before = hostProblem(host);
  if (before) throw new AddressRefused(before);
  const addresses = await resolve(host.replace(/^\[(.*)\]$/, '$1'));
  const blocked = addresses.map((a) => blockedAddressProblem(a.address)).find(Boolean);
  if (blocked) throw new AddressRefused(`it resolves to ${blocked}`);
  return addresses;
}

/** A `lookup` for net.connect and http.request that answers with addresses already checked. */
export function pinnedLookup(addresses: readonly LookupAddress[]): net.LookupFunction {
  return (_hostname, options, callback) => {
    const first = addresses[0];
    if (options.all) callback(null, [...addresses]);
    else if (first) callback(null, first.address, first.family);
  };
}

/**
 * A `lookup` that resolves and checks on every connection (resolveCheckedHost), for a client that keeps
 * connecting to one address for days: the replicator's connections to head office. A literal IP address never
 * reaches a lookup, so callers check the host's text with hostProblem first.
 */
export const checkedLookup: net.LookupFunction = (hostname, options, callback) => {
  resolveCheckedHost(hostname).then(
    (addresses) => pinnedLookup(addresses)(hostname, options, callback),
    (err: NodeJS.ErrnoException) => callback(err, '', 4),
  );
};
