import { describe, expect, it } from 'vitest';
import { must, refused, world } from './helpers.js';

const KB = 1024;
/** One annotation whose key and value together take `bytes` bytes. */
const sized = (key: string, bytes: number) => ({ [key]: 'v'.repeat(bytes - key.length) });
const mask = (...paths: string[]) => ({ paths, unknownFields: { fields: {} } });

describe('annotations are limited to 256 KB per resource, as on the participant', () => {
  it('accepts exactly the limit and refuses one byte more when a user is created', () => {
    const { ledger } = world();
    must(ledger.createUser({ user: { id: 'at-limit', isDeactivated: false, metadata: { resourceVersion: '', annotations: sized('a', 256 * KB) } }, rights: [] }));
    const error = refused(ledger.createUser({ user: { id: 'over', isDeactivated: false, metadata: { resourceVersion: '', annotations: sized('a', 256 * KB + 1) } }, rights: [] }), 'INVALID_ARGUMENT');
    expect(error.cause).toBe("The submitted request has invalid arguments: annotations from field 'user.metadata.annotations' are larger than the limit of 256kb");
    expect(refused(ledger.getUser('over'), 'USER_NOT_FOUND')).toBeDefined();
  });

  it('counts keys and values in UTF-8 bytes', () => {
    const { ledger } = world();
    // 'é' is two bytes: 128 Ki of them is 256 KB of value, plus the key's byte.
    refused(ledger.createUser({ user: { id: 'wide', isDeactivated: false, metadata: { resourceVersion: '', annotations: { a: 'é'.repeat(128 * KB) } } }, rights: [] }), 'INVALID_ARGUMENT');
  });

  it('refuses an update whose merged annotations pass the limit, and keeps the old ones', () => {
    const { ledger } = world();
    must(ledger.createUser({ user: { id: 'grows', isDeactivated: false, metadata: { resourceVersion: '', annotations: sized('a', 200 * KB) } }, rights: [] }));
    const update = (annotations: Record<string, string>) =>
      ledger.updateUser('grows', { user: { id: 'grows', isDeactivated: false, metadata: { resourceVersion: '', annotations } }, updateMask: mask('metadata.annotations') });
    const error = refused(update(sized('b', 100 * KB)), 'INVALID_ARGUMENT');
    expect(error.cause).toContain("annotations from field 'user.metadata.annotations' are larger than the limit of 256kb");
    expect(Object.keys(must(ledger.getUser('grows')).user.metadata?.annotations ?? {})).toEqual(['a']);
    // Removing a key makes room (an empty value removes it).
    must(update({ a: '', ...sized('b', 100 * KB) }));
  });

  it('limits party annotations alike', () => {
    const { ledger, alice } = world();
    const error = refused(ledger.allocateParty({ partyIdHint: 'big', localMetadata: { resourceVersion: '', annotations: sized('a', 256 * KB + 1) } }), 'INVALID_ARGUMENT');
    expect(error.cause).toContain("annotations from field 'local_metadata.annotations' are larger than the limit of 256kb");
    const update = refused(
      ledger.updatePartyDetails(alice, { partyDetails: { party: alice, isLocal: true, localMetadata: { resourceVersion: '', annotations: sized('a', 256 * KB + 1) }, identityProviderId: '' }, updateMask: mask('local_metadata.annotations') }),
      'INVALID_ARGUMENT',
    );
    expect(update.cause).toContain('larger than the limit of 256kb');
  });
});
