/**
 * The pairing of the target's identifiers with the reference ledger's, learned from answers as
 * they arrive. Identifiers (parties, contract ids, update ids, synchronizer ids, opaque blobs)
 * pair one to one; offsets pair one to one and keep their order on both sides.
 */
export type Pairing = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const OK: Pairing = { ok: true };

export class Bijection {
  private readonly toRef = new Map<string, string>();
  private readonly toTarget = new Map<string, string>();
  /** Offset pairs, sorted by the target's offset. */
  private readonly offsets: [number, number][] = [[0, 0]];
  /** Every identifier and offset a target answer contained, paired or not: the target's own state. */
  private readonly seenTarget = new Set<string>();

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

  noteTargetOffset(t: number): void {
    this.seenTarget.add(`offset:${t}`);
  }

  pairOffset(t: number, r: number): Pairing {
    this.seenTarget.add(`offset:${t}`);
    const i = this.offsets.findIndex(([ot]) => ot >= t);
    const at = i === -1 ? undefined : this.offsets[i]!;
    if (at !== undefined && at[0] === t) return at[1] === r ? OK : { ok: false, reason: `the target's offset ${t} was paired with the reference's ${at[1]} by an earlier answer, here it stands for ${r}` };
    const sameR = this.offsets.find(([, or]) => or === r);
    if (sameR !== undefined) return { ok: false, reason: `the reference's offset ${r} was paired with the target's ${sameR[0]} by an earlier answer, here the target answers ${t}` };
    const below = i === -1 ? this.offsets.at(-1) : i > 0 ? this.offsets[i - 1] : undefined;
    // Offsets by order: what is later on one ledger is later on the other.
    if (below !== undefined && below[1] >= r) return { ok: false, reason: `offsets out of order: the target's ${t} follows its ${below[0]}, but the reference's ${r} does not follow ${below[1]}` };
    if (at !== undefined && at[1] <= r) return { ok: false, reason: `offsets out of order: the target's ${t} precedes its ${at[0]}, but the reference's ${r} does not precede ${at[1]}` };
    this.offsets.splice(i === -1 ? this.offsets.length : i, 0, [t, r]);
    return OK;
  }

  /**
   * The reference's offset for a target offset: its pair, or, for one no answer named (a check's
   * `end + 1`), the same distance from the nearest paired offset below it.
   */
  referenceOffset(t: number): number {
    let below: [number, number] = [0, 0];
    for (const p of this.offsets) {
      if (p[0] === t) return p[1];
      if (p[0] < t) below = p;
    }
    return below[1] + (t - below[0]);
  }

  /** The reference's offset paired with exactly this target offset, if any. */
  pairedOffset(t: number): number | undefined {
    return this.offsets.find(([ot]) => ot === t)?.[1];
  }

  /** Was this offset in a target answer without a pair? */
  isTargetOffsetState(t: number): boolean {
    return this.seenTarget.has(`offset:${t}`) && !this.offsets.some(([ot]) => ot === t);
  }
}
