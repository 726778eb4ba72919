import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asyncApiFile, hasServiceDescription, openApiFiles, readDocument, serviceDescriptionFile } from './specDocs.js';

type Json = Record<string, unknown>;

/** The operations the service description names, group by group (A, B's table, C), by method and path. */
const DESCRIBED = {
  registry: ['POST /registry/allocation-instruction/v2/{allocationInstructionId}/choice-contexts/accept'],
  ledger: [
    'GET /v2/version',
    'DELETE /v2/users/{user-id}',
    'POST /v2/commands/submit-and-wait',
    'POST /v2/commands/submit-and-wait-for-transaction',
    'POST /v2/commands/async/submit',
    'POST /v2/state/active-contracts',
    'GET /v2/state/ledger-end',
    'POST /v2/updates',
    'POST /v2/interactive-submission/prepare',
    'POST /v2/interactive-submission/execute',
    'GET /docs/openapi',
    'GET /docs/asyncapi',
  ],
  scan: [
    'GET /v0/internal/reward-accounting-process/rounds/earliest-available',
    'GET /v0/transfer-preapprovals/by-party/{party}',
    // The pre-0.6.5 path (Versioning, item 4): older clients still call it.
    'GET /v0/reward-accounting-process/rounds/earliest-available',
  ],
} as const;

/** What a client needs beyond the description to set up state, and what the reference server serves. */
const SETUP = {
  registry: [
    'POST /registry/allocation-instruction/v2/{allocationInstructionId}/choice-contexts/withdraw',
  ],
  ledger: [
    'POST /v2/parties',
    'GET /v2/parties',
    'GET /v2/parties/{party}',
    'GET /v2/parties/participant-id',
    'POST /v2/parties/external/generate-topology',
    'POST /v2/parties/external/allocate',
    'POST /v2/users',
    'GET /v2/users',
    'GET /v2/users/{user-id}',
    'PATCH /v2/users/{user-id}',
    'GET /v2/authenticated-user',
    'GET /v2/users/{user-id}/rights',
    'POST /v2/users/{user-id}/rights',
    'PATCH /v2/users/{user-id}/rights',
    'GET /v2/state/connected-synchronizers',
    'POST /v2/commands/completions',
    'GET /v2/state/latest-pruned-offsets',
    'POST /v2/interactive-submission/executeAndWait',
    'POST /v2/interactive-submission/executeAndWaitForTransaction',
    'POST /v2/commands/submit-and-wait-for-reassignment',
    'POST /v2/commands/async/submit-reassignment',
    'GET /livez',
    'GET /readyz',
  ],
  scan: [],
} as const;

const [registryFile, ledgerFile, scanFile] = openApiFiles as [string, string, string];
const declared = (file: string): Set<string> =>
  new Set(Object.entries(readDocument(file)['paths'] as Json).flatMap(([path, item]) => Object.keys(item as Json).map((m) => `${m.toUpperCase()} ${path}`)));
const ours = { registry: declared(registryFile), ledger: declared(ledgerFile), scan: declared(scanFile) };
const all = new Set([...ours.registry, ...ours.ledger, ...ours.scan]);

/** `METHOD /path` mentions in a markdown text, trailing punctuation dropped. */
function endpointMentions(markdown: string): string[] {
  const found = markdown.match(/\b(?:GET|POST|PUT|PATCH|DELETE) \/[^\s|*`]+/g) ?? [];
  return [...new Set(found.map((m) => m.replace(/[),;:.]+$/, '')))].sort();
}

describe('operations of the service description are in specs/', () => {
  for (const group of ['registry', 'ledger', 'scan'] as const) {
    it(`group ${group}: every described operation`, () => {
      expect(DESCRIBED[group].filter((op) => !ours[group].has(op))).toEqual([]);
    });
    it(`group ${group}: every setup operation`, () => {
      expect(SETUP[group].filter((op) => !ours[group].has(op))).toEqual([]);
    });
  }

  it('the WebSocket channels /v2/updates and /v2/commands/completions are in the AsyncAPI document', () => {
    const channels = Object.keys(readDocument(asyncApiFile)['channels'] as Json);
    expect(channels).toEqual(expect.arrayContaining(['/v2/updates', '/v2/commands/completions']));
  });

  it('endpointMentions reads the forms the description uses', () => {
    const md = '| GET /v2/version | x |\n**POST /a/{id}/b** (op)\nmoved from GET /v0/old to its path; see GET /v2/version, or DELETE /v2/users/{user-id}.';
    expect(endpointMentions(md)).toEqual(['DELETE /v2/users/{user-id}', 'GET /v0/old', 'GET /v2/version', 'POST /a/{id}/b']);
  });

  it.skipIf(!hasServiceDescription)('our list covers every endpoint ../shared/service-description.md mentions', () => {
    const mentioned = endpointMentions(readFileSync(serviceDescriptionFile, 'utf8'));
    expect(mentioned.length).toBeGreaterThan(10);
    const listed = new Set<string>([...DESCRIBED.registry, ...DESCRIBED.ledger, ...DESCRIBED.scan]);
    expect(mentioned.filter((m) => !listed.has(m))).toEqual([]);
    expect(mentioned.filter((m) => !all.has(m))).toEqual([]);
  });
});
