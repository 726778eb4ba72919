import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger } from '../../reference-server/src/ledger/index.js';
import { ACCOUNT_TEMPLATE, ASSET_TEMPLATE, createLedger, HOLDING_INTERFACE, ManualClock, PARTICIPANT_ADMIN_USER, resolveConfig } from '../../reference-server/src/ledger/index.js';
import { DataDirError } from '../../reference-server/src/store/sqlite/DataDirError.js';
import { DATABASE_FILE, SqliteStore } from '../../reference-server/src/store/sqlite/SqliteStore.js';
import { createAsset, must, nextCommandId, refused, submit } from '../ledger/helpers.js';

const PARTICIPANT = resolveConfig().participantId;
const dirs: string[] = [];
const stores: SqliteStore[] = [];

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cc-store-'));
  dirs.push(d);
  return join(d, 'data');
}

function open(dir: string): SqliteStore {
  const s = SqliteStore.open(dir, { participantId: PARTICIPANT });
  stores.push(s);
  return s;
}

/** A ledger over the store in `dir`, recovered: what a restart does. */
function ledgerOn(dir: string, clock = new ManualClock()): { ledger: Ledger; store: SqliteStore } {
  const store = open(dir);
  const ledger = createLedger({ clock, store, blobKey: store.blobKey });
  ledger.recover();
  return { ledger, store };
}

afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const everything = { filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] }, verbose: true };

