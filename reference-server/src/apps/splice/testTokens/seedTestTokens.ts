/**
 * The test tokens' part of the default world on Splice's DARs: for each of splice-test-token-v1
 * and -v2 that is loaded, an admin party (`test-token-v1`, `test-token-v2`), its TokenRules (the
 * registry's factory), alice's 1000 and bob's 500 of its instrument (`TestTokenV1`,
 * `TestTokenV2`), minted as Splice's test environment mints them (owner and admin sign the
 * Token), alice's pending 25 to carol made with the real TransferFactory_Transfer and bob's
 * allocation of 20 to alice for trading-venue with the real AllocationFactory_Allocate, each
 * through the context the registry serves, so the instruction and allocation contexts have a
 * contract to answer for.
 */
import type { Command, DamlRecord, Ledger, LedgerError, Result } from '../../../ledger/index.js';
import { fail, localPartyId, ok, PARTICIPANT_ADMIN_USER } from '../../../ledger/index.js';
import type { CreatedEvent, DisclosedContract } from '../../../ledger/wire.js';
import { ALLOCATION_FACTORY_V1_INTERFACE, TRANSFER_FACTORY_V1_INTERFACE } from '../../tokenStandard/ids.js';
import { TEST_TOKEN_KINDS, templateVersions, type TestTokenFlavour } from './testTokenKinds.js';
import { testTokenRegistryOf } from './TestTokenRegistry.js';

/** One seeded test token: its admin (the registry's path segment is its hint), instrument and contracts. */
export interface SeededTestToken {
  readonly packageName: string;
  readonly admin: string;
  readonly instrumentId: string;
  readonly rules: string;
  readonly holdings: { readonly alice: string; readonly bob: string };
  readonly transferToCarol: string;
  /** bob's allocation of 20 to alice for trading-venue's trade `otc-test-token`. */
  readonly bobsAllocation: string;
}
export type TestTokenWorld = Partial<Record<TestTokenFlavour, SeededTestToken>>;

const EMPTY_META = { values: {} };
const INSTRUMENT: Record<TestTokenFlavour, string> = { v1: 'TestTokenV1', v2: 'TestTokenV2' };
/** How long the seeded transfer may wait for carol: long, as the world is seeded at a fixed past time. */
const TRANSFER_LIFETIME_MS = 365 * 24 * 3_600_000;

