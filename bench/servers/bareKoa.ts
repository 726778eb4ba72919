/**
 * The baseline: Koa + @koa/router answering the same JSON as the reference server, with nothing
 * else (no validation, no ledger). What the reference server's overhead is measured against.
 */
import Router from '@koa/router';
import Koa from 'koa';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import type { ServerMessage } from './protocol.js';

const version = createLedger().version();
const submitted = { updateId: '1220' + 'ab'.repeat(32), completionOffset: 42 };

const app = new Koa();
const router = new Router();
router.get('/v2/version', (ctx) => {
  ctx.body = version;
});
router.post('/v2/commands/submit-and-wait', async (ctx) => {
  // Read the body as the reference server must (a real handler cannot skip it).
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  JSON.parse(Buffer.concat(chunks).toString('utf8'));
  ctx.body = submitted;
});
app.use(router.routes());

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.send?.({ kind: 'ready', url: `http://127.0.0.1:${port}` } satisfies ServerMessage);
});
process.on('message', (m: { cmd?: string }) => {
  if (m.cmd === 'exit') server.close(() => process.exit(0));
});
