/**
 * The test trading app built into `serve --localnet` (TypeScript, tradingAppTemplates.ts) against
 * the real DAR of it (splice-token-test-trading-app 1.0.2, run by the Daml-LF engine), driven
 * through the same JSON API flow: every answer (events, choice results, refusals) must be the
 * same once identifiers are named by their first appearance. The flow stops short of settling
 * real allocations: the built-in venue settles the built-in Amulet's allocations, the DAR's
 * the allocations of uploaded tokens (test/http/engineApps.test.ts), and one transaction cannot
 * mix the two interpreters.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { LOCALNET_USER } from '../../reference-server/src/localnet/localNetConfig.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
import { HAS_DARS } from '../daml/damlFixtures.js';
import { JsonApiClient, type Answer, type FlowEvent } from '../engineApps/JsonApiClient.js';
import { darBytes, TRADING_APP_DAR } from '../engineApps/realDars.js';
import { localNetToken } from './support.js';

const APP = '#splice-token-test-trading-app:Splice.Testing.Apps.TradingApp';
const ALLOCATION_REQUEST = '#splice-api-token-allocation-request-v1:Splice.Api.Token.AllocationRequestV1:AllocationRequest';
const DAR_URL = 'http://trading-app-dar.test';
const NO_CONTEXT = { context: { values: {} }, meta: { values: {} } };

/** Names identifiers by first appearance so that two ledgers' answers compare. */
class Names {
  private readonly names = new Map<string, string>();
  private cids = 0;
  party(id: string, name: string): void { this.names.set(id, `<${name}>`); }
  private cid(id: string): string {
    let n = this.names.get(id);
    if (n === undefined) this.names.set(id, (n = `<cid${++this.cids}>`));
    return n;
  }
  value(v: unknown, effectiveAt?: string): unknown {
    if (typeof v === 'string') {
      if (/^00[0-9a-f]{64,}$/.test(v)) return this.cid(v);
      if (effectiveAt !== undefined && /^\d{4}-\d\d-\d\dT/.test(v) && Date.parse(v) === Date.parse(effectiveAt)) return '<effectiveAt>';
      let out = v.replace(/\b[0-9a-f]{64}:/g, '<pkg>:');
      for (const [id, name] of this.names) out = out.split(id).join(name);
      return out.replace(/\b00[0-9a-f]{64,}\b/g, (c) => this.cid(c));
    }
    if (Array.isArray(v)) return v.map((x) => this.value(x, effectiveAt));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.value(x, effectiveAt)]));
    return v;
  }
}

/** What a client observes of an answer: the events' meaning, a choice result, or the refusal. */
function observed(names: Names, a: Answer): unknown {
  // Refusals: the cause's first line. The lines after it name the open exercises (Speedy's trace),
  // which the built-in interpreter does not keep; the engine's are tested in test/ledger.
  // An exception's resources (its type and value) are compared too; a missing contract's are not:
  // the ledger core names it in the context (contract_id), the engine path in the resources.
  if (a.status !== 200) {
    return { status: a.status, code: a.body.code, cause: names.value((a.body.cause as string).split('\n')[0]), resources: a.body.code === 'CONTRACT_NOT_FOUND' ? '<not compared>' : names.value(a.body.resources) };
  }
  const tx = a.body.transaction as { effectiveAt: string; events: FlowEvent[] };
  return tx.events.map((e) => {
    if ('CreatedEvent' in e) {
      const c = e.CreatedEvent;
      return { created: names.value({ templateId: c.templateId, packageName: c.packageName, contractId: c.contractId, createArgument: c.createArgument, signatories: c.signatories, observers: c.observers }, tx.effectiveAt) };
    }
    if ('ExercisedEvent' in e) {
      const x = e.ExercisedEvent;
      return { exercised: names.value({ templateId: x.templateId, interfaceId: x.interfaceId ?? null, contractId: x.contractId, choice: x.choice, choiceArgument: x.choiceArgument, consuming: x.consuming, actingParties: x.actingParties, exerciseResult: x.exerciseResult }, tx.effectiveAt) };
    }
    return { archived: names.value(e.ArchivedEvent) };
  });
}

