import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { prismBin } from '../../conformance/src/cli/mock.js';
import { readDocument, specsDir } from './specDocs.js';

type Json = Record<string, unknown>;

/** One operation per document, with what to send; Prism must answer with the document's first 200 example. */
const PROBES = [
  { file: 'registry.openapi.yaml', method: 'POST', path: '/registry/allocation-instruction/v2/{allocationInstructionId}/choice-contexts/accept', url: '/registry/allocation-instruction/v2/00abc/choice-contexts/accept', body: '{}' },
  { file: 'ledger.openapi.yaml', method: 'GET', path: '/v2/version', url: '/v2/version', headers: { authorization: 'Bearer test' } },
  { file: 'scan.openapi.yaml', method: 'GET', path: '/v0/transfer-preapprovals/by-party/{party}', url: '/v0/transfer-preapprovals/by-party/alice%3A%3A1220ab' },
];

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** `prism mock <spec> -v silent` on a free port; resolves with its base URL once it answers. */
async function prismMock(spec: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [prismBin(), 'mock', spec, '--port', String(port), '--host', '127.0.0.1', '-v', 'silent'], { stdio: 'ignore' });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 45_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 150))) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode} on ${spec}`);
    try {
      await fetch(url);
      return { url, child };
    } catch {
      // not listening yet
    }
  }
  throw new Error(`prism did not start on ${spec}`);
}

describe('prism mock serves every OpenAPI document of specs/', () => {
  it.each(PROBES)('$file: $method $path answers its 200 example', async (probe) => {
    const spec = `${specsDir}/${probe.file}`;
    const op = (((readDocument(spec)['paths'] as Json)[probe.path] as Json)[probe.method.toLowerCase()] as Json);
    const examples = (((((op['responses'] as Json)['200'] as Json)['content'] as Json)['application/json'] as Json)['examples'] as Json);
    const expected = (Object.values(examples)[0] as Json)['value'];

    const { url, child } = await prismMock(spec);
    try {
      const init: RequestInit = { method: probe.method, headers: { ...(probe.body ? { 'content-type': 'application/json' } : {}), ...(probe.headers ?? {}) } };
      if (probe.body) init.body = probe.body;
      const r = await fetch(url + probe.url, init);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual(expected);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
  }, 60_000);
});
