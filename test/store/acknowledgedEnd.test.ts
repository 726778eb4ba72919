import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, ManualClock, resolveConfig } from '../../reference-server/src/ledger/index.js';
import { LEDGER_END_FILE } from '../../reference-server/src/store/sqlite/AcknowledgedEnd.js';
import { DataDirError } from '../../reference-server/src/store/sqlite/DataDirError.js';
import { DATABASE_FILE, SqliteStore } from '../../reference-server/src/store/sqlite/SqliteStore.js';
import { createAsset, must, nextCommandId } from '../ledger/helpers.js';

const PARTICIPANT = resolveConfig().participantId;
const dirs: string[] = [];
const stores: SqliteStore[] = [];

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cc-ack-'));
  dirs.push(d);
  return join(d, 'data');
}

function open(dir: string): SqliteStore {
  const s = SqliteStore.open(dir, { participantId: PARTICIPANT });
  stores.push(s);
  return s;
}

/** Opens the ledger in `dir` and commits `commits` creates; returns the store (open) and the ledger end. */
function commitOn(dir: string, commits: number): { store: SqliteStore; end: number } {
  const store = open(dir);
  const ledger = createLedger({ clock: new ManualClock(), store, blobKey: store.blobKey });
  ledger.recover();
  const known = must(ledger.listParties({})).partyDetails.find((p) => p.party.startsWith('bank::'))?.party;
  const bank = known ?? must(ledger.allocateParty({ partyIdHint: 'bank' })).partyDetails.party;
  for (let i = 0; i < commits; i++) must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, bank)] }));
  store.flush();
  return { store, end: ledger.ledgerEnd().offset };
}

/** The refusal of opening `dir`. */
function refusal(dir: string): string {
  try {
    open(dir);
  } catch (e) {
    expect(e).toBeInstanceOf(DataDirError);
    return (e as Error).message;
  }
  throw new Error('expected a DataDirError');
}

/** Names, sizes and contents of the files in `dir`: to show a refusal wrote nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of [DATABASE_FILE, `${DATABASE_FILE}-wal`, LEDGER_END_FILE]) {
    const p = join(dir, f);
    if (existsSync(p)) out[f] = `${statSync(p).size}:${readFileSync(p).toString('base64')}`;
  }
  return out;
}

afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('--data-dir: a database that lost acknowledged updates is refused at start, nothing written', () => {
  it('records the acknowledged end next to the database, after each commit', () => {
    const dir = tempDir();
    const { store, end } = commitOn(dir, 5);
    expect(Number(readFileSync(join(dir, LEDGER_END_FILE), 'latin1'))).toBe(end);
    store.close();
    // A restart on a sound directory is not refused, and goes on marking.
    const again = commitOn(dir, 2);
    expect(Number(readFileSync(join(dir, LEDGER_END_FILE), 'latin1'))).toBe(again.end);
    expect(again.end).toBe(end + 2);
  });

  it('a database truncated to 0 bytes: refused, naming the file and the acknowledged end', () => {
    const dir = tempDir();
    const { store, end } = commitOn(dir, 5);
    store.close();
    truncateSync(join(dir, DATABASE_FILE), 0);
    const before = snapshot(dir);
    const message = refusal(dir);
    expect(message).toContain(`${join(dir, DATABASE_FILE)} is empty (0 bytes)`);
    expect(message).toContain(`records acknowledged updates up to offset ${end}`);
    expect(snapshot(dir)).toEqual(before);
  });

  it('a 0-byte database without a mark (a directory of an earlier version): refused too, not a new ledger', () => {
    const dir = tempDir();
    const { store } = commitOn(dir, 3);
    store.close();
    truncateSync(join(dir, DATABASE_FILE), 0);
    rmSync(join(dir, LEDGER_END_FILE));
    const before = snapshot(dir);
    expect(refusal(dir)).toMatch(new RegExp(`${join(dir, DATABASE_FILE).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is empty \\(0 bytes\\): it holds no ledger`));
    expect(snapshot(dir)).toEqual(before);
  });

  it('a missing database whose directory acknowledged updates: refused', () => {
    const dir = tempDir();
    const { store, end } = commitOn(dir, 2);
    store.close();
    rmSync(join(dir, DATABASE_FILE));
    expect(refusal(dir)).toContain(`${join(dir, DATABASE_FILE)} is missing, but ${join(dir, LEDGER_END_FILE)} records acknowledged updates up to offset ${end}`);
    expect(existsSync(join(dir, DATABASE_FILE))).toBe(false);
  });

  it('the write-ahead log removed after a crash: the ledger ends before what it acknowledged, refused with the count', () => {
    const dir = tempDir();
    const first = commitOn(dir, 4);
    first.store.close(); // checkpoints: the database file holds these 4
    const running = commitOn(dir, 6); // in the WAL only, acknowledged
    // What a kill -9 leaves, copied without its WAL (as if it was removed).
    const crashed = tempDir();
    mkdirSync(crashed, { recursive: true });
    copyFileSync(join(dir, DATABASE_FILE), join(crashed, DATABASE_FILE));
    copyFileSync(join(dir, LEDGER_END_FILE), join(crashed, LEDGER_END_FILE));
    const before = snapshot(crashed);
    const message = refusal(crashed);
    expect(message).toContain(`${join(crashed, DATABASE_FILE)} ends at offset ${first.end}, but ${join(crashed, LEDGER_END_FILE)} records acknowledged updates up to offset ${running.end}: 6 acknowledged updates are missing`);
    expect(message).toContain(`${join(crashed, DATABASE_FILE)}-wal`);
    expect(snapshot(crashed)).toEqual(before);
    // With its WAL, the same copy is sound and opens with every acknowledged update.
    const whole = tempDir();
    mkdirSync(whole, { recursive: true });
    for (const f of [DATABASE_FILE, `${DATABASE_FILE}-wal`, LEDGER_END_FILE]) copyFileSync(join(dir, f), join(whole, f));
    expect(commitOn(whole, 0).end).toBe(running.end);
  });

  it('a directory of an earlier version (no mark) opens and gets one; a first start that died before its first commit stays new', () => {
    const dir = tempDir();
    const { store, end } = commitOn(dir, 3);
    store.close();
    rmSync(join(dir, LEDGER_END_FILE));
    commitOn(dir, 0).store.close();
    expect(Number(readFileSync(join(dir, LEDGER_END_FILE), 'latin1'))).toBe(end);

    const fresh = tempDir();
    SqliteStore.open(fresh, { participantId: PARTICIPANT }).abandon();
    const reopened = open(fresh);
    expect(reopened.isNew).toBe(true);
  });

  it('a damaged mark is refused, naming it', () => {
    const dir = tempDir();
    commitOn(dir, 1).store.close();
    writeFileSync(join(dir, LEDGER_END_FILE), 'twelve\n');
    expect(refusal(dir)).toContain(`${join(dir, LEDGER_END_FILE)} is damaged`);
  });
});
