import net from 'node:net';
import { PrinterError, toPrinterError } from './printer-error';
import { pinnedLookup, resolvePrinterHost } from './tcp-policy';
import { PrinterLink } from './printer-status';
import { DEFAULT_TIMEOUT_MS, withTimeout } from './timeouts';
import type { PrinterTransport } from './transport-types';

export const DEFAULT_RAW_PORT = 9100;

export interface TcpAddress {
  host: string;
  port: number;
}

/** "host", "host:port", "[v6]:port". */
export function parseTcpAddress(address: string): TcpAddress {
  const trimmed = address.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(trimmed);
  const plain = /^([^:\s]+)(?::(\d+))?$/.exec(trimmed);
  const match = bracketed ?? plain;
  const host = match?.[1];
  if (!host) throw new PrinterError('INVALID_CONFIG', `Not a host[:port] printer address: "${address}"`);
  const port = match?.[2] === undefined ? DEFAULT_RAW_PORT : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new PrinterError('INVALID_CONFIG', `Invalid TCP port in "${address}"`);
  }
  return { host, port };
}

/**
 * Raw "JetDirect" printing: the bytes go straight to port 9100 of a network printer. The host is resolved
 * and checked first (`resolvePrinterHost`: no link-local or metadata address, a printer port or one of
 * `extraPorts`), and the socket connects only to the addresses that were checked.
 */
export async function openTcpTransport(
  address: string,
  options: { timeoutMs?: number; extraPorts?: readonly number[] } = {},
): Promise<PrinterTransport> {
  const { host, port } = parseTcpAddress(address);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const where = `printer ${host}:${port}`;
  const addresses = await withTimeout(
    resolvePrinterHost(host, port, options.extraPorts),
    timeoutMs,
    `Resolving ${where}`,
  ).catch((error: unknown) => {
    throw toPrinterError(error, `Cannot resolve ${where}`);
  });
  const socket = new net.Socket();
  const link = new PrinterLink(where, timeoutMs);

  await withTimeout(
    new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', (error) => reject(toPrinterError(error, `Cannot connect to ${where}`)));
      socket.connect({ host, port, lookup: pinnedLookup(addresses) });
    }),
    timeoutMs,
    `Connecting to ${where}`,
    () => socket.destroy(),
  );
  socket.setNoDelay(true);
  socket.on('data', (chunk: Buffer) => link.receive(chunk));
  socket.on('error', (error) => link.fail(toPrinterError(error, `Connection to ${where} failed`)));
  socket.on('close', () =>
    link.fail(link.failure ?? new PrinterError('OFFLINE', `${where} closed the connection`)),
  );

  const write = (bytes: Buffer): Promise<void> => {
    if (link.failure) return Promise.reject(link.failure);
    return withTimeout(
      new Promise<void>((resolve, reject) => {
        socket.write(bytes, (error) =>
          error ? reject(toPrinterError(error, `Writing to ${where}`)) : resolve(),
        );
      }),
      timeoutMs,
      `Writing to ${where}`,
      () => socket.destroy(),
    );
  };

  const close = async (): Promise<void> => {
    if (socket.destroyed) return;
    await withTimeout(
      new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.end();
      }),
      timeoutMs,
      `Closing ${where}`,
    ).catch(() => socket.destroy());
  };

  return { write, readStatus: () => link.readStatus(write), close };
}
