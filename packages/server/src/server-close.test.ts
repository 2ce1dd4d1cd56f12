import net from 'node:net';
import { expect, it } from 'vitest';
import { startTestServer } from './testing/harness';

const REQUEST = 'GET /health HTTP/1.1\r\nHost: test\r\n\r\n';

/**
 * A central with tills talking to it must still stop: a till's replicator reuses its kept-alive connection,
 * and server.close() alone waited for such a client to fall silent (for ever, if it kept asking).
 */
it('closes while a client keeps asking on its kept-alive connection', async () => {
  const t = await startTestServer({ mode: 'central' });
  const { server, port } = await t.server.listen(0, '127.0.0.1');
  // Close while a request is in progress, so the connection is busy, not idle, when close() begins.
  const closeBegun = new Promise<{ closing: Promise<void> }>((resolve) => {
    server.once('request', () => resolve({ closing: t.close() }));
  });

  const client = net.connect(port, '127.0.0.1');
  let answers = 0;
  let toldToClose = false;
  client.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    answers += text.match(/^HTTP\/1\.1 /gm)?.length ?? 0;
    if (/^connection: close/im.test(text)) toldToClose = true;
    else if (!client.destroyed) client.write(REQUEST); // the next question as soon as an answer arrives
  });
  client.on('error', () => {});
  // Two questions at once (pipelined): the second is waiting on the connection when the first is answered,
  // as a till's next request can be; without it, the server could find the connection idle between two
  // questions and close it without a word (still closed, but not what this test asks about).
  client.write(REQUEST + REQUEST);
  const { closing } = await closeBegun;

  const stuck = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 8_000).unref());
  const outcome = await Promise.race([closing.then(() => 'closed' as const), stuck]);
  client.destroy();
  expect(outcome).toBe('closed');
  expect(toldToClose).toBe(true);
  expect(answers).toBeGreaterThanOrEqual(1);
}, 30_000);

/**
 * The scanner event stream never ends by itself: a till with a Sell screen open took the whole close grace
 * (10 s) to stop, a restart or an update waiting on it. Closing ends the stream at once.
 */
it('closes at once while a screen listens on the scanner event stream', async () => {
  const t = await startTestServer();
  const res = await fetch(`${t.baseUrl}/api/v1/scanners/events`, {
    headers: { authorization: `Bearer ${await t.adminToken()}` },
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  await reader.read(); // the stream's opening comment: the server is serving it
  const closing = t.close();
  const stuck = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 5_000).unref());
  expect(await Promise.race([closing.then(() => 'closed' as const), stuck])).toBe('closed');
  // The stream ended, it was not cut: the screen reads its end and reconnects later.
  expect((await reader.read()).done).toBe(true);
}, 30_000);
