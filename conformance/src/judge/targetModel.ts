import type { InvariantId } from './invariants.js';

/** Where and when an answer was seen: the check, the request, the exchange's order and start time. */
export interface Observation {
  readonly checkId: string;
  /** `POST /v2/updates` (a stream's frames: `WS /v2/updates`). */
  readonly where: string;
  /** The exchange's sequence number in the run. */
  readonly seq: number;
  readonly at: string;
  /** The answer to a write (submit, allocate, create, update, grant, revoke). */
  readonly write?: boolean;
}

/** An answer that breaks an invariant, with both observations. */
export interface Violation {
  readonly invariant: InvariantId;
  readonly message: string;
  /** The earlier observation the answer is judged against (absent for rules about one answer). */
  readonly first?: Observation;
  readonly second: Observation;
}

/** Kinds of fact the model keeps, each keyed by the target's own identifier. */
export type FactKind = 'contract' | 'exercise' | 'update' | 'offset' | 'ledger-time' | 'party' | 'user' | 'rights' | 'right' | 'idp' | 'error';

interface Field {
  readonly value: string;
  readonly seen: Observation;
  /** Set by a write: a later read that differs breaks judge.writes.visible-after. */
  readonly written: boolean;
  /** The model's tick when it was stored; reads that started earlier are not judged against it. */
  readonly tick: number;
}

/** A fact's fields as the model holds them: JSON text of each field's value. */
export type Facts = Readonly<Record<string, unknown>>;

/**
 * The target as its own answers showed it during the run: contracts with their created events,
 * updates by id and by offset with record times and synchronizers, and the parties, users, rights
 * and identity-provider configs the run created, as last written or read. Read it through
 * `contract`, `update`, `updateAt`, `get` (issue 29 re-runs transactions from the input contracts
 * held here).
 */
export class TargetModel {
  private readonly facts = new Map<string, Map<string, Field>>();
  /** Objects the run created (only the run writes them, so a difference is the target's). */
  private readonly owned = new Set<string>();
  private ticks = 0;
  /** Parties the target said it hosts (isLocal true in its own party answers, or allocated by the run). */
  readonly localParties = new Set<string>();

  tick(): number {
    return ++this.ticks;
  }

  /** Marks an object as created by the run (a party, user or identity-provider config). */
  own(kind: FactKind, key: string): void {
    this.owned.add(`${kind}:${key}`);
  }

  owns(kind: FactKind, key: string): boolean {
    return this.owned.has(`${kind}:${key}`);
  }

  /** Drops what the model holds of an object (it stays the run's own). */
  clear(kind: FactKind, key: string): void {
    this.facts.delete(`${kind}:${key}`);
  }

  forget(kind: FactKind, key: string): void {
    this.facts.delete(`${kind}:${key}`);
    this.owned.delete(`${kind}:${key}`);
  }

  /** The fields of one fact (JSON values), or undefined when the run has not seen it. */
  get(kind: FactKind, key: string): Facts | undefined {
    const f = this.facts.get(`${kind}:${key}`);
    return f === undefined ? undefined : Object.fromEntries([...f].map(([k, v]) => [k, JSON.parse(v.value) as unknown]));
  }

  /** A contract's created event as first seen (payload, package, template, signatories, observers, createdAt, offset). */
  contract(contractId: string): Facts | undefined {
    return this.get('contract', contractId);
  }

  /** A committed update (offset, recordTime, synchronizerId, effectiveAt). */
  update(updateId: string): Facts | undefined {
    return this.get('update', updateId);
  }

  /** The update id the target committed at an offset. */
  updateAt(offset: number): string | undefined {
    return this.get('offset', String(offset))?.updateId as string | undefined;
  }

  /** The keys of one kind of fact that start with `prefix`. */
  keysOf(kind: FactKind, prefix: string): string[] {
    const start = `${kind}:${prefix}`;
    return [...this.facts.keys()].filter((k) => k.startsWith(start)).map((k) => k.slice(kind.length + 1));
  }

  /** Every contract the run saw created, by id. */
  contractIds(): string[] {
    return [...this.facts.keys()].filter((k) => k.startsWith('contract:')).map((k) => k.slice('contract:'.length));
  }

