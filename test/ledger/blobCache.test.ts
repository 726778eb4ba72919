import { describe, expect, it } from 'vitest';
import { canonicalArgumentOf, decodeBlob, decodeBlobCached, encodeBlob } from '../../reference-server/src/ledger/blob.js';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { canonicalJson } from '../../reference-server/src/ledger/values.js';
import { createAsset, nextCommandId, refused, submit, world } from './helpers.js';

// The blob caches are memos of pure functions: these pin that a remembered blob answers exactly
// as decoding it again would, and that nothing remembered lets an altered blob through.
describe('createdEventBlob caches', () => {
  function setup() {
    const w = world();
    const [cid] = submit(w.ledger, [w.bank], [createAsset(w.bank, w.alice)]);
    const contract = w.ledger.store.contract(cid as string);
    if (contract === undefined) throw new Error('no contract');
    return { ...w, cid: cid as string, contract, key: w.ledger.config.blobKey };
  }

  it('encodes a committed contract once and decodes to what an uncached decode gives', () => {
    const { contract, key } = setup();
    const blob = encodeBlob(contract, key);
    expect(encodeBlob(contract, key)).toBe(blob);
    const fresh = decodeBlob(blob, key);
    const first = decodeBlobCached(blob, key);
    const again = decodeBlobCached(blob, key);
    expect(first.ok && again.ok && fresh.ok).toBe(true);
    if (!first.ok || !again.ok || !fresh.ok) return;
    expect(first.value).toEqual(fresh.value);
    expect(again.value).toBe(first.value);
    expect(first.canonicalArgument()).toBe(canonicalJson(fresh.value.argument));
    expect(canonicalArgumentOf(contract)).toBe(canonicalJson(contract.argument));
  });

  it('still refuses an altered blob, and a blob under another key, after the original was remembered', () => {
    const { contract, key } = setup();
    const blob = encodeBlob(contract, key);
    expect(decodeBlobCached(blob, key).ok).toBe(true);
    const bytes = Buffer.from(blob, 'base64');
    bytes[10] = (bytes[10] as number) ^ 1;
    const altered = decodeBlobCached(bytes.toString('base64'), key);
    expect(altered).toEqual({ ok: false, reason: 'createdEventBlob failed its integrity check (altered, or issued by another ledger)' });
    expect(decodeBlobCached(blob, new Uint8Array(32)).ok).toBe(false);
    expect(decodeBlobCached('not base64!', key)).toEqual({ ok: false, reason: 'createdEventBlob is not base64' });
  });

  it('a remembered blob of a contract archived since is refused as an unknown contract', () => {
    const { ledger, bank, alice, cid } = setup();
    const blob = ledger.createdEventBlob(cid) as string;
    const describe = { ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid, choice: 'Describe', choiceArgument: {} } };
    // Used once with its blob (remembered), then archived: the same blob no longer finds it.
    submit(ledger, [alice], [describe], { disclosedContracts: [{ contractId: cid, createdEventBlob: blob }] });
    submit(ledger, [bank, alice], [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid, choice: 'Archive', choiceArgument: {} } }]);
    refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [describe], disclosedContracts: [{ contractId: cid, createdEventBlob: blob }] }), 'CONTRACT_NOT_FOUND');
  });
});
