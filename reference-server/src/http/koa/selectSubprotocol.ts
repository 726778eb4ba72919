/** The subprotocol the participant selects, and the name the service description uses for it. */
export const DAML_WS_AUTH = 'daml.ws.auth';
export const LEDGER_WS_AUTH = 'ledger.ws.auth';

/**
 * Picks the subprotocol to answer with. Clients offer `jwt.token.<JWT>` plus `daml.ws.auth`, and
 * fail the handshake unless the server selects the latter; a client written from the service
 * description offers `ledger.ws.auth` instead and gets that one back. Offering neither connects
 * without a subprotocol.
 */
export function selectSubprotocol(offered: ReadonlySet<string>): string | false {
  if (offered.has(DAML_WS_AUTH)) return DAML_WS_AUTH;
  if (offered.has(LEDGER_WS_AUTH)) return LEDGER_WS_AUTH;
  return false;
}

/** The offered subprotocols, in order, from a `Sec-WebSocket-Protocol` header. */
export function offeredSubprotocols(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}
