/**
 * The baseline of the apps benchmarks: Koa + @koa/router answering the same JSON the reference
 * server answered (the driver hands it over), with no ledger, no lookup and no validation.
 */
import Router from '@koa/router';
import Koa from 'koa';
import { cpuMs, type AppsDriverMessage, type AppsServerMessage } from './apps-protocol.js';

// Objects, serialised per request like any Koa handler's answer.
let preapproval: unknown = {};
let acceptContext: unknown = {};

const app = new Koa();
const router = new Router();
router.get('/v0/transfer-preapprovals/by-party/:party', (ctx) => {
  ctx.body = preapproval;
});
router.post('/registry/allocation-instruction/v2/:id/choice-contexts/accept', async (ctx) => {
  // Read and parse the body as the reference server must.
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  JSON.parse(Buffer.concat(chunks).toString('utf8'));
  ctx.body = acceptContext;
});
app.use(router.routes());

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.send?.({ kind: 'ready', url: `http://127.0.0.1:${port}` });
});
process.on('message', (m: AppsDriverMessage) => {
  if (m.cmd === 'bodies') {
    preapproval = JSON.parse(m.preapproval) as unknown;
    acceptContext = JSON.parse(m.acceptContext) as unknown;
    process.send?.({ kind: 'bodies-set' } satisfies AppsServerMessage);
  } else if (m.cmd === 'cpu') {
    process.send?.({ kind: 'cpu', ms: cpuMs() } satisfies AppsServerMessage);
  } else if (m.cmd === 'exit') {
    server.close(() => process.exit(0));
  }
});