/** Everything a client can read of a ledger, as JSON. */
function observable(ledger: Ledger, users: readonly string[], parties: string[]): unknown {
  const end = ledger.ledgerEnd().offset;
  const pruned = ledger.latestPrunedOffsets().participantPrunedUpToInclusive;
  return {
    end,
    pruned,
    updates: [
      ...must(
        ledger.updates({
          beginExclusive: pruned,
          endInclusive: end,
          updateFormat: { includeTransactions: { eventFormat: everything, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' }, includeReassignments: everything, includeTopologyEvents: { includeParticipantAuthorizationEvents: {} } },
        }),
      ),
    ],
    acsNow: [...must(ledger.activeContracts({ activeAtOffset: end, eventFormat: everything }))],
    acsBefore: [...must(ledger.activeContracts({ activeAtOffset: pruned + 1, eventFormat: everything }))],
    completions: users.map((userId) => [...must(ledger.completions({ userId, parties, beginExclusive: pruned }))]),
    parties: must(ledger.listParties({ pageSize: 1000 })),
    users: must(ledger.listUsers({ pageSize: 1000 })),
    rights: users.map((u) => ledger.listUserRights(u)),
  };
}

describe('SqliteStore: a restart puts back everything', () => {
  it('reads back parties, users, rights, contracts, the update log, completions, dedup, reassignments and pruning exactly', () => {
    const dir = tempDir();
    const clock = new ManualClock();
    const first = ledgerOn(dir, clock);
    expect(first.store.isNew).toBe(true);
    const l = first.ledger;
    const party = (hint: string) => must(l.allocateParty({ partyIdHint: hint })).partyDetails.party;
    const [alice, bob, bank] = [party('alice'), party('bob'), party('bank')];
    // The first contract id handed out: its nonce must not come round again after the restart.
    const firstPrepared = must(l.interpret({ userId: 'tester', commandId: 'same-command', actAs: [bank], commands: [createAsset(bank, alice)] }));

    must(l.createUser({ user: { id: 'alice', primaryParty: alice, metadata: { annotations: { team: 'a' } } }, rights: [{ kind: { CanActAs: { value: { party: alice } } } }] }));
    must(l.createUser({ user: { id: 'gone' }, rights: [] }));
    must(l.grantUserRights('alice', { userId: 'alice', rights: [{ kind: { CanReadAs: { value: { party: bob } } } }, { kind: { CanReadAsAnyParty: { value: {} } } }] }));
    must(l.revokeUserRights('alice', { userId: 'alice', rights: [{ kind: { CanReadAsAnyParty: { value: {} } } }] }));
    must(l.updateUser('alice', { user: { id: 'alice', isDeactivated: true }, updateMask: { paths: ['is_deactivated'] } }));
    must(l.deleteUser('gone'));
    must(l.allocateParty({ partyIdHint: 'carol', userId: 'alice' }));
    must(l.updatePartyDetails(bob, { partyDetails: { party: bob, localMetadata: { annotations: { k: 'v' } } }, updateMask: { paths: ['local_metadata'] } }));
    const external = must(l.allocateExternalParty('ext', { format: 'CRYPTO_KEY_FORMAT_RAW', keyData: Buffer.alloc(32, 7).toString('base64'), keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' })).party;

    const [a1, a2, a3, a4] = submit(l, [bank], [createAsset(bank, alice, '10'), createAsset(bank, alice, '20'), createAsset(bank, bob, '30', [alice]), createAsset(bank, alice, '40')]);
    clock.advance(1000);
    submit(l, [alice], [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: a1 as string, choice: 'Transfer', choiceArgument: { newOwner: bob } } }]);
    submit(l, [alice], [{ ExerciseCommand: { templateId: HOLDING_INTERFACE, contractId: a2 as string, choice: 'Holding_Owner', choiceArgument: {} } }]);
    submit(l, [bank], [{ CreateAndExerciseCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: bank, owner: bank, amount: '1', observers: null }, choice: 'Archive', choiceArgument: {} } }]);
    submit(l, [bank], [{ CreateCommand: { templateId: ACCOUNT_TEMPLATE, createArguments: { bank, holder: alice, accountId: 'ACC-1' } } }]);
    submit(l, [alice], [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: a2 as string, choice: 'Split', choiceArgument: { splitAmount: '5' } } }]);
    const dedupOnce = { userId: 'alice', commandId: 'once', actAs: [bank], commands: [createAsset(bank, bob, '3')] };
    must(l.submitAndWait(dedupOnce));
    refused(l.submitAndWait(dedupOnce), 'DUPLICATE_COMMAND'); // a rejection in the log, with its completion
    const priv = l.config.synchronizers[1]!;
    must(l.reassign(a3 as string, priv.id, { submitter: bank, userId: 'alice', commandId: nextCommandId() }));
    const inFlight = must(l.unassign(a4 as string, priv.id, { submitter: bank }));
    const blob = l.createdEventBlob(a3 as string);
    must(l.prune(4));

    const users = ['alice', 'tester', PARTICIPANT_ADMIN_USER];
    const before = JSON.stringify(observable(l, users, [alice, bob, bank]));
    first.store.close();

    const second = ledgerOn(dir, clock);
    expect(second.store.isNew).toBe(false);
    const r = second.ledger;
    expect(JSON.stringify(observable(r, users, [alice, bob, bank]))).toBe(before);
    // The blob key stayed: the same contract has the same blob, and blobs of before still verify.
    expect(r.createdEventBlob(a3 as string)).toBe(blob);
    // Deduplication remembers what was accepted before the restart.
    expect(refused(r.submitAndWait(dedupOnce), 'DUPLICATE_COMMAND').context?.completion_offset).toBeDefined();
    // The external party keeps its key.
    expect(r.store.party(external)?.externalKey?.keyData).toBe(Buffer.alloc(32, 7).toString('base64'));
    // The in-flight reassignment can be completed.
    must(r.assign(inFlight.reassignmentId, { submitter: alice }));
    expect(r.isInFlight(a4 as string)).toBe(false);
    // Contract ids do not repeat: the same command at the same time gets a new id.
    const again = must(r.interpret({ userId: 'tester', commandId: 'same-command', actAs: [bank], commands: [createAsset(bank, alice)] }));
    expect(again.created[0]?.contractId).not.toBe(firstPrepared.created[0]?.contractId);
    // Offsets and update ids continue.
    const end = r.ledgerEnd().offset;
    const next = must(r.submitAndWait({ userId: 'alice', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    expect(next.completionOffset).toBe(end + 1);
    second.store.close();

    // What was written after the restart is kept too.
    const third = ledgerOn(dir, clock);
    expect(third.ledger.ledgerEnd().offset).toBe(end + 1);
    expect(third.ledger.updateById({ updateId: next.updateId, updateFormat: { includeTransactions: { eventFormat: everything, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }).ok).toBe(true);
    expect(third.ledger.isInFlight(a4 as string)).toBe(false);
  });

  it('refuses changes to a ledger whose log has not been read back yet', () => {
    const dir = tempDir();
    ledgerOn(dir).store.close();
    const store = open(dir);
    const ledger = createLedger({ clock: new ManualClock(), store, blobKey: store.blobKey });
    expect(() => ledger.allocateParty({ partyIdHint: 'early' })).toThrow(/has not been read back yet/);
  });

  it('keeps one transaction per synchronous step: a step abandoned before its microtask leaves nothing', () => {
    const dir = tempDir();
    const store = open(dir);
    const ledger = createLedger({ clock: new ManualClock(), store, blobKey: store.blobKey });
    must(ledger.allocateParty({ partyIdHint: 'alice' }));
    store.abandon();
    const again = open(dir);
    expect(again.isNew).toBe(true);
    expect(again.ledgerEnd).toBe(0);
  });

  it('commits each step on its own: a later step failing does not take back an earlier one', async () => {
    const dir = tempDir();
    const store = open(dir);
    const ledger = createLedger({ clock: new ManualClock(), store, blobKey: store.blobKey });
    must(ledger.allocateParty({ partyIdHint: 'alice' }));
    await Promise.resolve(); // the step ends: its microtask commits
    must(ledger.allocateParty({ partyIdHint: 'bob' }));
    store.abandon();
    const { ledger: back } = ledgerOn(dir);
    expect(back.ledgerEnd().offset).toBe(1);
    expect(must(back.listParties({})).partyDetails.map((p) => p.party.split('::')[0])).toEqual(['alice']);
  });
});

describe('SqliteStore: a directory it cannot use is refused with a clear DataDirError', () => {
  const refusal = (dir: string) => {
    try {
      open(dir);
    } catch (e) {
      expect(e).toBeInstanceOf(DataDirError);
      return (e as Error).message;
    }
    throw new Error('expected a DataDirError');
  };

  it('a file that is not a database', () => {
    const dir = tempDir();
    open(dir).close();
    writeFileSync(join(dir, DATABASE_FILE), 'this is not a database, only some text that is long enough to look like a header'.repeat(20));
    rmSync(join(dir, `${DATABASE_FILE}-wal`), { force: true });
    expect(refusal(dir)).toMatch(/is not a canton-conformance ledger database/);
  });

  it("another program's SQLite database", () => {
    const dir = tempDir();
    open(dir).close();
    rmSync(join(dir, DATABASE_FILE));
    const db = new Database(join(dir, DATABASE_FILE));
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY)');
    db.close();
    expect(refusal(dir)).toMatch(/SQLite database of something else/);
  });

  it('a newer format, another participant, a damaged record', () => {
    const dir = tempDir();
    const s = open(dir);
    const ledger = createLedger({ clock: new ManualClock(), store: s, blobKey: s.blobKey });
    must(ledger.allocateParty({ partyIdHint: 'alice' }));
    s.close();
    const edit = (sql: string) => {
      const db = new Database(join(dir, DATABASE_FILE));
      db.exec(sql);
      db.close();
    };
    edit("UPDATE meta SET value = '99' WHERE key = 'format'");
    expect(refusal(dir)).toMatch(/written by a newer canton-conformance \(format 99/);
    edit("UPDATE meta SET value = '1' WHERE key = 'format'; UPDATE meta SET value = 'other::1220ab' WHERE key = 'participantId'");
    expect(refusal(dir)).toMatch(/holds the ledger of participant other::1220ab/);
    edit(`UPDATE meta SET value = '${PARTICIPANT}' WHERE key = 'participantId'; UPDATE entries SET body = '{not json' WHERE offset = 1`);
    const store = open(dir);
    const l = createLedger({ clock: new ManualClock(), store, blobKey: store.blobKey });
    expect(() => l.recover()).toThrow(/the update at offset 1 .* cannot be read back/);
    store.close();
    edit(`UPDATE entries SET body = '{"k":"transaction","o":1}' WHERE offset = 1`);
    const again = open(dir);
    expect(() => createLedger({ clock: new ManualClock(), store: again, blobKey: again.blobKey }).recover()).toThrow(DataDirError);
    expect(() => createLedger({ store: open(tempDir()) }).recover()).not.toThrow();
  });

  it('a directory another server has open', () => {
    const dir = tempDir();
    open(dir);
    expect(refusal(dir)).toMatch(/in use by another canton-conformance server/);
  });

  it('a path that is a file', () => {
    const dir = tempDir();
    open(dir).close();
    expect(refusal(join(dir, DATABASE_FILE))).toMatch(/is not a directory/);
  });
});

describe('SqliteStore: participant administration survives a restart', () => {
  it('reads back uploaded packages (bytes exact), vetting per synchronizer and identity providers, deletions included', () => {
    const dir = tempDir();
    const first = ledgerOn(dir);
    const payload = new Uint8Array([0, 1, 2, 250, 255]);
    first.store.putPackages([
      { packageId: 'a'.repeat(64), packageName: 'demo', packageVersion: '1.0.0', payload, uploadedAt: 1 },
      { packageId: 'b'.repeat(64), packageName: 'demo-dep', packageVersion: '0.1.0', payload: new Uint8Array([9]), uploadedAt: 1 },
    ]);
    first.store.putVetting('global::1220ab', { serial: 2, vetted: { ['a'.repeat(64)]: { validFromInclusive: '2026-01-01T00:00:00Z' } }, unvetted: ['c'.repeat(64)] });
    const idp = { identityProviderId: 'idp-1', issuer: 'https://issuer.example', jwksUrl: 'https://issuer.example/jwks', audience: '', isDeactivated: false };
    first.store.putIdentityProvider(idp);
    first.store.putIdentityProvider({ ...idp, identityProviderId: 'idp-2', issuer: 'https://other.example' });
    first.store.deleteIdentityProvider('idp-2');
    const before = first.store.snapshot();
    first.store.close();

    const second = ledgerOn(dir);
    expect(second.store.snapshot()).toEqual(before);
    expect(second.store.package('a'.repeat(64))?.payload).toEqual(payload);
    expect(second.store.identityProvider('idp-2')).toBeUndefined();
    // The ledger reads its administration state from the store it was given.
    expect(second.ledger.admin).toBe(second.store);
  });
});
