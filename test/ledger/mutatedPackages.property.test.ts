import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeArchive } from '../../daml-engine/encode/encodeArchive.js';
import { encodeDar } from '../../daml-engine/encode/encodeDar.js';
import { createLedger, type Ledger } from '../../reference-server/src/ledger/index.js';
import { buildSamplePackage } from '../../reference-server/src/ledger/templates/samplePackage.js';
import { oneByteVarints } from '../support/oneByteVarints.js';

/**
 * Uploaded Daml is untrusted: a package whose Daml-LF bytes were corrupted, and whose hash was
 * then made to match again (so the archive check passes and the bytes reach the decoder and the
 * type checker), is refused with an upload error or accepted as the Daml it now says; its
 * templates then create, exercise and archive or refuse. Nothing throws, nothing answers an
 * internal error (the engine meeting a value of the wrong kind: what the checker must refuse at
 * upload, as Daml's does), and the ledger serves the next client as before. It found three gaps
 * in the checker: builtins without types (GENMAP_VALUES run on a Numeric), comparisons not
 * instantiated at their type (LESS of a Numeric and a Party), non-exhaustive cases.
 * FUZZ_RUNS and FUZZ_SEED run it longer, FUZZ_PACKAGE=full on the sample with its keyed Account
 * (12,000 runs over four seeds, and 6,000 of the full one, passed).
 */
const UPLOAD_CODES = new Set(['INVALID_DAR', 'DAR_PARSE_ERROR', 'DAR_VALIDATION_ERROR', 'DAR_NOT_SELF_CONSISTENT', 'KNOWN_PACKAGE_VERSION', 'INVALID_ARGUMENT']);

const original = buildSamplePackage({ name: 'cc-fuzzed', account: false });

/** The payload with each mutation applied: the one-byte varint at a position (taken modulo their number) set to another value. */
type Mutation = { readonly at: number; readonly value: number };
function mutate(payload: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  const varints = oneByteVarints(payload) ?? [];
  const bytes = Uint8Array.from(payload);
  for (const m of mutations) bytes[varints[m.at % varints.length]!] = m.value;
  return bytes;
}

const mutation = fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 127 }) });

function party(ledger: Ledger, hint: string): string {
  const r = ledger.allocateParty({ partyIdHint: hint });
  if (!r.ok) throw new Error(r.error.cause);
  return r.value.partyDetails.party;
}

describe('packages whose Daml-LF bytes were corrupted (hash made to match again)', () => {
  it('are refused with an upload error or run as the Daml they say; the ledger serves the next client as before', () => {
    expect(oneByteVarints(original.payload)?.length).toBeGreaterThan(200);
    const ledger = createLedger();
    const sync = ledger.config.synchronizers[0].id;
    const owner = party(ledger, 'fuzz-owner');
    let accepted = 0;
    let refused = 0;
    let serial = 0;
    const codes = new Map<string, number>();
    const outcomes = new Map<string, number>();
    const note = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 2 }), (mutations) => {
        // A name of its own each time: a corruption that leaves sound Daml is not refused as a second cc-fuzzed 1.0.0.
        const payload = mutate(buildSamplePackage({ name: `cc-fuzzed-${serial + 1}`, account: process.env.FUZZ_PACKAGE === 'full' }).payload, mutations);
        const archive = encodeArchive(payload);
        const dar = encodeDar({ name: `cc-fuzzed-${++serial}`, main: archive.dalf });
        const up = ledger.uploadDar(dar, { synchronizerId: sync });
        if (!up.ok) {
          refused++;
          codes.set(up.error.code, (codes.get(up.error.code) ?? 0) + 1);
          expect(UPLOAD_CODES.has(up.error.code), `${up.error.code}: ${up.error.cause}`).toBe(true);
          return;
        }
        accepted++;
        // Accepted: its Asset (if the corruption left one) creates or refuses, and its Archive too.
        const created = ledger.submitAndWaitForTransaction({
          commands: { userId: 'fuzz', commandId: `fuzz-${serial}`, actAs: [owner], commands: [{ CreateCommand: { templateId: `${archive.id}:Sample.Asset:Asset`, createArguments: { issuer: owner, owner, amount: '1.0', observers: null } } }] },
        });
        if (!created.ok) {
          note(`create ${created.error.code}`);
          expect(created.error.code, created.error.cause).not.toMatch(/INTERNAL/);
          return;
        }
        const event = created.value.transaction.events[0];
        const cid = event && 'CreatedEvent' in event ? event.CreatedEvent.contractId : undefined;
        if (cid === undefined) return;
        // Its choices run the corrupted code too: Split (creates two), the interface's Holding_Owner (its view), then Archive.
        for (const [choice, choiceArgument, templateId] of [
          ['Holding_Owner', {}, `${archive.id}:Sample.Holding:Holding`],
          ['Split', { splitAmount: '0.5' }, `${archive.id}:Sample.Asset:Asset`],
        ] as const) {
          const r = ledger.submitAndWait({ commands: [{ ExerciseCommand: { templateId, contractId: cid, choice, choiceArgument } }], userId: 'fuzz', commandId: `fuzz-${choice}-${serial}`, actAs: [owner] });
          note(r.ok ? choice : `${choice} ${r.error.code}`);
          if (!r.ok) expect(r.error.code, r.error.cause).not.toMatch(/INTERNAL/);
        }
        const archived = ledger.submitAndWait({ commands: [{ ExerciseCommand: { templateId: `${archive.id}:Sample.Asset:Asset`, contractId: cid, choice: 'Archive', choiceArgument: {} } }], userId: 'fuzz', commandId: `fuzz-archive-${serial}`, actAs: [owner] });
        note(archived.ok ? 'archived' : `archive ${archived.error.code}`);
        if (!archived.ok) expect(archived.error.code, archived.error.cause).not.toMatch(/INTERNAL/);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300), seed: Number(process.env.FUZZ_SEED ?? 20261201) },
    );
    // Every outcome was reached: the decoder's refusals, the checker's, and accepted code that ran.
    expect(codes.get('DAR_PARSE_ERROR') ?? 0).toBeGreaterThan(0);
    expect(codes.get('DAR_VALIDATION_ERROR') ?? 0).toBeGreaterThan(0);
    expect(outcomes.get('Split') ?? 0).toBeGreaterThan(0);
    expect(accepted + refused).toBe(Number(process.env.FUZZ_RUNS ?? 300));
    // The next client: a sound package (under a name the accepted corruptions did not take) uploads and runs.
    const next = buildSamplePackage({ name: 'cc-after-fuzzing', account: false });
    const up = ledger.uploadDar(next.dar(), { synchronizerId: sync });
    expect(up.ok, up.ok ? '' : up.error.cause).toBe(true);
    const created = ledger.submitAndWaitForTransaction({
      commands: { userId: 'fuzz', commandId: 'after', actAs: [owner], commands: [{ CreateCommand: { templateId: `${next.id}:Sample.Asset:Asset`, createArguments: { issuer: owner, owner, amount: '1.0', observers: null } } }] },
    });
    expect(created.ok, created.ok ? '' : created.error.cause).toBe(true);
  }, 120_000);
});