  /**
   * Records what a read showed of a fact and judges it against what the model holds: a field
   * that differs breaks `judge.writes.visible-after` when the model's value came from a write, else
   * `onDiffer`'s invariant (judge.facts.reread-equal unless the kind of source says otherwise).
   * `startTick` is the model's tick when the read's request started: fields written after that are
   * not judged (the read may have been answered before the write).
   */
  read(kind: FactKind, key: string, fields: Facts, seen: Observation, startTick: number, onDiffer: (first: Observation) => InvariantId = () => 'judge.facts.reread-equal'): Violation[] {
    const id = `${kind}:${key}`;
    let f = this.facts.get(id);
    if (f === undefined) this.facts.set(id, (f = new Map()));
    const out: Violation[] = [];
    for (const [name, v] of Object.entries(fields)) {
      if (v === undefined) continue;
      const value = canonical(v);
      const known = f.get(name);
      if (known === undefined) {
        f.set(name, { value, seen, written: false, tick: this.tick() });
        continue;
      }
      if (known.value === value || known.tick > startTick) continue;
      const invariant = known.written ? 'judge.writes.visible-after' : onDiffer(known.seen);
      out.push({
        invariant,
        message: `${kind} ${key}: ${name} is ${clip(value)} here, ${clip(known.value)} ${known.written ? 'as written' : 'where first seen'} (${known.seen.where} in ${known.seen.checkId})`,
        first: known.seen,
        second: seen,
      });
    }
    return out;
  }

  /** Where each contract was seen archived (offset), and the latest offset an ACS showed it active at. */
  private readonly archives = new Map<string, { offset: number; seen: Observation }>();
  private readonly active = new Map<string, { offset: number; seen: Observation }>();

  /** The offset a contract was archived at, as first seen. */
  archivedAt(contractId: string): number | undefined {
    return this.archives.get(contractId)?.offset;
  }

  /**
   * Records an archive (an ArchivedEvent, a consuming exercise) at an offset and judges it: a
   * contract is consumed once, and no active-contracts snapshot at or after that offset held it.
   */
  archive(contractId: string, offset: number, seen: Observation): Violation[] {
    const known = this.archives.get(contractId);
    if (known !== undefined) {
      return known.offset === offset
        ? []
        : [{ invariant: 'judge.contracts.archived-stays-archived', message: `contract ${contractId} is archived at offset ${offset} here, and at offset ${known.offset} (${known.seen.where} in ${known.seen.checkId}): consumed twice`, first: known.seen, second: seen }];
    }
    this.archives.set(contractId, { offset, seen });
    const act = this.active.get(contractId);
    return act !== undefined && act.offset >= offset
      ? [{ invariant: 'judge.contracts.archived-stays-archived', message: `contract ${contractId} is archived at offset ${offset} here, yet the active contracts at offset ${act.offset} held it (${act.seen.where} in ${act.seen.checkId})`, first: act.seen, second: seen }]
      : [];
  }

  /** Records that an active-contracts snapshot at `offset` held the contract, judged against its archive. */
  activeAt(contractId: string, offset: number, seen: Observation): Violation[] {
    const arch = this.archives.get(contractId);
    if (arch !== undefined && arch.offset <= offset) {
      return [{ invariant: 'judge.contracts.archived-stays-archived', message: `the active contracts at offset ${offset} hold ${contractId}, archived at offset ${arch.offset} (${arch.seen.where} in ${arch.seen.checkId})`, first: arch.seen, second: seen }];
    }
    const act = this.active.get(contractId);
    if (act === undefined || act.offset < offset) this.active.set(contractId, { offset, seen });
    return [];
  }

  /** Per contract and synchronizer: the earliest offset an active-contracts snapshot held it at. */
  private readonly firstActive = new Map<string, Map<string, { offset: number; seen: Observation }>>();

  /**
   * Records that a snapshot at `offset` held the contract on `synchronizerId` and judges it against
   * the create the run saw on that synchronizer: a snapshot holds no contract created after it.
   */
  activeFrom(contractId: string, offset: number, synchronizerId: string, seen: Observation): Violation[] {
    let bySync = this.firstActive.get(contractId);
    if (bySync === undefined) this.firstActive.set(contractId, (bySync = new Map()));
    const known = bySync.get(synchronizerId);
    if (known === undefined || offset < known.offset) bySync.set(synchronizerId, { offset, seen });
    const c = this.lives.get(contractId)?.created;
    return c !== undefined && c.synchronizerId === synchronizerId && c.offset > offset ? [createdAfter(contractId, c, offset, seen, seen)] : [];
  }

  /** Per contract: where a transaction created it, archived it, and first and last exercised it, per synchronizer. */
  private readonly lives = new Map<string, Life>();

