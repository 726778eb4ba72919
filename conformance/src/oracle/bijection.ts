/**
 * The pairing of the target's identifiers with the reference ledger's, learned from answers as
 * they arrive. Identifiers (parties, contract ids, update ids, synchronizer ids, opaque blobs)
 * pair one to one; offsets pair one to one and keep their order on both sides.
 */
export type Pairing = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const OK: Pairing = { ok: true };

/** Number lines whose values pair by order: ledger offsets, and topology serials (one line per vetting state: `serial@<synchronizer>`). */
export type Line = string;

export class Bijection {
  private readonly toRef = new Map<string, string>();
  private readonly toTarget = new Map<string, string>();
  /** Offset (and serial) pairs per number line, sorted by the target's value; offset 0 is the ledger's begin on both. */
  private readonly lines = new Map<Line, [number, number][]>([['offset', [[0, 0]]]]);
  /** Every identifier and offset a target answer contained, paired or not: the target's own state. */
  private readonly seenTarget = new Set<string>();
  /** Objects a write changed on the target alone (a check that left the oracle): their copies differ. */
  private readonly diverged = new Set<string>();

  /** Pairs `t` with `r`, or says why they cannot be (one of them is already paired elsewhere). */
  pair(t: string, r: string): Pairing {
    this.seenTarget.add(t);
    const knownR = this.toRef.get(t);
    const knownT = this.toTarget.get(r);
    if (knownR === r) return OK;
    if (knownR !== undefined) return { ok: false, reason: `the target's ${t} was paired with the reference's ${knownR} by an earlier answer, here it stands for ${r}` };
    if (knownT !== undefined) return { ok: false, reason: `the reference's ${r} was paired with the target's ${knownT} by an earlier answer, here the target answers ${t}` };
    this.toRef.set(t, r);
    this.toTarget.set(r, t);
    return OK;
  }

  reference(t: string): string | undefined {
    return this.toRef.get(t);
  }

  target(r: string): string | undefined {
    return this.toTarget.get(r);
  }

  /** A target identifier seen in an answer but never paired: state the reference does not share. */
  isTargetState(t: string): boolean {
    return this.seenTarget.has(t) && !this.toRef.has(t);
  }

  noteTarget(t: string): void {
    this.seenTarget.add(t);
  }

  /** The object named `t` was written on the target only: neither ledger's copy is compared again. */
  noteDiverged(t: string): void {
    this.diverged.add(t);
  }

  isDiverged(t: string): boolean {
    return this.diverged.has(t);
  }

  noteTargetOffset(t: number, line: Line = 'offset'): void {
    this.seenTarget.add(`${line}:${t}`);
  }

  pairOffset(t: number, r: number, line: Line = 'offset'): Pairing {
    const what = line === 'offset' ? 'offset' : 'topology serial';
    const pairs = this.line(line);
    this.seenTarget.add(`${line}:${t}`);
    const i = pairs.findIndex(([ot]) => ot >= t);
    const at = i === -1 ? undefined : pairs[i]!;
    if (at !== undefined && at[0] === t) return at[1] === r ? OK : { ok: false, reason: `the target's ${what} ${t} was paired with the reference's ${at[1]} by an earlier answer, here it stands for ${r}` };
    const sameR = pairs.find(([, or]) => or === r);
    if (sameR !== undefined) return { ok: false, reason: `the reference's ${what} ${r} was paired with the target's ${sameR[0]} by an earlier answer, here the target answers ${t}` };
    const below = i === -1 ? pairs.at(-1) : i > 0 ? pairs[i - 1] : undefined;
    // By order: what is later on one ledger is later on the other.
    if (below !== undefined && below[1] >= r) return { ok: false, reason: `${what}s out of order: the target's ${t} follows its ${below[0]}, but the reference's ${r} does not follow ${below[1]}` };
    if (at !== undefined && at[1] <= r) return { ok: false, reason: `${what}s out of order: the target's ${t} precedes its ${at[0]}, but the reference's ${r} does not precede ${at[1]}` };
    pairs.splice(i === -1 ? pairs.length : i, 0, [t, r]);
    return OK;
  }

  /**
   * The reference's counterpart of a target offset (or serial): its pair, or, for one no answer
   * named (a check's `end + 1`, `serial - 1`), the same distance from the nearest paired one.
   */
  referenceOffset(t: number, line: Line = 'offset'): number {
    let nearest: [number, number] | undefined;
    for (const p of this.line(line)) {
      if (p[0] === t) return p[1];
      if (nearest === undefined || Math.abs(p[0] - t) < Math.abs(nearest[0] - t)) nearest = p;
    }
    return nearest === undefined ? t : nearest[1] + (t - nearest[0]);
  }

  /** The reference's offset paired with exactly this target offset, if any. */
  pairedOffset(t: number): number | undefined {
    return this.line('offset').find(([ot]) => ot === t)?.[1];
  }

  /** The serial lines learned so far (error texts name serials without saying whose). */
  serialLines(): Line[] {
    return [...this.lines.keys()].filter((l) => l.startsWith('serial'));
  }

  private line(line: Line): [number, number][] {
    let pairs = this.lines.get(line);
    if (pairs === undefined) this.lines.set(line, (pairs = []));
    return pairs;
  }

  /** Was this offset (serial) in a target answer without a pair? */
  isTargetOffsetState(t: number, line: Line = 'offset'): boolean {
    return this.seenTarget.has(`${line}:${t}`) && !this.line(line).some(([ot]) => ot === t);
  }
}
