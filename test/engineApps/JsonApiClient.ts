/**
 * A JSON Ledger API client over `fetch`, as a client team writes one: the same code drives the
 * reference server (a real socket) and the msw handlers (fetch intercepted). Every answer is
 * checked against specs/ledger.openapi.yaml before a flow sees it.
 */
import { expect } from 'vitest';
import { validateResponse } from '../../conformance/src/schema/index.js';

export interface Answer {
  readonly status: number;
  // Flows read answers the spec check has already validated.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

export interface CreatedEvent {
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly createArgument: Record<string, unknown>;
  readonly createdEventBlob?: string;
  readonly signatories: string[];
  readonly observers: string[];
  readonly interfaceViews?: { interfaceId: string; viewStatus: { code: number; message?: string }; viewValue?: Record<string, unknown> }[];
}

export interface ExercisedEvent {
  readonly contractId: string;
  readonly templateId: string;
  readonly interfaceId?: string | null;
  readonly choice: string;
  readonly choiceArgument: unknown;
  readonly exerciseResult: unknown;
  readonly consuming: boolean;
  readonly actingParties: string[];
  readonly witnessParties: string[];
}

export type FlowEvent = { CreatedEvent: CreatedEvent } | { ExercisedEvent: ExercisedEvent } | { ArchivedEvent: { contractId: string; templateId: string } };

export interface Transaction {
  readonly updateId: string;
  readonly offset: number;
  readonly effectiveAt: string;
  readonly events: FlowEvent[];
}

export interface Disclosed { readonly contractId: string; readonly templateId: string; readonly createdEventBlob: string; readonly synchronizerId: string }

let counter = 0;

export class JsonApiClient {
  synchronizerId = '';

  /** `token`: a JWT sent as the bearer (LocalNet's listeners require one). */
  constructor(readonly baseUrl: string, readonly userId = 'engine-apps', readonly token?: string) {}

  async send(method: 'GET' | 'POST', path: string, body?: unknown, contentType?: string): Promise<Answer> {
    const headers: Record<string, string> = this.token === undefined ? {} : { authorization: `Bearer ${this.token}` };
    const init: RequestInit = { method, headers };
    if (body !== undefined) {
      init.body = body instanceof Uint8Array ? new Blob([new Uint8Array(body)]) : JSON.stringify(body);
      headers['content-type'] = contentType ?? 'application/json';
    }
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const text = await res.text();
    const checked = validateResponse({ spec: 'ledger', method, path: path.split('?')[0]!, status: res.status, contentType: res.headers.get('content-type') ?? undefined, body: text === '' ? undefined : text });
    expect(checked.ok ? [] : checked.problems, `${method} ${path} -> ${res.status} ${text.slice(0, 300)}`).toEqual([]);
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  async ok(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer['body']> {
    const a = await this.send(method, path, body);
    expect(a.status, `${method} ${path}: ${JSON.stringify(a.body).slice(0, 600)}`).toBe(200);
    return a.body;
  }

  /** The first connected synchronizer, used for uploads and disclosed contracts. */
  async connect(): Promise<this> {
    const body = await this.ok('GET', '/v2/state/connected-synchronizers');
    this.synchronizerId = (body.connectedSynchronizers as { synchronizerId: string }[])[0]!.synchronizerId;
    // Transactions are read for any party (filtersForAnyParty), which a secured participant allows only with this right.
    if (this.token !== undefined) await this.ok('POST', `/v2/users/${encodeURIComponent(this.userId)}/rights`, { userId: this.userId, rights: [{ kind: { CanReadAsAnyParty: { value: {} } } }], identityProviderId: '' });
    return this;
  }

  /** Uploads and vets on the synchronizer; `vet: false` stores without vetting (no lineage check, as on Canton). */
  async uploadDar(bytes: Uint8Array, options: { vet?: boolean } = {}): Promise<void> {
    const query = options.vet === false ? 'vetAllPackages=false' : `synchronizerId=${encodeURIComponent(this.synchronizerId)}`;
    const a = await this.send('POST', `/v2/dars?${query}`, bytes, 'application/octet-stream');
    expect(a.status, JSON.stringify(a.body)).toBe(200);
  }

  /** Allocates a party and, with a token, grants its user the right to act as it (as an app's onboarding does). */
  async party(hint: string): Promise<string> {
    const body = await this.ok('POST', '/v2/parties', { partyIdHint: `${hint}-${++counter}`, identityProviderId: '' });
    const party = body.partyDetails.party as string;
    if (this.token !== undefined) {
      await this.ok('POST', `/v2/users/${encodeURIComponent(this.userId)}/rights`, { userId: this.userId, rights: [{ kind: { CanActAs: { value: { party } } } }], identityProviderId: '' });
    }
    return party;
  }

  /** submit-and-wait-for-transaction; every party's ledger effects, with blobs. */
  async submit(actAs: string[], commands: unknown[], disclosed: Disclosed[] = []): Promise<Answer> {
    return this.send('POST', '/v2/commands/submit-and-wait-for-transaction', {
      commands: { userId: this.userId, commandId: `flow-${++counter}`, actAs, commands, disclosedContracts: disclosed },
      transactionFormat: {
        eventFormat: { filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] }, verbose: true },
        transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
      },
    });
  }

  async must(actAs: string[], commands: unknown[], disclosed: Disclosed[] = []): Promise<Transaction> {
    const a = await this.submit(actAs, commands, disclosed);
    expect(a.status, JSON.stringify(a.body).slice(0, 800)).toBe(200);
    return a.body.transaction as Transaction;
  }

  async ledgerEnd(): Promise<number> {
    return (await this.ok('GET', '/v2/state/ledger-end')).offset as number;
  }

  /** The party's active contracts of a template. */
  async byTemplate(party: string, templateId: string): Promise<CreatedEvent[]> {
    const body = await this.ok('POST', '/v2/state/active-contracts', {
      activeAtOffset: await this.ledgerEnd(),
      eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob: true } } } }] } }, verbose: true },
    });
    return (body as { contractEntry: { JsActiveContract?: { createdEvent: CreatedEvent } } }[]).flatMap((e) => (e.contractEntry.JsActiveContract ? [e.contractEntry.JsActiveContract.createdEvent] : []));
  }

  /** The party's active contracts of an interface, with its view (as a wallet lists holdings). */
  async byInterface(party: string, interfaceId: string): Promise<CreatedEvent[]> {
    const body = await this.ok('POST', '/v2/state/active-contracts', {
      activeAtOffset: await this.ledgerEnd(),
      eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true, includeCreatedEventBlob: true } } } }] } }, verbose: true },
    });
    return (body as { contractEntry: { JsActiveContract?: { createdEvent: CreatedEvent } } }[]).flatMap((e) => (e.contractEntry.JsActiveContract ? [e.contractEntry.JsActiveContract.createdEvent] : []));
  }
}

export const createdIn = (tx: Transaction): CreatedEvent[] => tx.events.flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent] : []));
export const exercisedIn = (tx: Transaction): ExercisedEvent[] => tx.events.flatMap((e) => ('ExercisedEvent' in e ? [e.ExercisedEvent] : []));
export const entityOf = (templateId: string): string => templateId.split(':').slice(1).join(':');
export const disclose = (c: CreatedEvent, synchronizerId: string): Disclosed => ({ contractId: c.contractId, templateId: c.templateId, createdEventBlob: c.createdEventBlob!, synchronizerId });