  private lifeOf(contractId: string): Life {
    let l = this.lives.get(contractId);
    if (l === undefined) this.lives.set(contractId, (l = { uses: new Map() }));
    return l;
  }

  /**
   * Records what a transaction did to a contract at its offset on its synchronizer (created it,
   * archived it, exercised it, `consumed` for a consuming exercise) and judges the contract's life
   * against it: exercised only from its create on and up to its archive. Transactions of other synchronizers are not ordered by offset
   * against it (a participant may publish another synchronizer's later transaction first).
   */
  lifecycle(contractId: string, what: 'created' | 'archived' | 'exercised' | 'consumed', at: Mark): Violation[] {
    const l = this.lifeOf(contractId);
    const bad = (message: string, first: Observation): Violation => ({ invariant: 'judge.contracts.used-while-active', message: `contract ${contractId}: ${message}`, first, second: at.seen });
    const out: Violation[] = [];
    const uses = l.uses.get(at.synchronizerId);
    if (what === 'created') {
      l.created ??= at;
      const snap = this.firstActive.get(contractId)?.get(at.synchronizerId);
      if (snap !== undefined && snap.offset < at.offset) out.push(createdAfter(contractId, at, snap.offset, snap.seen, at.seen));
      if (uses !== undefined && uses.first.offset < at.offset) out.push(bad(`created at offset ${at.offset}, yet exercised at offset ${uses.first.offset} (${uses.first.seen.where} in ${uses.first.seen.checkId}) before it`, uses.first.seen));
    } else if (what === 'archived') {
      l.archived ??= at;
      const last = uses?.lastNonConsuming;
      if (last !== undefined && last.offset > at.offset) out.push(bad(`archived at offset ${at.offset}, yet exercised at offset ${last.offset} (${last.seen.where} in ${last.seen.checkId}) after it`, last.seen));
    } else {
      // A consuming exercise after the archive is a second archive: judge.contracts.archived-stays-archived says so.
      const nonConsuming = what === 'exercised' ? at : undefined;
      if (uses === undefined) l.uses.set(at.synchronizerId, { first: at, ...(nonConsuming ? { lastNonConsuming: nonConsuming } : {}) });
      else {
        if (at.offset < uses.first.offset) uses.first = at;
        if (nonConsuming !== undefined && (uses.lastNonConsuming === undefined || at.offset > uses.lastNonConsuming.offset)) uses.lastNonConsuming = nonConsuming;
      }
      const c = l.created?.synchronizerId === at.synchronizerId ? l.created : undefined;
      const a = l.archived?.synchronizerId === at.synchronizerId ? l.archived : undefined;
      if (c !== undefined && at.offset < c.offset) out.push(bad(`exercised at offset ${at.offset}, before the transaction at offset ${c.offset} created it (${c.seen.where} in ${c.seen.checkId})`, c.seen));
      if (a !== undefined && nonConsuming !== undefined && at.offset > a.offset) out.push(bad(`exercised at offset ${at.offset}, after the transaction at offset ${a.offset} archived it (${a.seen.where} in ${a.seen.checkId})`, a.seen));
    }
    return out;
  }

  /** Records what a write set: later reads must show it. */
  write(kind: FactKind, key: string, fields: Facts, seen: Observation): void {
    const id = `${kind}:${key}`;
    let f = this.facts.get(id);
    if (f === undefined) this.facts.set(id, (f = new Map()));
    const tick = this.tick();
    for (const [name, v] of Object.entries(fields)) if (v !== undefined) f.set(name, { value: canonical(v), seen, written: true, tick });
  }
}

function createdAfter(contractId: string, created: Mark, snapshot: number, first: Observation, second: Observation): Violation {
  return {
    invariant: 'judge.contracts.active-after-created',
    message: `the active contracts at offset ${snapshot} hold ${contractId}, which the transaction at offset ${created.offset} created on the same synchronizer (${created.seen.where} in ${created.seen.checkId})`,
    first, second,
  };
}

/** A transaction's offset and synchronizer, where a read showed it. */
export interface Mark {
  readonly offset: number;
  readonly synchronizerId: string;
  readonly seen: Observation;
}

interface Life {
  created?: Mark;
  archived?: Mark;
  /** The earliest exercise seen, and the latest non-consuming one, per synchronizer. */
  readonly uses: Map<string, { first: Mark; lastNonConsuming?: Mark }>;
}

/** JSON with object keys sorted, so the same value always has the same text. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'object' && x !== null && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));
}

const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);
