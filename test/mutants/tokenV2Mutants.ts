import type { Mutant } from './mutants.js';
import { deadlinesMovedOn } from './mutantKit.js';
import { jsonResponse, parse, pathOf, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';

/** Mutants of the token standard v2 (tokenRegistryV2.ts): the settlement factory and the v2 allocation factory. */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (req: ProxyRequest, pattern: RegExp) => pattern.test(pathOf(req.url));
const SETTLEMENT = /^\/registry\/allocation\/v2\/settlement-factory$/;
const ALLOCATION_V2 = /^\/registry\/allocation-instruction\/v2\/allocation-factory$/;
const onOk = (pattern: RegExp, f: (v: Json) => unknown) => ({
  response: (req: ProxyRequest, res: ProxyResponse) => {
    const v = parse(res.body);
    return res.status === 200 && at(req, pattern) && isObject(v) ? { ...res, body: JSON.stringify(f(v)) } : res;
  },
});
/** A registry that answers its factory's refusals with a made-up factory instead. */
const acceptsAnything = (pattern: RegExp) => ({
  response: (req: ProxyRequest, res: ProxyResponse) =>
    res.status === 400 && at(req, pattern) ? jsonResponse(200, { factoryId: `00${'5e'.repeat(32)}`, choiceContext: { choiceContextData: { values: {} }, disclosedContracts: [] } }) : res,
});

/**
 * A ledger that does not hold v2 allocations to their deadline: AllocationFactory_Allocate whose
 * allocation's settlementDeadline has passed runs as if it had an hour left (the deadline moved
 * on in the submitted command before the ledger runs it). Splice refuses it: splice-amulet 0.1.22
 * asserts "Allocation.settlementDeadline", splice-test-token-v2 "allocation.settlementDeadline".
 */
const settlementDeadlineIgnored = deadlinesMovedOn('settlementDeadline');

export const TOKEN_V2_MUTANTS: readonly Mutant[] = [
  {
    name: 'settlement-factory-context-varies',
    description: 'the settlement factory puts a per-request nonce into its choice context, so the same request gets another context each time',
    caughtBy: 'registry.settlement-factory.context',
    fault: onOk(SETTLEMENT, (v) => {
      const c = isObject(v.choiceContext) ? v.choiceContext : {};
      const data = isObject(c.choiceContextData) ? c.choiceContextData : {};
      const values = { ...(isObject(data.values) ? data.values : {}), nonce: { tag: 'AV_Text', value: String(Math.random()) } };
      return { ...v, choiceContext: { ...c, choiceContextData: { ...data, values } } };
    }),
  },
  {
    name: 'settlement-factory-accepts-malformed',
    description: 'the settlement factory answers malformed SettleBatch arguments (no legs, bad ids and amounts) with a factory instead of 400',
    caughtBy: 'registry.settlement-factory.bad-input-400',
    fault: acceptsAnything(SETTLEMENT),
  },
  {
    name: 'allocation-factory-v2-accepts-malformed',
    description: 'the v2 allocation factory answers malformed allocation specifications with a made-up factory (200, an id it never answers for valid arguments) instead of 400 or its own factory',
    caughtBy: 'registry.allocation-factory.bad-input-400-v2',
    fault: acceptsAnything(ALLOCATION_V2),
  },
  {
    name: 'settlement-context-without-rules',
    description: 'the settlement factory leaves the AmuletRules out of its context (a valid-looking context with which SettleBatch fails on the ledger)',
    caughtBy: 'registry.cross-group.settlement-context-lets-settle-batch-succeed',
    fault: onOk(SETTLEMENT, (v) => {
      const c = isObject(v.choiceContext) ? v.choiceContext : {};
      const data = isObject(c.choiceContextData) ? c.choiceContextData : {};
      const values = { ...(isObject(data.values) ? data.values : {}) };
      delete values['amulet-rules'];
      return { ...v, choiceContext: { ...c, choiceContextData: { ...data, values } } };
    }),
  },
  {
    name: 'allocation-factory-v2-deadline-ignored',
    description: "the ledger runs the v2 AllocationFactory_Allocate past the allocation's settlementDeadline (the deadline not enforced): a venue's settlement is allocated after the time its parties agreed",
    caughtBy: 'registry.factories.ids-work-on-ledger',
    fault: settlementDeadlineIgnored,
  },
];
