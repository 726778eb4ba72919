/**
 * Koa + @koa/router with as many routes as a plain server of this surface would mount (70 by
 * default, `ROUTES=n` to change): the first n operations of the reference server's own table,
 * `GET /v2/version` among them answering the same JSON, the others `{}`. The router benchmark's
 * first baseline: what routing costs when every request walks the router's layers.
 */
import Router from '@koa/router';
import Koa from 'koa';
import { ledgerApiRoutes } from '../../reference-server/src/http/api/routes/routeTable.js';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import type { ServerMessage } from './protocol.js';

const count = Number(process.env['ROUTES'] ?? 70);
const version = createLedger().version();

const app = new Koa();
const router = new Router();
for (const route of ledgerApiRoutes.slice(0, count)) {
  let i = 0;
  // `{user-id}` -> `:p0`: path-to-regexp reads a dash as the end of a name.
  const path = route.path.replace(/\{[^}]+\}/g, () => `:p${i++}`);
  const body = route.path === '/v2/version' ? version : {};
  router.register(path, [route.method], (ctx) => {
    ctx.body = body;
  });
}
app.use(router.routes());

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.send?.({ kind: 'ready', url: `http://127.0.0.1:${port}`, routes: router.stack.length } satisfies ServerMessage & { routes: number });
});
process.on('message', (m: { cmd?: string }) => {
  if (m.cmd === 'exit') server.close(() => process.exit(0));
});
