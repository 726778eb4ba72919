import type { Command, DamlRecord, DamlValue } from '../../../reference-server/src/ledger/index.js';
import { expect } from 'vitest';
import type { AppServer } from './appServer.js';

let counter = 0;
export const commandId = (what: string) => `apps-${what}-${process.pid}-${++counter}`;

export interface Submitted {
  readonly status: number;
  readonly body: Record<string, unknown>;
  /** Contract ids created by the transaction, in order, with their template ids. */
  readonly created: { contractId: string; templateId: string }[];
  readonly archived: string[];
}

/** Submits through the JSON API (submit-and-wait-for-transaction) and reads the created contracts. */
export async function submit(server: AppServer, actAs: string[], commands: unknown[], extra: Record<string, unknown> = {}): Promise<Submitted> {
  const res = await server.http
    .post('/v2/commands/submit-and-wait-for-transaction')
    .send(Buffer.from(JSON.stringify({ commands: { commands, commandId: commandId('cmd'), userId: 'participant_admin', actAs, ...extra } })));
  const body = res.body as Record<string, unknown>;
  const events = ((body.transaction as { events?: Record<string, { contractId: string; templateId: string }>[] } | undefined)?.events ?? []);
  return {
    status: res.status,
    body,
    created: events.flatMap((e) => (e.CreatedEvent ? [{ contractId: e.CreatedEvent.contractId, templateId: e.CreatedEvent.templateId }] : [])),
    archived: events.flatMap((e) => (e.ArchivedEvent ? [e.ArchivedEvent.contractId] : [])),
  };
}

/** Like `submit`, failing the test unless the ledger accepted. */
export async function mustSubmit(server: AppServer, actAs: string[], commands: unknown[], extra: Record<string, unknown> = {}): Promise<Submitted> {
  const r = await submit(server, actAs, commands, extra);
  expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200);
  return r;
}

export async function allocateParty(server: AppServer, hint: string): Promise<string> {
  const res = await server.http.post('/v2/parties').send(Buffer.from(JSON.stringify({ partyIdHint: `${hint}-${process.pid}-${++counter}`, identityProviderId: '' })));
  expect(res.status, res.text).toBe(200);
  return (res.body as { partyDetails: { party: string } }).partyDetails.party;
}

export const create = (templateId: string, createArguments: DamlRecord): Command => ({ CreateCommand: { templateId, createArguments } });
export const exercise = (templateId: string, contractId: string, choice: string, choiceArgument: DamlValue): Command => ({
  ExerciseCommand: { templateId, contractId, choice, choiceArgument },
});

/** The JSON API's view of one active contract, as a stakeholder sees it, blob included. */
export async function activeContract(server: AppServer, party: string, contractId: string) {
  const end = (await server.http.get('/v2/state/ledger-end')).body as { offset: number };
  const res = await server.http.post('/v2/state/active-contracts').send(
    Buffer.from(
      JSON.stringify({
        activeAtOffset: end.offset,
        eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } }, verbose: true },
      }),
    ),
  );
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  type Entry = { contractEntry: { JsActiveContract?: { createdEvent: Record<string, unknown> & { contractId: string }; synchronizerId: string } } };
  const hit = (res.body as Entry[]).map((e) => e.contractEntry.JsActiveContract).find((a) => a?.createdEvent.contractId === contractId);
  expect(hit, `contract ${contractId} among ${party}'s active contracts`).toBeDefined();
  return hit as { createdEvent: { contractId: string; templateId: string; createArgument: unknown; createdEventBlob: string; createdAt: string; packageName: string }; synchronizerId: string };
}
