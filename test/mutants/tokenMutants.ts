import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';

/** Mutants of the token-standard registry and of Scan's wallet reads: one per check of tokenRegistry.ts and scanWallet.ts. */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const withJson = (res: ProxyResponse, f: (v: unknown) => unknown): ProxyResponse => {
  const v = parse(res.body);
  return v === undefined ? res : { ...res, body: JSON.stringify(f(v)) };
};
const at = (req: ProxyRequest, pattern: RegExp) => pattern.test(pathOf(req.url));
const ok200 = (req: ProxyRequest, res: ProxyResponse, pattern: RegExp) => res.status === 200 && at(req, pattern);
const onBody = (pattern: RegExp, f: (v: Json, req: ProxyRequest) => unknown) => ({
  response: (req: ProxyRequest, res: ProxyResponse) => (ok200(req, res, pattern) ? withJson(res, (v) => (isObject(v) ? f(v, req) : v)) : res),
});
const emptyContext = { choiceContextData: { values: {} }, disclosedContracts: [] };

export const TOKEN_MUTANTS: readonly Mutant[] = [
  {
    name: 'instrument-account-fields-repeated',
    description: 'GET instruments/{id} collects accountInputFieldsToShow per account configuration without deduplicating: accountId twice',
    caughtBy: 'registry.metadata.account-input-fields',
    fault: onBody(/^\/registry\/metadata\/v1\/instruments\/[^/]+$/, (v) => ({ ...v, accountInputFieldsToShow: ['accountId', 'accountId'] })),
  },
  {
    name: 'registry-admin-not-a-party',
    description: 'registry info names the admin by its hint only (dso), not as a party id',
    caughtBy: 'registry.metadata.info',
    fault: onBody(/^\/registry\/metadata\/v1\/info$/, (v) => ({ ...v, adminId: 'dso' })),
  },
  {
    name: 'instrument-lookup-ignores-id',
    description: 'GET instruments/{id} answers the first instrument whatever the id',
    caughtBy: 'registry.metadata.instrument-lookup',
    fault: {
      async request(req, upstream) {
        if (req.method !== 'GET' || !at(req, /^\/registry\/metadata\/v1\/instruments\/[^/]+$/)) return req;
        return upstream.send({ ...req, url: '/registry/metadata/v1/instruments/Amulet' });
      },
    },
  },
  {
    name: 'transfer-factory-v1-keeps-debug-fields',
    description: 'the v1 transfer factory ignores excludeDebugFields and sends debug fields with its disclosed contracts',
    caughtBy: 'registry.transfer-factory.context-v1',
    fault: onBody(/^\/registry\/transfer-instruction\/v1\/transfer-factory$/, (v) => {
      const c = isObject(v.choiceContext) ? v.choiceContext : {};
      const disclosed = Array.isArray(c.disclosedContracts) ? c.disclosedContracts.map((d) => (isObject(d) ? { ...d, debugPackageName: 'splice-amulet' } : d)) : [];
      return { ...v, choiceContext: { ...c, disclosedContracts: disclosed } };
    }),
  },
  {
    name: 'transfer-factory-v2-no-transfer-kind',
    description: 'the v2 transfer factory leaves out the transfer kind',
    caughtBy: 'registry.transfer-factory.context-v2',
    fault: onBody(/^\/registry\/transfer-instruction\/v2\/transfer-factory$/, (v) => ({ ...v, transferKind: undefined })),
  },
  {
    name: 'transfer-factory-crashes-on-unreadable-amount',
    description: 'the transfer factory fails with 500 on an amount it cannot read (NaN, an exponent) instead of refusing it with 400 or leaving it to the Daml choice',
    caughtBy: 'registry.transfer-factory.bad-input-400',
    fault: {
      request(req) {
        const body = parse(req.body);
        if (req.method !== 'POST' || !at(req, /\/transfer-factory$/) || !isObject(body) || !isObject(body.choiceArguments) || !isObject(body.choiceArguments.transfer)) return req;
        const amount = body.choiceArguments.transfer.amount;
        return typeof amount === 'string' && /^(NaN|.*e.*)$/.test(amount) ? jsonResponse(500, { error: 'java.lang.NumberFormatException' }) : req;
      },
    },
  },
  {
    name: 'transfer-instruction-v1-context-nonce',
    description: 'v1 transfer-instruction contexts carry a fresh nonce, so no two answers are equal',
    caughtBy: 'registry.transfer-instruction.contexts-v1',
    fault: onBody(/^\/registry\/transfer-instruction\/v1\/[^/]+\/choice-contexts\//, (v) => {
      const data = isObject(v.choiceContextData) ? v.choiceContextData : {};
      const values = isObject(data.values) ? data.values : {};
      return { ...v, choiceContextData: { ...data, values: { ...values, nonce: { tag: 'AV_Text', value: Math.random().toString(36) } } } };
    }),
  },
  {
    name: 'transfer-instruction-v2-no-reject',
    description: 'the v2 reject context is not served (404)',
    caughtBy: 'registry.transfer-instruction.contexts-v2',
    fault: { request: (req) => (at(req, /^\/registry\/transfer-instruction\/v2\/[^/]+\/choice-contexts\/reject$/) ? jsonResponse(404, { error: 'not found' }) : req) },
  },
  {
    name: 'transfer-instruction-unknown-200',
    description: 'the accept context of an unknown transfer instruction is an empty 200 instead of 404',
    caughtBy: 'registry.transfer-instruction.unknown-id-404',
    fault: { response: (req, res) => (res.status === 404 && at(req, /^\/registry\/transfer-instruction\/v1\/[^/]+\/choice-contexts\/accept$/) ? jsonResponse(200, emptyContext) : res) },
  },
  {
    name: 'allocation-v1-context-without-blob',
    description: 'v1 allocation contexts disclose contracts without their createdEventBlob',
    caughtBy: 'registry.allocation.contexts-v1',
    fault: onBody(/^\/registry\/allocations\/v1\//, (v) => ({
      ...v,
      disclosedContracts: Array.isArray(v.disclosedContracts) ? v.disclosedContracts.map((d) => (isObject(d) ? { ...d, createdEventBlob: '' } : d)) : v.disclosedContracts,
    })),
  },
  {
    name: 'allocation-v2-404-as-text',
    description: 'v2 allocation contexts answer an unknown allocation with a plain-text 404',
    caughtBy: 'registry.allocation.contexts-v2',
    fault: { response: (req, res) => (res.status === 404 && at(req, /^\/registry\/allocations\/v2\//) ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' } : res) },
  },
  {
    name: 'allocation-factory-v1-no-context-data',
    description: 'the v1 allocation factory answers a context without choiceContextData',
    caughtBy: 'registry.allocation-factory.context-v1',
    fault: onBody(/^\/registry\/allocation-instruction\/v1\/allocation-factory$/, (v) => ({ ...v, choiceContext: { ...(isObject(v.choiceContext) ? v.choiceContext : {}), choiceContextData: undefined } })),
  },
  {
    name: 'allocation-factory-v2-empty-factory-id',
    description: 'the v2 allocation factory answers an empty factoryId',
    caughtBy: 'registry.allocation-factory.context-v2',
    fault: onBody(/^\/registry\/allocation-instruction\/v2\/allocation-factory$/, (v) => ({ ...v, factoryId: '' })),
  },
  {
    name: 'accept-context-without-open-round',
    description: 'the accept context leaves out the open round the choice fetches (a valid-looking context that does not work on the ledger)',
    caughtBy: 'registry.cross-group.transfer-context-lets-accept-succeed',
    fault: onBody(/^\/registry\/transfer-instruction\/v1\/[^/]+\/choice-contexts\/accept$/, (v) => {
      const data = isObject(v.choiceContextData) ? v.choiceContextData : {};
      const values = { ...(isObject(data.values) ? data.values : {}) };
      delete values['open-round'];
      return { ...v, choiceContextData: { ...data, values } };
    }),
  },
  {
    name: 'tap-result-without-tx-kind',
    description: 'the DevNet tap\'s result leaves out its meta (no tx-kind mint): wallets see an unlabelled create',
    caughtBy: 'registry.amulet.tap-reports-mint',
    fault: onBody(/^\/v2\/commands\/submit-and-wait-for-transaction$/, (v) => {
      const tx = isObject(v.transaction) ? v.transaction : {};
      const events = Array.isArray(tx.events) ? tx.events : [];
      const strip = (e: unknown) => {
        if (!isObject(e) || !isObject(e.ExercisedEvent) || e.ExercisedEvent.choice !== 'AmuletRules_DevNet_Tap' || !isObject(e.ExercisedEvent.exerciseResult)) return e;
        const { meta: _meta, ...rest } = e.ExercisedEvent.exerciseResult;
        return { ...e, ExercisedEvent: { ...e.ExercisedEvent, exerciseResult: rest } };
      };
      return { ...v, transaction: { ...tx, events: events.map(strip) } };
    }),
  },
  {
    name: 'dso-info-wrong-party',
    description: 'GET /v0/dso names the participant admin party as the DSO',
    caughtBy: 'scan.dso.consistent',
    fault: onBody(/^\/v0\/dso$/, (v) => ({ ...v, dso_party_id: `sv1::1220${'0'.repeat(64)}` })),
  },
  {
    name: 'amulet-rules-ignores-cache',
    description: 'POST /v0/amulet-rules always sends the contract, even when the caller holds the current one',
    caughtBy: 'scan.amulet-rules.cached-id',
    fault: { request: (req) => (req.method === 'POST' && at(req, /^\/v0\/amulet-rules$/) ? { ...req, body: '{}' } : req) },
  },
  {
    name: 'rounds-never-advance',
    description: 'Scan keeps reporting the rounds it first ingested: none is open now',
    caughtBy: 'scan.rounds.open-round-now',
    fault: onBody(/^\/v0\/open-and-issuing-mining-rounds$/, (v) => {
      const open = isObject(v.open_mining_rounds) ? v.open_mining_rounds : {};
      const stale = Object.fromEntries(
        Object.entries(open).filter(([, r]) => isObject(r) && isObject(r.contract) && isObject(r.contract.payload) && String(r.contract.payload.opensAt).startsWith('2025-')),
      );
      return { ...v, open_mining_rounds: stale };
    }),
  },
  {
    name: 'featured-apps-accepts-any-party',
    description: 'GET /v0/featured-apps/{party} answers 200 {} for a malformed party',
    caughtBy: 'scan.featured-apps.party-checked',
    fault: { response: (req, res) => (res.status === 400 && at(req, /^\/v0\/featured-apps\//) ? jsonResponse(200, {}) : res) },
  },
  {
    name: 'scan-proxy-stale-rules',
    description: "the scan proxy serves a stale AmuletRules contract",
    caughtBy: 'scan.proxy.same-as-scan',
    fault: onBody(/^\/v0\/scan-proxy\/amulet-rules$/, (v) => {
      const r = isObject(v.amulet_rules) ? v.amulet_rules : {};
      const c = isObject(r.contract) ? r.contract : {};
      return { ...v, amulet_rules: { ...r, contract: { ...c, contract_id: `00${'cd'.repeat(32)}` } } };
    }),
  },
];
