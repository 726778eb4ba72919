import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { openApiFiles, root } from './specDocs.js';

/**
 * Our specs against upstream's own documents (in ../shared/upstream beside the repository on
 * project machines and in CI; skipped, saying so, in a user's clone): every operation Canton 3.5.10's
 * JSON Ledger API and the token standard's registry APIs declare is in our specs. Operations of
 * ours that upstream lacks are listed, not failed (e.g. /docs/openapi).
 */
const upstreamDir = join(root, '..', 'shared', 'upstream');
const hasUpstream = existsSync(upstreamDir);

type Json = Record<string, unknown>;
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** `METHOD /path` per operation, path parameters renamed `{}` (names differ between documents). */
function operations(file: string): Set<string> {
  const doc = parse(readFileSync(file, 'utf8')) as { paths: Json };
  return new Set(
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as Json)
        .filter((m) => METHODS.has(m))
        .map((m) => `${m.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`),
    ),
  );
}

const [registryFile, ledgerFile, scanFile] = openApiFiles as [string, string, string];
const missingFrom = (ours: Set<string>, upstream: Set<string>) => [...upstream].filter((op) => !ours.has(op)).sort();

describe.skipIf(!hasUpstream)('our specs serve every operation upstream declares (needs ../shared/upstream)', () => {
  it("Canton 3.5.10's JSON Ledger API: all 67 operations (3.5.4's 65 and the two 3.5.7 added)", () => {
    const upstream = operations(join(upstreamDir, 'canton-json-api-v2', 'openapi.3.5.10.yaml'));
    const ours = operations(ledgerFile);
    expect(upstream.size).toBe(67);
    expect(missingFrom(ours, upstream)).toEqual([]);
    // Ours is every line's surface: beside /docs, it has 3.6's preview operations.
    const extra = [...ours].filter((op) => !upstream.has(op)).sort();
    expect(extra).toEqual(['GET /docs/asyncapi', 'GET /docs/openapi', 'GET /v2/jose/jwks/synchronizer/{}/party/{}', 'POST /v2/commands/completion-by-hash', 'POST /v2/updates/update-by-hash']);
  });

  it.each([
    ['3.4', 'openapi.3.4.yaml', ['GET /docs/asyncapi', 'GET /docs/openapi', 'GET /livez', 'GET /readyz']],
    ['3.5', 'openapi.3.5.10.yaml', ['GET /docs/asyncapi', 'GET /docs/openapi']],
    ['3.6', 'openapi.main-3.6.0-SNAPSHOT.yaml', ['GET /docs/asyncapi', 'GET /docs/openapi']],
  ])("our Canton %s document (specs/ledger.<line>.openapi.yaml) has exactly the operations of upstream's %s", (line, file, extraOfOurs) => {
    const upstream = operations(join(upstreamDir, 'canton-json-api-v2', file));
    const ours = operations(join(root, 'specs', `ledger.${line}.openapi.yaml`));
    expect(missingFrom(ours, upstream)).toEqual([]);
    expect([...ours].filter((op) => !upstream.has(op)).sort()).toEqual(extraOfOurs);
  });

  it("our deprecation marks are Canton 3.5.10's, and the completion list its description deprecates", () => {
    const deprecated = (file: string) => {
      const doc = parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, Json>> };
      return Object.entries(doc.paths)
        .flatMap(([path, item]) => Object.entries(item).filter(([m, op]) => METHODS.has(m) && op['deprecated'] === true).map(([m]) => `${m.toUpperCase()} ${path}`))
        .sort();
    };
    // Upstream deprecates POST /v2/commands/completions in its description only; we also flag it.
    const upstream = [...deprecated(join(upstreamDir, 'canton-json-api-v2', 'openapi.3.5.10.yaml')), 'POST /v2/commands/completions'].sort();
    expect(deprecated(ledgerFile)).toEqual(upstream);
  });

  it('the WebSocket channels are those of Canton 3.5.10', () => {
    const channels = (file: string) => Object.keys((parse(readFileSync(file, 'utf8')) as { channels: Json }).channels).sort();
    expect(channels(join(root, 'specs', 'ledger.asyncapi.yaml'))).toEqual(channels(join(upstreamDir, 'canton-json-api-v2', 'asyncapi.3.5.10.yaml')));
  });

  it('the token standard: metadata, transfer instruction, allocation instruction and allocation, v1 and v2', () => {
    const dir = join(upstreamDir, 'splice', 'token-standard');
    const files = ['token-metadata-v1', 'transfer-instruction-v1', 'transfer-instruction-v2', 'allocation-instruction-v1', 'allocation-instruction-v2', 'allocation-v1', 'allocation-v2'];
    const ours = operations(registryFile);
    const missing = files.flatMap((f) => missingFrom(ours, operations(join(dir, `${f}.yaml`))).map((op) => `${f}: ${op}`));
    expect(missing).toEqual([]);
  });

  it("Scan: the reads wallets call are upstream's operations, at upstream's paths", () => {
    const upstream = operations(join(upstreamDir, 'splice', 'scan', 'scan.yaml'));
    const wallet = ['GET /v0/dso', 'POST /v0/amulet-rules', 'POST /v0/open-and-issuing-mining-rounds', 'GET /v0/featured-apps/{}', 'GET /v0/domains/{}/members/{}/traffic-status', 'GET /v0/transfer-preapprovals/by-party/{}'];
    expect(missingFrom(upstream, new Set(wallet))).toEqual([]);
    expect(missingFrom(operations(scanFile), new Set(wallet))).toEqual([]);
  });

  it("the validator's scan-proxy forms of those reads", () => {
    const upstream = operations(join(upstreamDir, 'splice', 'validator', 'scan-proxy.yaml'));
    const proxied = ['GET /v0/scan-proxy/dso-party-id', 'GET /v0/scan-proxy/dso', 'GET /v0/scan-proxy/featured-apps/{}', 'GET /v0/scan-proxy/open-and-issuing-mining-rounds', 'GET /v0/scan-proxy/amulet-rules', 'GET /v0/scan-proxy/transfer-preapprovals/by-party/{}'];
    expect(missingFrom(upstream, new Set(proxied))).toEqual([]);
    expect(missingFrom(operations(scanFile), new Set(proxied))).toEqual([]);
  });
});

