/**
 * Interface views of uploaded code on reads and streams never hold the event loop (issue 30,
 * "never block"): a read over contracts whose views loop evaluates them in slices when the answer
 * is written, so another client's request is answered before the read completes, and each view
 * that runs out is reported in `viewStatus` as Canton reports a failed view. Proven by events,
 * never clocks: the read is still pending (its views evaluating) when the other answer arrives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BuiltPackage } from '../../daml-engine/build/PackageBuilder.js';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { settleViews } from '../../reference-server/src/ledger/pendingViews.js';
import { buildHostilePackage } from '../daml/hostilePackage.js';
import { createdIn, JsonApiClient } from '../engineApps/JsonApiClient.js';
import { startServer, type TestServer } from './support/startServer.js';
import { openStream } from './support/wsClient.js';

const CONTRACTS = 20;
let server: TestServer;
let api: JsonApiClient;
let built: BuiltPackage;
let owner: string;
let bombs: string[];
const id = (entity: string) => `${built.id}:Hostile:${entity}`;
const interfaceFilter = (party: string, interfaceId: string) => ({
  filtersByParty: { [party]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] } },
  verbose: true,
});
const turn = () => new Promise((resolve) => setImmediate(resolve));
type View = { interfaceId: string; viewStatus: { code: number; message: string }; viewValue?: unknown };

beforeAll(async () => {
  built = buildHostilePackage('hostile-sliced-views');
  // A small view budget keeps the test short; slicing is what is proven, not the budget.
  server = await startServer({ ledger: createLedger({ engineLimits: { viewStepBudget: 200_000 } }) });
  api = await new JsonApiClient(server.url).connect();
  await api.uploadDar(built.dar());
  owner = await api.party('owner');
  const creates = Array.from({ length: CONTRACTS }, (_, i) => ({ CreateCommand: { templateId: id('Bomb'), createArguments: { owner, depth: String(i + 1) } } }));
  bombs = createdIn(await api.must([owner], creates)).map((c) => c.contractId);
});
afterAll(() => server.close());

/** Starts `read`, waits (by events) until its views evaluate in slices, then asks GET /v2/version. */
async function versionDuring<T>(read: () => Promise<T>): Promise<{ order: string[]; answer: T }> {
  const order: string[] = [];
  const pending = read().then((answer) => {
    order.push('read answered');
    return answer;
  });
  while (server.ledger.engine.slicedViewsInProgress === 0) await turn();
  const version = await api.send('GET', '/v2/version');
  expect(version.status).toBe(200);
  order.push('version answered');
  const answer = await pending;
  return { order, answer };
}

const expectLoopingFailed = (view: View | undefined) => {
  expect(view).toMatchObject({ interfaceId: id('Looping'), viewStatus: { code: 10 } });
  expect(view!.viewStatus.message).toMatch(/^INTERPRETATION_TIME_EXCEEDED\(2,0\): the view of .*Looping failed/);
  expect(view).not.toHaveProperty('viewValue');
};

