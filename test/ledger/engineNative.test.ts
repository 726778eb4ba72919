import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QualifiedName } from '../../daml-engine/ast/Type.js';
import { createCommand, exerciseCommand } from '../../daml-engine/update/UpdateEngine.js';
import type { Value } from '../../daml-engine/value/Value.js';
import type { Ledger } from '../../reference-server/src/ledger/index.js';
import { DARS_DIR, HAS_DARS, loadDar } from '../daml/damlFixtures.js';
import { must, refused, world } from './helpers.js';

function setup(dar: string) {
  const w = world();
  must(w.ledger.uploadDar(readFileSync(join(DARS_DIR, dar)), { synchronizerId: w.ledger.config.synchronizers[0]!.id }));
  return { ...w, packages: loadDar(dar).dar.packages };
}
const valueOf = (ledger: Ledger, tycon: QualifiedName, json: unknown): Value => {
  const r = ledger.engine.value({ kind: 'con', tycon, args: [] }, json);
  if (!r.ok) throw new Error(JSON.stringify(r.problem));
  return r.value;
};

describe.runIf(HAS_DARS)('the engine-native entry of the ledger core (needs ../shared/upstream/daml/dars)', () => {
  it('submits engine commands, answers engine results and commits what the JSON API then shows', () => {
    const { ledger, bank: provider, alice: user, packages } = setup('splice/splitwell-0.1.23.dar');
    const main = packages[0]!.id;
    const tpl = (name: string): QualifiedName => ({ packageId: main, module: 'Splice.Splitwell', name });
    const rules = must(ledger.submitEngineCommands({ actAs: [provider], commands: [createCommand(tpl('SplitwellRules'), valueOf(ledger, tpl('SplitwellRules'), { provider }))] }));
    expect(rules.results[0]).toMatchObject({ kind: 'contractId' });
    const rulesId = (rules.results[0] as { value: string }).value;
    expect(rules.transaction.nodes[0]).toMatchObject({ kind: 'create', contractId: rulesId });

    const arg = { kind: 'record', tycon: { packageId: main, module: 'Splice.Splitwell', name: 'SplitwellRules_RequestInstall' }, fieldNames: ['user'], fields: [{ kind: 'party', value: user }] } as Value;
    refused(ledger.submitEngineCommands({ actAs: [provider], commands: [exerciseCommand(tpl('SplitwellRules'), rulesId, 'SplitwellRules_RequestInstall', arg)] }), 'DAML_AUTHORIZATION_ERROR');
    const request = must(ledger.submitEngineCommands({ actAs: [user], readAs: [provider], commands: [exerciseCommand(tpl('SplitwellRules'), rulesId, 'SplitwellRules_RequestInstall', arg)] }));
    const requestId = (request.results[0] as { value: string }).value;

    const active = ledger.activeEngineContracts(tpl('SplitwellInstallRequest'), [user]);
    expect(active.map((c) => c.contractId)).toEqual([requestId]);
    expect(active[0]!.argument).toMatchObject({ kind: 'record', fields: [{ kind: 'party', value: provider }, { kind: 'party', value: user }] });
    expect(ledger.activeEngineContracts(tpl('SplitwellInstallRequest'), [ledger.config.participantId])).toEqual([]);
    const seen = must(ledger.updateById({ updateId: request.updateId, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [user]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }));
    expect(JSON.stringify(seen)).toContain(requestId);
  });

  it('reads the contracts of an interface with their views as engine values', () => {
    const { ledger, alice, bank, packages } = setup('splice/splice-test-token-v1-1.0.0.dar');
    const main = packages[0]!.id;
    const token: QualifiedName = { packageId: main, module: 'Splice.Testing.Tokens.TestTokenV1', name: 'Token' };
    const holding = { owner: alice, instrumentId: { admin: bank, id: 'T' }, amount: '3.0', lock: null, meta: { values: {} } };
    must(ledger.submitEngineCommands({ actAs: [alice, bank], commands: [createCommand(token, valueOf(ledger, token, { holding }))] }));
    const iface: QualifiedName = { packageId: packages.find((p) => p.metadata?.name === 'splice-api-token-holding-v1')!.id, module: 'Splice.Api.Token.HoldingV1', name: 'Holding' };
    const holdings = ledger.activeEngineContracts(iface, [alice]);
    expect(holdings).toHaveLength(1);
    expect(holdings[0]!.templateId).toEqual(token);
    expect(holdings[0]!.view).toMatchObject({ kind: 'record', fieldNames: ['owner', 'instrumentId', 'amount', 'lock', 'meta'] });
  });
});

describe('the engine-native entry: a static-time caller\'s ledger time', () => {
  it('must lie within the ledger clock\'s millisecond (the clock follows the caller\'s time)', () => {
    const { ledger, clock, alice } = world();
    const micros = BigInt(clock.now()) * 1000n;
    const e = refused(ledger.submitEngineCommands({ actAs: [alice], commands: [], ledgerTime: micros + 1000n }), 'INVALID_ARGUMENT');
    expect(e.cause).toContain(`ledger time ${micros + 1000n} µs is not within the ledger clock's millisecond ${clock.now()}`);
    // Within the millisecond, the time is accepted (the empty command list is then the refusal).
    refused(ledger.submitEngineCommands({ actAs: [alice], commands: [], ledgerTime: micros + 999n }), 'COMMAND_PREPROCESSING_FAILED');
  });
});