/** `METHOD /path` → whether its JSON request body's schema refuses unknown members (local $refs followed). */
function closedRequestBodies(file: string): Map<string, boolean> {
  const doc = parse(readFileSync(file, 'utf8')) as { paths: Json; components?: { schemas?: Json } };
  const deref = (s: unknown): Json | undefined => {
    const o = s as Json | undefined;
    const ref = o?.['$ref'];
    return typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? deref(doc.components?.schemas?.[ref.split('/').pop() as string]) : o;
  };
  const out = new Map<string, boolean>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const post = (item as Json)['post'] as Json | undefined;
    const schema = deref((((post?.['requestBody'] as Json | undefined)?.['content'] as Json | undefined)?.['application/json'] as Json | undefined)?.['schema']);
    if (schema !== undefined) out.set(`POST ${path.replace(/\{[^}]+\}/g, '{}')}`, schema['additionalProperties'] === false);
  }
  return out;
}

describe.skipIf(!hasUpstream)("Splice's request bodies are as open here as upstream declares them (needs ../shared/upstream)", () => {
  // Splice's servers decode with generated decoders that ignore unknown members; a closed schema here
  // would refuse what a real Scan or registry accepts.
  it.each([
    ['scan', join('scan', 'scan.yaml'), scanFile],
    ['allocation-instruction v2', join('token-standard', 'allocation-instruction-v2.yaml'), registryFile],
    ['transfer-instruction v2', join('token-standard', 'transfer-instruction-v2.yaml'), registryFile],
    ['allocation v2', join('token-standard', 'allocation-v2.yaml'), registryFile],
  ])('%s', (_name, upstreamFile, oursFile) => {
    const upstream = closedRequestBodies(join(upstreamDir, 'splice', upstreamFile));
    const ours = closedRequestBodies(oursFile);
    const shared = [...upstream.keys()].filter((op) => ours.has(op));
    expect(shared.length).toBeGreaterThan(0);
    expect(shared.filter((op) => ours.get(op) !== upstream.get(op)).map((op) => `${op}: ours ${ours.get(op) === true ? 'closed' : 'open'}`)).toEqual([]);
  });
});
