/**
 * Bare Koa: one middleware answering `GET /v2/version`'s JSON, no router, no validation, no
 * ledger. The floor of any Koa server; the router benchmark's second baseline.
 */
import Koa from 'koa';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import type { ServerMessage } from './protocol.js';

const version = createLedger().version();

const app = new Koa();
app.use((ctx) => {
  if (ctx.method === 'GET' && ctx.path === '/v2/version') ctx.body = version;
});

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.send?.({ kind: 'ready', url: `http://127.0.0.1:${port}` } satisfies ServerMessage);
});
process.on('message', (m: { cmd?: string }) => {
  if (m.cmd === 'exit') server.close(() => process.exit(0));
});
