import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { openApiFiles, root } from './specDocs.js';

/**
 * Our specs against upstream's own documents (in ../shared/upstream beside the repository on
 * project machines and in CI; skipped, saying so, in a user's clone): every operation Canton 3.5's
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

describe.skipIf(!hasUpstream)('our specs serve every operation upstream declares', () => {
  it("Canton 3.5's JSON Ledger API: all 65 operations", () => {
    const upstream = operations(join(upstreamDir, 'canton-json-api-v2', 'openapi.3.5.yaml'));
    const ours = operations(ledgerFile);
    expect(upstream.size).toBe(65);
    expect(missingFrom(ours, upstream)).toEqual([]);
    const extra = [...ours].filter((op) => !upstream.has(op)).sort();
    expect(extra).toEqual(['GET /docs/asyncapi', 'GET /docs/openapi']);
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
