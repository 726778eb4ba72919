import { PreparedTransaction } from '@canton-network/core-ledger-proto';
import { describe, expect, it } from 'vitest';
import { interactiveSubmissionOf } from '../../reference-server/src/ledger/interactive/index.js';
import { ManualClock } from '../../reference-server/src/ledger/index.js';
import { buildSamplePackage } from '../daml/samplePackage.js';
import { executeRequestOf, freshId } from '../interactive/support/externalParties.js';
import { newKey } from '../interactive/support/keys.js';
import { must } from '../ledger/helpers.js';
import { restartableLedgers } from './support/restartableLedgers.js';

/**
 * The seeds of an interactive transaction are keyed by the participant's persisted secret: a
 * transaction prepared before a restart from --data-dir executes after it, with the contract ids
 * it was prepared with, on an uploaded template (the engine) and on a built-in one alike.
 */
const { newDataDir, ledgerOn, stopAll } = restartableLedgers();

// A package the test builds (test/daml/samplePackage.ts): no upstream file needed.
const SAMPLE = buildSamplePackage('conformance-sample-interactive');

const CASES = [
  {
    name: 'an uploaded template',
    templateId: '#conformance-sample-interactive:Sample.Asset:Asset',
    argument: (p: string) => ({ owner: p, issuer: p, description: 'held', quantity: '3' }),
    shown: (p: string) => ({ issuer: p, owner: p, description: 'held', quantity: '3' }),
  },
  {
    name: 'a built-in template',
    templateId: '#canton-conformance-samples:Sample.Asset:Asset',
    argument: (p: string) => ({ issuer: p, owner: p, amount: '3.0', observers: null }),
    shown: (p: string) => ({ issuer: p, owner: p, amount: '3.0000000000', observers: null }),
  },
];

describe.each(CASES)('interactive submission of $name across a restart', ({ templateId, argument, shown }) => {
  it('prepared before the restart, executed after it: the contract ids it was prepared with', () => {
    const dir = newDataDir('cc-engine-interactive-');
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const first = ledgerOn(dir, clock);
    must(first.uploadDar(SAMPLE.dar(), { synchronizerId: first.config.synchronizers[0]!.id }));
    const key = newKey('ed25519');
    const ext = must(first.allocateExternalParty('ext', key.publicKey)).party;
    must(first.createUser({ user: { id: 'wallet', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanActAs: { value: { party: ext } } } }] }));
    const p = must(
      interactiveSubmissionOf(first).prepare({
        userId: 'wallet', commandId: freshId('prep'), actAs: [ext], readAs: [], disclosedContracts: [], packageIdSelectionPreference: [], verboseHashing: false,
        commands: [{ CreateCommand: { templateId, createArguments: argument(ext) } }],
      } as never),
    );
    const node = PreparedTransaction.fromBinary(Buffer.from(p.preparedTransaction, 'base64')).transaction!.nodes[0]!.versionedNode;
    const preparedId = node.oneofKind === 'v1' && node.v1.nodeType.oneofKind === 'create' ? node.v1.nodeType.create.contractId : '';
    expect(preparedId).toMatch(/^00[0-9a-f]{64}/);
    stopAll();

    clock.advance(60_000);
    const second = ledgerOn(dir, clock);
    const executed = must(
      interactiveSubmissionOf(second).executeAndWaitForTransaction(executeRequestOf(key, ext, p)),
    );
    expect(executed.transaction.events).toEqual([{ CreatedEvent: expect.objectContaining({ contractId: preparedId, createArgument: shown(ext) }) }]);
  });
});