/** Seeds every loaded test token for alice, bob and carol (the world's parties); `firstStep` continues the world's command ids. */
export function seedTestTokens(ledger: Ledger, parties: { readonly alice: string; readonly bob: string; readonly carol: string; readonly 'trading-venue': string }, firstStep: number): Result<TestTokenWorld, LedgerError> {
  let step = firstStep;
  const submit = (actAs: readonly string[], commands: Command[], disclosedContracts: readonly DisclosedContract[] = []): Result<CreatedEvent[], LedgerError> => {
    const r = ledger.submitAndWaitForTransaction({
      commands: { userId: PARTICIPANT_ADMIN_USER, commandId: `test-token-world-${++step}`, actAs: [...actAs], commands, disclosedContracts: [...disclosedContracts] },
      transactionFormat: {
        eventFormat: { filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] }, verbose: false },
        transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
      },
    });
    if (!r.ok) return r;
    return ok(r.value.transaction.events.flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent] : [])));
  };
  const world: TestTokenWorld = {};
  const { alice, bob, carol, 'trading-venue': venue } = parties;
  for (const kind of TEST_TOKEN_KINDS) {
    if (templateVersions(ledger, kind.packageName, kind.rules).length === 0) continue;
    const hint = `test-token-${kind.flavour}`;
    const admin = localPartyId(hint, ledger.config.participantId);
    if (!ledger.isKnownParty(admin)) {
      const allocated = ledger.allocateParty({ partyIdHint: hint });
      if (!allocated.ok) return allocated;
    }
    const instrumentId = { admin, id: INSTRUMENT[kind.flavour] };
    const rulesTx = submit([admin], [{ CreateCommand: { templateId: `#${kind.packageName}:${kind.rules}`, createArguments: { admin } } }]);
    if (!rulesTx.ok) return rulesTx;
    const rules = rulesTx.value[0]!.contractId;
    // v2 holdings are of the owner's basic account (no provider, no account id): the account a
    // v1 wallet's party stands for, so v1 and v2 wallets spend the same holdings.
    const holding = (owner: string, amount: string): DamlRecord =>
      kind.flavour === 'v1'
        ? { owner, instrumentId, amount, lock: null, meta: EMPTY_META }
        : { account: { owner, provider: null, id: '' }, instrumentId, amount, lock: null, meta: EMPTY_META };
    const minted: string[] = [];
    for (const [owner, amount] of [[alice, '1000.0'], [bob, '500.0'], [alice, '100.0'], [bob, '50.0']] as const) {
      const tx = submit([owner, admin], [{ CreateCommand: { templateId: `#${kind.packageName}:${kind.token}`, createArguments: { holding: holding(owner, amount) } } }]);
      if (!tx.ok) return tx;
      minted.push(tx.value[0]!.contractId);
    }
    // alice offers carol 25 out of her 100, as her wallet would: the factory and context from the registry.
    const now = ledger.config.clock.now();
    const transfer = {
      sender: alice, receiver: carol, amount: '25.0', instrumentId,
      requestedAt: new Date(now).toISOString(), executeBefore: new Date(now + TRANSFER_LIFETIME_MS).toISOString(), inputHoldingCids: [minted[2]!], meta: EMPTY_META,
    };
    const factory = testTokenRegistryOf(ledger).transferFactory(admin, 'v1', { choiceArguments: { expectedAdmin: admin, transfer, extraArgs: { context: { values: {} }, meta: EMPTY_META } } });
    if (!factory.ok) return factory;
    const context = factory.value.choiceContext;
    const offered = submit([alice], [{ ExerciseCommand: { templateId: TRANSFER_FACTORY_V1_INTERFACE, contractId: factory.value.factoryId, choice: 'TransferFactory_Transfer', choiceArgument: { expectedAdmin: admin, transfer, extraArgs: { context: context.choiceContextData as unknown as DamlRecord, meta: EMPTY_META } } } }], context.disclosedContracts);
    if (!offered.ok) return offered;
    const offer = offered.value.find((e) => kind.transferInstructions.some((q) => e.templateId.endsWith(`:${q}`)));
    if (offer === undefined) return fail('CONTRACT_NOT_FOUND', `the seeded ${kind.packageName} transfer to carol created no TokenTransferOffer`);
    // bob allocates 20 of his 50 to alice for trading-venue's trade 'otc-test-token' (leg-0), through the registry's allocation factory.
    const allocation = {
      settlement: { executor: venue, settlementRef: { id: 'otc-test-token', cid: null }, requestedAt: transfer.requestedAt, allocateBefore: transfer.executeBefore, settleBefore: transfer.executeBefore, meta: EMPTY_META },
      transferLegId: 'leg-0',
      transferLeg: { sender: bob, receiver: alice, amount: '20.0', instrumentId, meta: EMPTY_META },
    };
    const allocateArgs = { expectedAdmin: admin, allocation, requestedAt: transfer.requestedAt, inputHoldingCids: [minted[3]!] };
    const allocationFactory = testTokenRegistryOf(ledger).allocationFactory(admin, 'v1', { choiceArguments: { ...allocateArgs, extraArgs: { context: { values: {} }, meta: EMPTY_META } } });
    if (!allocationFactory.ok) return allocationFactory;
    const ac = allocationFactory.value.choiceContext;
    const allocated = submit([bob], [{ ExerciseCommand: { templateId: ALLOCATION_FACTORY_V1_INTERFACE, contractId: allocationFactory.value.factoryId, choice: 'AllocationFactory_Allocate', choiceArgument: { ...allocateArgs, extraArgs: { context: ac.choiceContextData as unknown as DamlRecord, meta: EMPTY_META } } } }], ac.disclosedContracts);
    if (!allocated.ok) return allocated;
    const bobsAllocation = allocated.value.find((e) => kind.allocations.some((q) => e.templateId.endsWith(`:${q}`)));
    if (bobsAllocation === undefined) return fail('CONTRACT_NOT_FOUND', `the seeded ${kind.packageName} allocation created no allocation`);
    world[kind.flavour] = { packageName: kind.packageName, admin, instrumentId: instrumentId.id, rules, holdings: { alice: minted[0]!, bob: minted[1]! }, transferToCarol: offer.contractId, bobsAllocation: bobsAllocation.contractId };
  }
  return ok(world);
}
