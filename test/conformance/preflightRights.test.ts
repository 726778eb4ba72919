import { describe, expect, it } from 'vitest';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import { accessOf, type OperationAccess } from '../../conformance/src/preflight/ledgerAccess.js';
import { holds, neededRights, parseRights, rightJson, type Right } from '../../conformance/src/preflight/ledgerRights.js';
import type { Profile } from '../../conformance/src/runner/profile.js';
import { ledgerApiRoutes } from '../../reference-server/src/http/api/routes/routeTable.js';

const ALICE = 'alice::1220ab';

/** What a reference route's `access` asks of a request carrying one party everywhere a party goes. */
async function accessOfRoute(access: NonNullable<(typeof ledgerApiRoutes)[number]['access']>): Promise<OperationAccess> {
  const filters = { filtersByParty: { [ALICE]: {} } };
  const body = { actAs: [ALICE], readAs: [ALICE], commands: { actAs: [ALICE] }, eventFormat: filters, updateFormat: { includeTransactions: { eventFormat: filters } }, filter: filters, parties: [ALICE], requestingParties: [ALICE], queryingParties: [ALICE], reassignmentCommands: { submitter: ALICE }, partySignatures: { signatures: [{ party: ALICE }] }, rights: [] };
  // A rule may load a module first (the interactive ones): awaited.
  const a = await access({ body, params: { 'user-id': 'someone-else' }, query: new URLSearchParams({ parties: ALICE }) });
  if (a.participantAdmin) return 'participant-admin';
  if (a.admin || a.self !== undefined) return 'admin';
  // Execute reads its parties from the signed transaction, which this request has none of: the key says it.
  if (a.actAs !== undefined || a.executeAs !== undefined) return 'submit';
  if ((a.readAs?.length ?? 0) > 0 || a.readAsAnyParty) return 'read';
  return 'public';
}

describe('the preflight knows what each ledger operation asks of the caller', () => {
  it('as the reference server enforces it, route by route', async () => {
    const differ: string[] = [];
    for (const route of ledgerApiRoutes) {
      const expected = route.access === undefined ? 'public' : await accessOfRoute(route.access);
      if (accessOf(route.operationId) !== expected) differ.push(`${route.operationId}: table ${accessOf(route.operationId)}, route ${expected}`);
    }
    expect(differ).toEqual([]);
  });
});

describe('rights', () => {
  it('reads the JSON API form and knows which right implies which', () => {
    const held = parseRights({ rights: [rightJson({ kind: 'CanActAs', party: ALICE }), rightJson({ kind: 'IdentityProviderAdmin' }), { kind: { SomethingNew: { value: {} } } }] });
    expect(held).toEqual([{ kind: 'CanActAs', party: ALICE }, { kind: 'IdentityProviderAdmin' }]);
    const cases: [Right, boolean][] = [
      [{ kind: 'CanActAs', party: ALICE }, true],
      [{ kind: 'CanReadAs', party: ALICE }, true],
      [{ kind: 'CanExecuteAs', party: ALICE }, true],
      [{ kind: 'CanActAs', party: 'bob::1220ab' }, false],
      [{ kind: 'CanReadAsAnyParty' }, false],
      [{ kind: 'ParticipantAdmin' }, false],
    ];
    for (const [right, expected] of cases) expect(holds(held, right), JSON.stringify(right)).toBe(expected);
    expect(holds([{ kind: 'CanReadAsAnyParty' }], { kind: 'CanReadAs', party: ALICE })).toBe(true);
  });

  it('the checks a profile runs need: admin to allocate its own parties, else its party, else reading for any party', () => {
    const ledger = catalogue().filter((c) => c.group === 'ledger');
    const base: Profile = { name: 'p', groups: ['ledger'], writes: true };
    const kinds = (p: Profile) => neededRights(ledger, p).map((n) => (n.right.kind === 'CanActAs' || n.right.kind === 'CanReadAs' ? `${n.right.kind} ${n.right.party}` : n.right.kind)).sort();
    expect(kinds({ ...base, ledger: { allocateParties: true } })).toEqual(['ParticipantAdmin']);
    // CanActAs implies reading as the party: one right to hold, not two.
    expect(kinds({ ...base, ledger: { party: ALICE } })).toEqual([`CanActAs ${ALICE}`, 'ParticipantAdmin']);
    expect(kinds({ ...base, writes: false, ledger: { party: ALICE } })).toEqual([`CanReadAs ${ALICE}`, 'ParticipantAdmin']);
    expect(kinds({ ...base, writes: false })).toEqual(['CanReadAsAnyParty', 'ParticipantAdmin']);
    // Only the version: nothing but a valid token.
    expect(neededRights(ledger.filter((c) => c.operationId === 'getV2Version'), { ...base, ledger: { party: ALICE } })).toEqual([]);
  });
});
