/**
 * The large reader of `streams-run.ts`, in a worker thread: reads the active contracts over HTTP
 * or WebSocket and reports how long it took, how many bytes and messages arrived.
 */
import { request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { WebSocket } from 'ws';

const { kind, url, request: body } = workerData as { kind: 'http' | 'ws'; url: string; request: unknown };
const t0 = performance.now();

function done(bytes: number, messages: number): void {
  parentPort?.postMessage({ ms: performance.now() - t0, bytes, messages });
}

if (kind === 'http') {
  const req = request(`${url}/v2/state/active-contracts`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
    let bytes = 0;
    res.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    res.on('end', () => done(bytes, 1));
  });
  req.on('error', (e) => {
    throw e;
  });
  req.end(JSON.stringify(body));
} else {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v2/state/active-contracts`, ['daml.ws.auth']);
  let bytes = 0;
  let messages = 0;
  ws.on('open', () => ws.send(JSON.stringify(body)));
  ws.on('message', (data: Buffer) => {
    bytes += data.length;
    messages++;
  });
  ws.on('close', () => done(bytes, messages));
  ws.on('error', (e) => {
    throw e;
  });
}
