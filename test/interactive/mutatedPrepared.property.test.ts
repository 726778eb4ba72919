import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interactiveSubmissionOf } from '../../reference-server/src/ledger/interactive/index.js';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { must } from '../ledger/helpers.js';
import { createAssetCommand, executeRequestOf, freshId } from './support/externalParties.js';
import { newKey } from './support/keys.js';

/**
 * A prepared transaction comes back from the client, and the client may have changed it: an
 * external party edits one or two of its bytes (most land inside a string: a party, an amount, a
 * template or contract id, a version), hashes them with Canton's own tooling
 * (`hashPreparedTransaction`) and signs that hash. The participant decodes it, re-interprets its
 * commands and commits only what the engine builds. Whatever was edited, the execution is refused
 * with a clear error or commits; it never throws, never answers an internal error, and the party
 * can submit again afterwards.
 */
describe('prepared transactions edited and signed again by the party', () => {
  it('are refused with a clear error or committed, never an internal error; the party submits again afterwards', async () => {
    const ledger = createLedger();
    const service = interactiveSubmissionOf(ledger);
    const key = newKey('ed25519');
    const ext = must(ledger.allocateExternalParty('ext', key.publicKey)).party;
    must(ledger.createUser({ user: { id: 'wallet', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanActAs: { value: { party: ext } } } }] }));
    const prepare = () => must(service.prepare({ userId: 'wallet', commandId: freshId('prep'), commands: [createAssetCommand(ext, ext)], actAs: [ext], readAs: [], disclosedContracts: [], packageIdSelectionPreference: [], verboseHashing: false } as never));
    const format = { eventFormat: { filtersByParty: { [ext]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' };
    const execute = (p: { preparedTransaction: string; preparedTransactionHash: string }) => service.executeAndWaitForTransaction({ ...(executeRequestOf(key, ext, p) as object), transactionFormat: format } as never);
    /** The created contract of a committed transaction, its id aside (each commit mints its own). */
    const created = (v: { transaction: { events: readonly unknown[] } }) => {
      const e = v.transaction.events[0] as { CreatedEvent?: { templateId: string; createArgument: unknown; signatories: unknown; observers: unknown } };
      return e.CreatedEvent === undefined ? undefined : { templateId: e.CreatedEvent.templateId, createArgument: e.CreatedEvent.createArgument, signatories: e.CreatedEvent.signatories, observers: e.CreatedEvent.observers };
    };
    const first = execute(prepare());
    expect(first.ok).toBe(true);
    const expected = first.ok ? created(first.value) : undefined;
    const outcomes = new Map<string, number>();
    const note = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);

    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 2 }), async (mutations) => {
        const bytes = Uint8Array.from(Buffer.from(prepare().preparedTransaction, 'base64'));
        // Any byte: inside a string (a party, an amount, a template, a contract id) the message stays
        // well-formed and says something else; on a tag or a length Canton's tooling cannot hash it.
        for (const m of mutations) bytes[m.at % bytes.length] = m.value;
        const preparedTransaction = Buffer.from(bytes).toString('base64');
        let preparedTransactionHash: string;
        try {
          preparedTransactionHash = await hashPreparedTransaction(preparedTransaction, 'base64');
        } catch {
          // Canton's tooling cannot hash it either: the party has nothing to sign.
          note('unhashable');
          return;
        }
        const r = execute({ preparedTransaction, preparedTransactionHash });
        note(r.ok ? 'committed' : r.error.code);
        if (!r.ok) expect(r.error.code, r.error.cause).not.toMatch(/INTERNAL/);
        // What commits is what the engine builds from the commands: an edit that commits changed
        // nothing the transaction says (its command id, a byte rewritten with itself).
        else expect(created(r.value)).toEqual(expected);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200), seed: Number(process.env.FUZZ_SEED ?? 20261201) },
    );
    // The edits reached the participant's own judgement, not only the hashing tool's.
    expect([...outcomes.keys()].filter((k) => k !== 'unhashable' && k !== 'committed').length).toBeGreaterThan(0);
    // The party submits again: an unedited transaction commits.
    expect(execute(prepare()).ok).toBe(true);
  }, 120_000);
});
