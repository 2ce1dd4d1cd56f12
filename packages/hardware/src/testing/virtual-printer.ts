import net from 'node:net';
import type { PrinterStatus } from '../transport/transport-types';

const HEALTHY: PrinterStatus = { online: true, coverOpen: false, paperOut: false, paperNearEnd: false };

/** The byte an Epson printer sends back for DLE EOT n, given its state. */
export function statusByteFor(n: number, status: PrinterStatus): number {
  const fixed = 0x12;
  if (n === 1) return fixed | (status.online ? 0 : 0x08);
  if (n === 2) return fixed | (status.coverOpen ? 0x04 : 0) | (status.paperOut ? 0x20 : 0);
  if (n === 4) return fixed | (status.paperNearEnd ? 0x0c : 0) | (status.paperOut ? 0x60 : 0);
  return fixed;
}

/** Answers every DLE EOT n found in the incoming bytes, like a printer's real-time command handler. */
export class StatusResponder {
  private tail = Buffer.alloc(0);
  constructor(public status: PrinterStatus = HEALTHY) {}

  answer(chunk: Buffer): Buffer {
    const bytes = Buffer.concat([this.tail, chunk]);
    const replies: number[] = [];
    let i = 0;
    for (; i + 2 < bytes.length; i++) {
      if (bytes[i] === 0x10 && bytes[i + 1] === 0x04) {
        replies.push(statusByteFor(bytes[i + 2] ?? 0, this.status));
        i += 2;
      }
    }
    this.tail = bytes.subarray(i);
    return Buffer.from(replies);
  }
}

export interface VirtualPrinterOptions {
  status?: PrinterStatus;
  /** Reply to DLE EOT; on by default. */
  answerStatus?: boolean;
  /** Stop reading from clients, as a jammed printer with a full buffer does. */
  stalled?: boolean;
}

export interface VirtualPrinter {
  port: number;
  /** "127.0.0.1:port", ready for a tcp TransportConfig. */
  address: string;
  /** Bytes of each finished connection, in order. */
  jobs: Buffer[];
  /** Resolves with the bytes of the next connection to finish. */
  nextJob(): Promise<Buffer>;
  responder: StatusResponder;
  close(): Promise<void>;
}

/** A raw port-9100 network printer on 127.0.0.1 for integration tests. */
export async function startVirtualPrinter(options: VirtualPrinterOptions = {}): Promise<VirtualPrinter> {
  const responder = new StatusResponder(options.status);
  const jobs: Buffer[] = [];
  const waiting: Array<(job: Buffer) => void> = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const chunks: Buffer[] = [];
    if (options.stalled) socket.pause();
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (options.answerStatus !== false) {
        const reply = responder.answer(chunk);
        if (reply.length > 0) socket.write(reply);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      const job = Buffer.concat(chunks);
      jobs.push(job);
      waiting.shift()?.(job);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('Virtual printer has no TCP address');
  return {
    port: address.port,
    address: `127.0.0.1:${address.port}`,
    jobs,
    nextJob: () => new Promise<Buffer>((resolve) => waiting.push(resolve)),
    responder,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