describe('a read over contracts with looping views yields to other clients', () => {
  it('active contracts: /v2/version is answered first, every view is reported ABORTED', async () => {
    const { order, answer } = await versionDuring(async () => api.send('POST', '/v2/state/active-contracts', {
      activeAtOffset: await api.ledgerEnd(), eventFormat: interfaceFilter(owner, id('Looping')),
    }));
    expect(order).toEqual(['version answered', 'read answered']);
    expect(answer.status).toBe(200);
    const events = (answer.body as unknown as { contractEntry: { JsActiveContract: { createdEvent: { interfaceViews: View[] } } } }[])
      .map((e) => e.contractEntry.JsActiveContract.createdEvent);
    expect(events).toHaveLength(CONTRACTS);
    for (const e of events) expectLoopingFailed(e.interfaceViews[0]);
    expect(server.errors).toEqual([]);
  });

  it('updates (flat list): the same, in the transaction that created them', async () => {
    const { order, answer } = await versionDuring(async () => api.send('POST', '/v2/updates', {
      beginExclusive: 0, endInclusive: await api.ledgerEnd(),
      updateFormat: { includeTransactions: { eventFormat: interfaceFilter(owner, id('Looping')), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
    }));
    expect(order).toEqual(['version answered', 'read answered']);
    expect(answer.status).toBe(200);
    const created = (answer.body as unknown as { update: { Transaction?: { value: { events: { CreatedEvent?: { interfaceViews: View[] } }[] } } } }[])
      .flatMap((u) => u.update.Transaction?.value.events ?? []).flatMap((e) => (e.CreatedEvent ? [e.CreatedEvent] : []));
    expect(created).toHaveLength(CONTRACTS);
    for (const e of created) expectLoopingFailed(e.interfaceViews[0]);
  });

  it('events by contract id: a single JSON answer settles its view in slices too', async () => {
    const { order, answer } = await versionDuring(() => api.send('POST', '/v2/events/events-by-contract-id', {
      contractId: bombs[0], eventFormat: interfaceFilter(owner, id('Looping')),
    }));
    expect(order).toEqual(['version answered', 'read answered']);
    expect(answer.status).toBe(200);
    expectLoopingFailed((answer.body as unknown as { created: { createdEvent: { interfaceViews: View[] } } }).created.createdEvent.interfaceViews[0]);
  });

  it('views that succeed are unchanged: the plain view carries its value, status OK', async () => {
    const plain = await api.byInterface(owner, id('Plain'));
    expect(plain).toHaveLength(CONTRACTS);
    for (const c of plain) {
      const view = c.interfaceViews![0]!;
      expect(view).toEqual({ interfaceId: id('Plain'), viewStatus: { code: 0, message: '' }, viewValue: { owner, depth: (c.createArgument as { depth: string }).depth } });
      // Settled views are plain data (no getters left behind), in the wire's key order.
      expect(Object.keys(view)).toEqual(['interfaceId', 'viewStatus', 'viewValue']);
    }
  });
});

describe('the proof above can fail: a view evaluated without yielding holds everyone', () => {
  it('with a slice as large as the budget, the macrotask queued at the start runs only after the view', async () => {
    const rt = server.ledger.engine;
    const template = rt.catalogue.resolve(id('Bomb'));
    const iface = rt.catalogue.resolve(id('Looping'));
    if (template?.kind !== 'template' || iface?.kind !== 'interface') throw new Error('the hostile package is not resolved');
    const stored = server.ledger.store.contract(bombs[0]!)!;
    const argument = rt.argumentOf(stored)!;
    const order = async (steps: number): Promise<string[]> => {
      const events: string[] = [];
      const slicing = { steps, pause: () => new Promise<void>((resolve) => setImmediate(resolve)) };
      const view = rt.viewValueSliced(template, iface, argument, slicing).then((r) => {
        events.push(`view ${r.ok ? 'ok' : 'failed'}`);
      });
      setImmediate(() => events.push('other request served'));
      await view;
      await turn();
      return events;
    };
    expect(await order(Number.MAX_SAFE_INTEGER)).toEqual(['view failed', 'other request served']);
    expect(await order(2_500)).toEqual(['other request served', 'view failed']);
  });
});

describe('WebSocket subscribers asking for views while creates happen', () => {
  it('each subscriber gets the views reported, and /v2/version is answered while they evaluate', async () => {
    const begin = await api.ledgerEnd();
    const { filtersByParty } = interfaceFilter(owner, id('Looping'));
    const request = { beginExclusive: begin, verbose: true, filter: { filtersByParty } };
    const subscribers = await Promise.all(Array.from({ length: 3 }, () => openStream(server.url, '/v2/updates', request)));
    const order: string[] = [];
    const creating = api.must([owner], [{ CreateCommand: { templateId: id('Bomb'), createArguments: { owner, depth: '7' } } }]);
    const delivered = Promise.all(subscribers.map((s) => s.waitFor(1, 60_000))).then(() => order.push('views delivered'));
    // The commit lands, every subscriber renders it: its views evaluate in slices.
    while (server.ledger.engine.slicedViewsInProgress === 0) await turn();
    expect((await api.send('GET', '/v2/version')).status).toBe(200);
    order.push('version answered');
    const created = await creating;
    await delivered;
    expect(order).toEqual(['version answered', 'views delivered']);
    for (const s of subscribers) {
      const [message] = (await s.waitFor(1, 60_000)) as { update: { Transaction: { value: { events: { CreatedEvent: { contractId: string; interfaceViews: View[] } }[] } } } }[];
      const ev = message!.update.Transaction.value.events[0]!.CreatedEvent;
      expect(ev.contractId).toBe(createdIn(created)[0]!.contractId);
      expectLoopingFailed(ev.interfaceViews[0]);
      s.socket.close();
    }
    expect(server.errors).toEqual([]);
  });
});

describe('a caller that reads the ledger directly (no HTTP writer) still gets every view', () => {
  it('an unsettled view computes at once when read; settling afterwards changes nothing', async () => {
    const read = (interfaceId: string) => {
      const r = server.ledger.activeContracts({ activeAtOffset: server.ledger.ledgerEnd().offset, eventFormat: interfaceFilter(owner, interfaceId) } as never);
      if (!r.ok) throw new Error(r.error.cause);
      return [...r.value].map((e) => (e.contractEntry as { JsActiveContract: { createdEvent: { interfaceViews: View[] } } }).JsActiveContract.createdEvent.interfaceViews[0]!);
    };
    const looping = read(id('Looping'));
    const plain = read(id('Plain'));
    // Read synchronously, without a turn of the event loop: the views are computed there and then.
    expectLoopingFailed(looping[0]);
    expect(plain[0]).toMatchObject({ viewStatus: { code: 0 }, viewValue: { owner } });
    const before = JSON.stringify([looping[0], plain[0]]);
    await settleViews();
    expect(JSON.stringify([looping[0], plain[0]])).toBe(before);
    // Those never read settle in slices, to the same outcome.
    expect(looping.every((v) => v.viewStatus.code === 10)).toBe(true);
  });
});
