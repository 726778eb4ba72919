import type { CheckContext } from '../types.js';

/** What a committed update is known as after submit-and-wait: the lookups below must agree with it. */
export interface CommittedUpdate {
  readonly updateId: string;
  readonly offset: number;
  readonly commandId: string;
  /** The party the suite acted (and reads) as. */
  readonly party: string;
}

/**
 * Point lookups of one update (by update id, by offset, ...). `ledger.ids.agree-across-apis`
 * runs every registered lookup after its stream comparisons: an operation that looks an update up
 * adds its function here (failing through ctx.fail when the answer disagrees with `u`), so the
 * rule "one update, one id, one offset, wherever it is read" covers it without a new check.
 */
export type UpdateLookup = (ctx: CheckContext, u: CommittedUpdate) => Promise<void>;

export const UPDATE_LOOKUPS: UpdateLookup[] = [];
