import net from 'node:net';
import { expect, type Page } from '@playwright/test';
import { ADMIN, NEW_ADMIN_PASSWORD, signIn } from './fixtures';

/**
 * A raw network receipt printer on 127.0.0.1, on a free port of the printer range 9100-9109 (the till only
 * talks to printer ports): it keeps the bytes of each connection and answers DLE EOT n as a healthy Epson does.
 */
export interface LoopbackPrinter {
  port: number;
  address: string;
  /** Bytes of every finished connection, in order. */
  jobs: Buffer[];
  /** The bytes of the first finished connection that carried more than a status query. */
  nextDocument(): Promise<Buffer>;
  stop(): Promise<void>;
}

function answerStatus(chunk: Buffer): Buffer {
  const replies: number[] = [];
  for (let i = 0; i + 2 < chunk.length; i++)
    if (chunk[i] === 0x10 && chunk[i + 1] === 0x04) {
      replies.push(0x12);
      i += 2;
    }
  return Buffer.from(replies);
}

const isStatusOnly = (bytes: Buffer) =>
  bytes.length > 0 &&
  bytes.length % 3 === 0 &&
  bytes.every((b, i) => (i % 3 === 0 ? b === 0x10 : i % 3 === 1 ? b === 0x04 : true));

async function listenInRange(server: net.Server): Promise<number> {
  for (let port = 9100; port <= 9109; port++) {
    const ok = await new Promise<boolean>((resolve) => {
      const fail = () => resolve(false);
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', fail);
        resolve(true);
      });
    });
    if (ok) return port;
  }
  throw new Error('no free printer port in 9100-9109');
}

export async function startLoopbackPrinter(): Promise<LoopbackPrinter> {
  const jobs: Buffer[] = [];
  const waiting: Array<(b: Buffer) => void> = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const reply = answerStatus(chunk);
      if (reply.length > 0) socket.write(reply);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      const job = Buffer.concat(chunks);
      jobs.push(job);
      if (!isStatusOnly(job) && job.length > 0) waiting.shift()?.(job);
    });
  });
  const port = await listenInRange(server);
  return {
    port,
    address: `127.0.0.1:${port}`,
    jobs,
    nextDocument: () => new Promise((resolve) => waiting.push(resolve)),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The admin signed in on the till after `Api.admin(till)` has already replaced the seeded password. */
export async function adminSignedIn(page: Page, url = '/'): Promise<void> {
  await page.goto(url);
  await signIn(page, { email: ADMIN.email, password: NEW_ADMIN_PASSWORD });
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
}
