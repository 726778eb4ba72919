import type { TransportError, TransportErrorKind } from './exchange.js';

/** Maps what fetch/ws throw to a small, stable vocabulary (Node reports codes on `cause`). */
export function transportErrorOf(e: unknown, timedOut: boolean, timeoutMs: number): TransportError {
  if (timedOut) return { kind: 'timeout', message: `no complete response within ${timeoutMs} ms` };
  const err = e as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  const code = err.cause?.code ?? err.code ?? '';
  const detail = err.cause?.message ?? err.message ?? String(e);
  const kind: TransportErrorKind =
    code === 'ECONNREFUSED'
      ? 'refused'
      : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE'
        ? 'reset'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'dns'
          : /terminated|premature close|other side closed/i.test(detail) || /terminated/i.test(err.message ?? '')
            ? 'aborted-body'
            : 'other';
  const label: Record<TransportErrorKind, string> = {
    timeout: 'timed out',
    refused: 'connection refused',
    reset: 'connection reset by the target',
    'aborted-body': 'the target closed the connection before the body was complete',
    dns: 'host name does not resolve',
    other: 'request failed',
  };
  return { kind, message: `${label[kind]}${code ? ` (${code})` : ''}: ${detail}` };
}
