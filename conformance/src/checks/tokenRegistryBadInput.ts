import { expectStatus, objectBody, type Json } from './support/expect.js';
import { accountOf, allocationArgs, allocationArgsV2, expectRefusedOrUnread, post, serves, UNREAD_ARGUMENTS } from './tokenRegistry.js';
import type { CheckDefinition } from './types.js';

/**
 * Bad input to the allocation factory: amounts that are not a positive Daml Numeric 10,
 * an instrument the registry does not administer, a receiver that is not a party id and oversized
 * metadata in the transfer leg are refused with 400 and an ErrorResponse, or not read (the factory
 * answered for valid arguments: Splice Scan's allocation factories read no argument, the Daml
 * choice refuses them), on every version served.
 */
export const tokenRegistryBadInputChecks: readonly CheckDefinition[] = [
  {
    id: 'registry.allocation-factory.bad-input-400',
    title: 'Allocation factory: malformed, negative or zero amounts, unknown instruments, non-party receivers and oversized metadata get 400, or the same factory as valid arguments (not read), never a 5xx',
    group: 'registry',
    operationId: 'getAllocationFactoryV1',
    level: 'MUST',
    kind: 'negative',
    specRef: 'token standard: allocation-instruction-v1/v2 getAllocationFactory 400; Daml Numeric 10 amounts; Splice Scan HttpTokenStandardAllocationInstructionHandler.getAllocationFactory (reads no choice argument)',
    async run(ctx) {
      const versions = (['v1', 'v2'] as const).filter((v) => (ctx.profile.registry?.apis ?? ['allocation-instruction-v2']).includes(`allocation-instruction-${v}`));
      if (versions.length === 0) serves(ctx, 'allocation-instruction-v1'); // skips, saying why
      const base = await allocationArgs(ctx);
      const leg = (base.allocation as Json).transferLeg as Json;
      const { admin } = leg.instrumentId as Json;
      const bad: [string, Json][] = [
        ['an amount with 11 decimals', { amount: '1.00000000001' }],
        ['a negative amount', { amount: '-5.0' }],
        ['a zero amount', { amount: '0.0' }],
        ['NaN as an amount', { amount: 'NaN' }],
        ['an amount with an exponent', { amount: '1e3' }],
        ['an unknown instrument', { instrumentId: { admin, id: ctx.unique('no-such-instrument') } }],
        ['a receiver that is not a party id', { receiver: 'not-a-party' }],
        ['oversized metadata', { meta: { values: { memo: 'x'.repeat(20_000) } } }],
      ];
      for (const v of versions) {
        // v2 legs are sides of an account: the receiver is the other side's owner, the instrument an id under the allocation's admin.
        const base2 = v === 'v2' ? await allocationArgsV2(ctx, { authorizer: String(leg.sender), other: String(leg.receiver), executor: String(leg.receiver), settlementId: ctx.unique('cc-settlement') }) : undefined;
        const path = `/registry/allocation-instruction/${v}/allocation-factory`;
        const valid = await post(ctx, path, { choiceArguments: base2 ?? base }, `getAllocationFactory${v.toUpperCase()}`);
        expectStatus(ctx, valid, 200, `allocation factory ${v} with valid arguments (the control)`);
        const { factoryId } = objectBody(ctx, valid, `allocation factory ${v}`);
        for (const [why, change] of bad) {
          const args = base2 === undefined ? { ...base, allocation: { ...(base.allocation as Json), transferLeg: { ...leg, ...change } } } : withSide(base2, change);
          const e = await post(ctx, path, { choiceArguments: args }, `getAllocationFactory${v.toUpperCase()}`, UNREAD_ARGUMENTS);
          expectRefusedOrUnread(ctx, e, `allocation factory ${v} with ${why}`, factoryId);
        }
      }
    },
  },
];

/** A v1 leg change applied to a v2 allocation's one leg side. */
function withSide(args: Json, change: Json): Json {
  const allocation = args.allocation as Json;
  const side = (allocation.transferLegSides as Json[])[0] as Json;
  const { receiver, instrumentId, ...rest } = change;
  const next: Json = { ...side, ...rest };
  if (receiver !== undefined) next.otherside = accountOf(String(receiver));
  if (instrumentId !== undefined) next.instrumentId = (instrumentId as Json).id;
  return { ...args, allocation: { ...allocation, transferLegSides: [next] } };
}