/** The OTC flow both ledgers run: answers in order, each observed. */
async function tradeFlow(api: JsonApiClient): Promise<unknown[]> {
  const names = new Names();
  const party = async (hint: string) => {
    const p = await api.party(`otc-${hint}`);
    names.party(p, hint);
    return p;
  };
  const [alice, bob, venue, admin] = [await party('alice'), await party('bob'), await party('venue'), await party('admin')];
  const out: unknown[] = [];
  const step = async (what: string, actAs: string | string[], command: unknown): Promise<Answer> => {
    const a = await api.submit(typeof actAs === 'string' ? [actAs] : actAs, [command]);
    out.push({ what, answer: observed(names, a) });
    return a;
  };
  const createdId = (a: Answer, i = 0): string => {
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    return createdIdOf(a, i);
  };
  const createdIdOf = (a: Answer, i: number): string => (a.body.transaction.events as FlowEvent[]).flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent.contractId] : []))[i]!;
  const onProposal = (cid: string, choice: string, choiceArgument: unknown) => ({ ExerciseCommand: { templateId: `${APP}:OTCTradeProposal`, contractId: cid, choice, choiceArgument } });
  const onTrade = (cid: string, choice: string, choiceArgument: unknown) => ({ ExerciseCommand: { templateId: `${APP}:OTCTrade`, contractId: cid, choice, choiceArgument } });
  const leg = (sender: string, receiver: string, amount: string) => ({ sender, receiver, amount, instrumentId: { admin, id: 'TEST' }, meta: { values: {} } });
  const transferLegs = { leg0: leg(alice, bob, '10.0'), leg1: leg(bob, alice, '20.5') };

  const proposal = await step('propose', alice, { CreateCommand: { templateId: `${APP}:OTCTradeProposal`, createArguments: { venue, tradeCid: null, transferLegs, approvers: [alice] } } });
  const p1 = createdId(proposal);
  await step('the venue approves (no trading party)', venue, onProposal(p1, 'OTCTradeProposal_Accept', { approver: venue }));
  await step('alice approves again', alice, onProposal(p1, 'OTCTradeProposal_Accept', { approver: alice }));
  await step('settlement before every approval', venue, onProposal(p1, 'OTCTradeProposal_InitiateSettlement', { prepareUntil: '9000-01-01T00:00:00Z', settleBefore: '9000-01-02T00:00:00Z' }));
  const accepted = await step('bob approves', bob, onProposal(p1, 'OTCTradeProposal_Accept', { approver: bob }));
  const p2 = createdId(accepted);
  await step('preparation already over', venue, onProposal(p2, 'OTCTradeProposal_InitiateSettlement', { prepareUntil: '2000-01-01T00:00:00Z', settleBefore: '9000-01-02T00:00:00Z' }));
  await step('settle before prepare', venue, onProposal(p2, 'OTCTradeProposal_InitiateSettlement', { prepareUntil: '9000-01-02T00:00:00Z', settleBefore: '9000-01-01T00:00:00Z' }));
  await step('a trader initiates (the venue controls)', alice, onProposal(p2, 'OTCTradeProposal_InitiateSettlement', { prepareUntil: '9000-01-01T00:00:00Z', settleBefore: '9000-01-02T00:00:00Z' }));
  const initiated = await step('the venue initiates settlement', venue, onProposal(p2, 'OTCTradeProposal_InitiateSettlement', { prepareUntil: '9000-01-01T00:00:00Z', settleBefore: '9000-01-02T00:00:00Z' }));
  const trade = createdId(initiated);

  // The wallet's view of the request, through the token standard's interface by package name.
  const requests = await api.send('POST', '/v2/state/active-contracts', {
    activeAtOffset: await api.ledgerEnd(),
    eventFormat: { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: ALLOCATION_REQUEST, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] } }, verbose: true },
  });
  const effectiveAt = initiated.body.transaction.effectiveAt as string;
  // The wallet exercises the request's choices through the interface id the view names: both
  // ledgers also hold the default world's stand-in of the token-standard packages, which the
  // package name alone would select on the ledger with the DAR.
  const requestInterface = (requests.body as { contractEntry: { JsActiveContract?: { createdEvent: { interfaceViews: { interfaceId: string }[] } } } }[])
    .flatMap((e) => e.contractEntry.JsActiveContract?.createdEvent.interfaceViews.map((v) => v.interfaceId) ?? [])[0]!;
  out.push({ what: 'allocation requests alice sees', answer: (requests.body as { contractEntry: { JsActiveContract?: { createdEvent: { contractId: string; interfaceViews: { viewStatus: unknown; viewValue: unknown }[] } } } }[])
    .flatMap((e) => (e.contractEntry.JsActiveContract ? [names.value({ contractId: e.contractEntry.JsActiveContract.createdEvent.contractId, views: e.contractEntry.JsActiveContract.createdEvent.interfaceViews.map((v) => ({ viewStatus: v.viewStatus, viewValue: v.viewValue })) }, effectiveAt)] : [])) });

  await step('settle with no allocation', venue, onTrade(trade, 'OTCTrade_Settle', { allocationsWithContext: {} }));
  await step('settle an unexpected leg', venue, onTrade(trade, 'OTCTrade_Settle', { allocationsWithContext: { leg7: { _1: p1, _2: NO_CONTEXT } } }));
  await step('cancel an unexpected leg', venue, onTrade(trade, 'OTCTrade_Cancel', { allocationsWithContext: { leg7: { _1: p1, _2: NO_CONTEXT } } }));
  await step('reject by a receiver-only party', venue, { ExerciseCommand: { templateId: requestInterface, contractId: trade, choice: 'AllocationRequest_Reject', choiceArgument: { actor: venue, extraArgs: NO_CONTEXT } } });
  await step('cancel with no allocation', venue, onTrade(trade, 'OTCTrade_Cancel', { allocationsWithContext: {} }));
  await step('reject a cancelled request', alice, { ExerciseCommand: { templateId: requestInterface, contractId: trade, choice: 'AllocationRequest_Reject', choiceArgument: { actor: alice, extraArgs: NO_CONTEXT } } });

  // A second proposal, rejected by a trader; then one withdrawn as an allocation request.
  const other = await step('propose again', bob, { CreateCommand: { templateId: `${APP}:OTCTradeProposal`, createArguments: { venue, tradeCid: null, transferLegs, approvers: [bob] } } });
  await step('the venue rejects (no trader)', venue, onProposal(createdId(other), 'OTCTradeProposal_Reject', { trader: venue }));
  await step('bob accepts his own proposal again', bob, onProposal(createdId(other), 'OTCTradeProposal_Accept', { approver: bob }));
  const both = await step('alice accepts', alice, onProposal(createdId(other), 'OTCTradeProposal_Accept', { approver: alice }));
  const second = await step('the venue initiates', venue, onProposal(createdId(both), 'OTCTradeProposal_InitiateSettlement', { prepareUntil: '9000-01-01T00:00:00Z', settleBefore: '9000-01-02T00:00:00Z' }));
  await step('a sender rejects the request', bob, { ExerciseCommand: { templateId: requestInterface, contractId: createdId(second), choice: 'AllocationRequest_Reject', choiceArgument: { actor: bob, extraArgs: NO_CONTEXT } } });
  const third = await step('propose a third time, approved by both', [alice, bob], { CreateCommand: { templateId: `${APP}:OTCTradeProposal`, createArguments: { venue, tradeCid: null, transferLegs, approvers: [alice, bob] } } });
  const tradeThree = await step('initiate at once', venue, onProposal(createdId(third), 'OTCTradeProposal_InitiateSettlement', { prepareUntil: '9000-01-01T00:00:00Z', settleBefore: '9000-01-02T00:00:00Z' }));
  await step('the venue withdraws the request', venue, { ExerciseCommand: { templateId: requestInterface, contractId: createdId(tradeThree), choice: 'AllocationRequest_Withdraw', choiceArgument: { extraArgs: NO_CONTEXT } } });
  await step('alice rejects the rejected proposal', alice, onProposal(createdId(other), 'OTCTradeProposal_Reject', { trader: alice }));
  return out;
}

describe.runIf(HAS_DARS)('the built-in test trading app and the real DAR of it answer alike (needs ../shared/upstream/daml/dars)', () => {
  const localnet = createHandlers({ localnet: true, log: silentLogger });
  const withDar = HAS_DARS ? createHandlers({ ledgerUrl: DAR_URL, dars: [darBytes(TRADING_APP_DAR)], log: silentLogger }) : localnet;
  const server = setupServer(...localnet.handlers, ...withDar.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('the same events, results and refusals through the OTC flow', async () => {
    const builtIn = await tradeFlow(await new JsonApiClient(localnet.urls.ledger, LOCALNET_USER, await localNetToken()).connect());
    const real = await tradeFlow(await new JsonApiClient(DAR_URL).connect());
    for (let i = 0; i < real.length; i++) expect(builtIn[i], JSON.stringify((real[i] as { what: string }).what)).toEqual(real[i]);
    expect(builtIn).toHaveLength(real.length);
  });
});
