import type { Exchange } from '../target/exchange.js';

/** Thrown by `ctx.fail`: the target broke the rule. */
export class CheckFailed extends Error {
  override readonly name = 'CheckFailed';
  constructor(
    message: string,
    readonly exchange?: Exchange,
  ) {
    super(message);
  }
}

/** Thrown by `ctx.skip`: the check cannot run against this target (profile, capability). */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
}

/**
 * The target's release has no such rule (it came with a later release of the target's line): a
 * skip that the gate does not count, since the target cannot break a rule it does not have.
 */
export class CheckNotOnRelease extends CheckSkipped {
  constructor(
    message: string,
    /** The release that lacks the rule when it is not the judged Canton line's (`Splice 0.6.4`). */
    readonly release?: string,
  ) {
    super(message);
  }
}

/** A request got no usable response (timeout, reset, refused): the check ends as `error`. */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';
  constructor(
    message: string,
    readonly exchange: Exchange,
  ) {
    super(message);
  }
}
