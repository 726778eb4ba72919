import type { Catalogue } from '../ledger/templates/Catalogue.js';
import type { DamlRecord } from '../ledger/wire.js';

export const PING_PACKAGE = 'canton-builtin-admin-workflow-ping';
export const PING_TEMPLATE = `#${PING_PACKAGE}:Canton.Internal.Ping:Ping`;

/**
 * Canton's built-in `Canton.Internal.Ping:Ping`, vetted on every participant (the wallet guide's
 * first script creates one): `{id: Text, initiator: Party, responder: Party}`, signatory
 * initiator, observer responder; `Respond` (controller responder) and `AbortPing {anyone}`
 * (controller anyone), both consuming and returning Unit, as in Canton 3.x. Idempotent.
 */
export function registerPingTemplate(catalogue: Catalogue): void {
  if (catalogue.resolve(PING_TEMPLATE).ok) return;
  const added = catalogue.addTemplate({
    packageName: PING_PACKAGE,
    module: 'Canton.Internal.Ping',
    entity: 'Ping',
    fields: { id: 'Text', initiator: 'Party', responder: 'Party' },
    signatories: ['initiator'],
    observers: ['responder'],
    choices: {
      Respond: { consuming: true, controllers: (self) => [self.argument.responder as string] },
      AbortPing: {
        consuming: true,
        argument: { record: { anyone: 'Party' } },
        controllers: (_self, arg) => [(arg as DamlRecord).anyone as string],
      },
    },
  });
  if (!added.ok) throw new Error(`the Ping template cannot be declared: ${added.error.cause}`);
}
