import { describe, expect, it } from 'vitest';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { must, refused, world } from './helpers.js';

const actAs = (party: string) => ({ kind: { CanActAs: { value: { party } } } });

describe('users and rights', () => {
  it('has the built-in participant_admin with ParticipantAdmin', () => {
    const ledger = createLedger();
    expect(must(ledger.listUserRights('participant_admin')).rights).toEqual([{ kind: { ParticipantAdmin: { value: {} } } }]);
  });

  it('creates, reads, refuses duplicates and unknown users', () => {
    const { ledger, alice } = world();
    const created = must(ledger.createUser({ user: { id: 'alice', primaryParty: alice }, rights: [actAs(alice)] })).user;
    expect(created).toEqual({ id: 'alice', primaryParty: alice, isDeactivated: false, metadata: { resourceVersion: '0', annotations: {} }, identityProviderId: '' });
    expect(must(ledger.getUser('alice')).user).toEqual(created);
    refused(ledger.createUser({ user: { id: 'alice' } }), 'USER_ALREADY_EXISTS');
    refused(ledger.getUser('bob'), 'USER_NOT_FOUND');
  });

  it('refuses user ids outside Canton\'s alphabet or longer than 128', () => {
    const ledger = createLedger();
    refused(ledger.createUser({ user: { id: 'has space' } }), 'INVALID_ARGUMENT');
    refused(ledger.createUser({ user: { id: 'x'.repeat(129) } }), 'INVALID_ARGUMENT');
    refused(ledger.createUser({ user: { id: '' } }), 'MISSING_FIELD');
    must(ledger.createUser({ user: { id: 'ok@^$.!`-#+\'~_|:()' + 'x'.repeat(110) } }));
    refused(ledger.getUser('bad/id'), 'INVALID_ARGUMENT');
  });

  it('grants and revokes, answering only what changed', () => {
    const { ledger, alice, bob } = world();
    must(ledger.createUser({ user: { id: 'u' }, rights: [actAs(alice)] }));
    expect(must(ledger.grantUserRights('u', { userId: 'u', rights: [actAs(alice), actAs(bob), { kind: { CanReadAsAnyParty: { value: {} } } }] })).newlyGrantedRights).toEqual([
      actAs(bob),
      { kind: { CanReadAsAnyParty: { value: {} } } },
    ]);
    expect(must(ledger.revokeUserRights('u', { userId: 'u', rights: [actAs(alice), { kind: { ParticipantAdmin: { value: {} } } }] })).newlyRevokedRights).toEqual([actAs(alice)]);
    expect(must(ledger.listUserRights('u')).rights).toEqual([actAs(bob), { kind: { CanReadAsAnyParty: { value: {} } } }]);
    refused(ledger.grantUserRights('nobody', { userId: 'nobody', rights: [] }), 'USER_NOT_FOUND');
    refused(ledger.grantUserRights('u', { userId: 'u', rights: [{ kind: { CanActAs: { value: { party: 'not-a-party' } } } }] }), 'INVALID_ARGUMENT');
  });

  it('caps the number of rights per user', () => {
    const { ledger, alice, bob, carol } = world({ maxRightsPerUser: 2 });
    refused(ledger.createUser({ user: { id: 'u' }, rights: [actAs(alice), actAs(bob), actAs(carol)] }), 'TOO_MANY_USER_RIGHTS');
    must(ledger.createUser({ user: { id: 'u' }, rights: [actAs(alice), actAs(bob)] }));
    refused(ledger.grantUserRights('u', { userId: 'u', rights: [actAs(carol)] }), 'TOO_MANY_USER_RIGHTS');
  });

  it('updates the fields named by the mask, detecting stale resource versions', () => {
    const { ledger, alice } = world();
    must(ledger.createUser({ user: { id: 'u', metadata: { annotations: { team: 'a', keep: 'yes' } } } }));
    const updated = must(
      ledger.updateUser('u', { user: { id: 'u', primaryParty: alice, isDeactivated: true, metadata: { annotations: { team: 'b', keep: '' } } }, updateMask: { paths: ['primary_party', 'metadata'] } }),
    ).user;
    expect(updated).toMatchObject({ primaryParty: alice, isDeactivated: false, metadata: { resourceVersion: '1', annotations: { team: 'b' } } });
    refused(ledger.updateUser('u', { user: { id: 'u', metadata: { resourceVersion: '0' } }, updateMask: { paths: ['metadata'] } }), 'CONCURRENT_USER_UPDATE_DETECTED');
    refused(ledger.updateUser('u', { user: { id: 'u' }, updateMask: { paths: [] } }), 'INVALID_ARGUMENT');
    refused(ledger.updateUser('u', { user: { id: 'u' }, updateMask: { paths: ['identity_provider_id'] } }), 'INVALID_ARGUMENT');
    refused(ledger.updateUser('u', { user: { id: 'other' }, updateMask: { paths: ['is_deactivated'] } }), 'INVALID_ARGUMENT');
    refused(ledger.updateUser('nobody', { user: { id: 'nobody' }, updateMask: { paths: ['is_deactivated'] } }), 'USER_NOT_FOUND');
  });

  it('deletes users, but never the caller itself', () => {
    const ledger = createLedger();
    must(ledger.createUser({ user: { id: 'u' } }));
    const e = refused(ledger.deleteUser('u', 'u'), 'INVALID_ARGUMENT');
    expect(e.cause).toContain('cannot delete itself');
    expect(must(ledger.deleteUser('u', 'participant_admin'))).toEqual({});
    refused(ledger.deleteUser('u', 'participant_admin'), 'USER_NOT_FOUND');
  });

  it('lists users in pages', () => {
    const ledger = createLedger();
    for (const id of ['c', 'a', 'b', 'd']) must(ledger.createUser({ user: { id } }));
    const p1 = must(ledger.listUsers({ pageSize: 2 }));
    expect(p1.users.map((u) => u.id)).toEqual(['a', 'b']);
    const p2 = must(ledger.listUsers({ pageSize: 2, pageToken: p1.nextPageToken }));
    expect(p2.users.map((u) => u.id)).toEqual(['c', 'd']);
    const p3 = must(ledger.listUsers({ pageSize: 2, pageToken: p2.nextPageToken }));
    expect(p3).toEqual({ users: [{ id: 'participant_admin', primaryParty: '', isDeactivated: false, metadata: { resourceVersion: '0', annotations: {} }, identityProviderId: '' }], nextPageToken: '' });
    refused(ledger.listUsers({ pageToken: '!!!' }), 'INVALID_ARGUMENT');
    refused(ledger.listUsers({ pageSize: -1 }), 'INVALID_ARGUMENT');
  });
});
