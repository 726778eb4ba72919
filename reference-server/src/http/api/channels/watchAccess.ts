import { ledgerError, type LedgerError } from '../../../ledger/errors.js';
import type { Ledger } from '../../../ledger/index.js';
import type { Principal } from '../auth/types.js';

/** Timers further out than this are re-armed rather than set (setTimeout's limit is ~24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Keeps checking, for as long as a stream is open, that its caller may still read it, as a
 * participant does (Canton's ongoing stream authorization): any change of the user's rights, its
 * deletion or its deactivation ends the stream with STALE_STREAM_AUTHORIZATION (the client
 * reconnects and is checked afresh), and the token's expiry ends it with PERMISSION_DENIED.
 * `onLost` is called at most once; `close` stops watching. The unsecured sandbox has nothing to lose.
 */
export function watchAccess(
  principal: Principal,
  ledger: Pick<Ledger, 'onUserChange' | 'userAccessState'>,
  onLost: (error: LedgerError) => void,
  now: () => number = Date.now,
): { close(): void } {
  if (principal.kind === 'wildcard') return { close: () => undefined };
  const { userId, validUntilMs } = principal;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const lose = (error: LedgerError) => {
    if (closed) return;
    close();
    onLost(error);
  };
  const initial = ledger.userAccessState(userId);
  const unsubscribe = ledger.onUserChange((changed) => {
    if (changed !== userId) return;
    if (ledger.userAccessState(userId) !== initial) lose(ledgerError('STALE_STREAM_AUTHORIZATION', 'Stale stream authorization. Retry quickly.', { definiteAnswer: false }));
  });
  const armExpiry = () => {
    if (validUntilMs === undefined) return;
    const left = validUntilMs - now();
    if (left <= 0) {
      lose(
        ledgerError(
          'PERMISSION_DENIED',
          `The provided authorization token is not sufficient to authorize the intended command: Claims were valid until ${new Date(validUntilMs).toISOString()}, current time is ${new Date(now()).toISOString()}`,
        ),
      );
      return;
    }
    timer = setTimeout(armExpiry, Math.min(left, MAX_TIMER_MS));
  };
  const close = () => {
    closed = true;
    clearTimeout(timer);
    unsubscribe();
  };
  armExpiry();
  return { close };
}
