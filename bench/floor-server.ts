import express from 'express';

/** The floor: a bare Express route returning a constant, the most this machine serves over HTTP. */
const app = express();
app.get('/floor', (_req, res) => {
  res.json({ ok: true });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`ready on http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
