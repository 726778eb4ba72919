import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { defaultWorldPath, formatFixtureError, loadFixtures, loadWorld, parseFixtures } from '../../reference-server/src/ledger/fixtures/index.js';
import { acsIds, must } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'fixtures-'));
function file(name: string, content: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
}

function loaded(ledger: ReturnType<typeof createLedger>) {
  const r = loadWorld(ledger, defaultWorldPath());
  if (!r.ok) throw new Error(r.error.map(formatFixtureError).join('\n'));
  return r.value;
}

function errorsOf(path: string): string[] {
  const r = loadWorld(createLedger(), path);
  if (r.ok) throw new Error('expected fixture errors');
  return r.error.map(formatFixtureError);
}

describe('the default world', () => {
  it('is valid against the fixtures schema, so a start may read it without the schema (loadFixtures shipped)', () => {
    const checked = loadFixtures(defaultWorldPath());
    expect(checked.ok ? 'valid' : checked.error.map(formatFixtureError)).toBe('valid');
    expect(loadFixtures(defaultWorldPath(), { shipped: true })).toEqual(checked);
  });

  it('loads and gives a living ledger', () => {
    const ledger = createLedger();
    const w = loaded(ledger);
    const { alice, bob } = w.parties as { alice: string; bob: string };
    expect(alice).toMatch(/^alice::1220[0-9a-f]{64}$/);
    const aliceSees = acsIds(ledger, alice);
    expect(aliceSees).toContain(w.contracts['alice-asset']);
    expect(aliceSees).toContain(w.contracts['bob-asset']); // alice observes bob's asset
    expect(aliceSees).not.toContain(w.contracts['spent-asset']); // archived
    expect(acsIds(ledger, bob)).toContain(w.contracts['private-asset']);
    expect(ledger.contract(w.contracts['private-asset'] as string)?.synchronizerId).toBe(ledger.config.synchronizers[1]!.id);
    expect(must(ledger.listUserRights('auditor')).rights).toEqual([{ kind: { CanReadAsAnyParty: { value: {} } } }]);
    expect(must(ledger.getUser('participant_admin')).user.id).toBe('participant_admin');
  });

  it('declares a template whose choices work like code-defined ones', () => {
    const ledger = createLedger();
    const w = loaded(ledger);
    const { alice, bob } = w.parties as { alice: string; bob: string };
    const r = must(
      ledger.submitAndWaitForTransaction({
        commands: {
          userId: 'alice',
          commandId: 'give-ticket',
          actAs: [alice],
          commands: [{ ExerciseCommand: { templateId: '#conformance-demo:Demo.Ticket:Ticket', contractId: w.contracts.ticket as string, choice: 'Ticket_Transfer', choiceArgument: { newHolder: bob } } }],
        },
      }),
    );
    // alice's view (the default format): her ticket is archived; the new one is not hers to see.
    expect(r.transaction.events.map((e) => Object.keys(e)[0])).toEqual(['ArchivedEvent']);
    const bobs = must(ledger.activeContracts({ activeAtOffset: ledger.ledgerEnd().offset, eventFormat: { filtersByParty: { [bob]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: '#conformance-demo:Demo.Ticket:Ticket' } } } }] } } } }));
    const [ticket] = [...bobs];
    expect(ticket && 'JsActiveContract' in ticket.contractEntry && ticket.contractEntry.JsActiveContract.createdEvent.createArgument).toMatchObject({ holder: bob, seat: 'A-12' });
  });
});

describe('fixture file errors name the file, the path and the problem', () => {
  it('reports a missing file', () => {
    const r = loadFixtures(join(dir, 'nope.json'));
    expect(!r.ok && r.error.map(formatFixtureError)).toEqual([`${join(dir, 'nope.json')}: (root): file not found`]);
  });

  it('reports invalid JSON', () => {
    const r = parseFixtures('{"version": 1,', 'x.json');
    expect(!r.ok && r.error[0]?.message).toMatch(/^not valid JSON/);
  });

  it('reports structural problems with their JSON path', () => {
    const p = file('struct.json', { version: 1, parties: ['alice'], users: [{ id: 'a', rights: ['superUser'] }], contracts: [{ template: 'x', actAs: [] }] });
    const errors = errorsOf(p);
    expect(errors).toContain(`${p}: users[0].rights[0]: must be one of "participantAdmin", "identityProviderAdmin", "canReadAsAnyParty", "canExecuteAsAnyParty"`);
    expect(errors).toContain(`${p}: contracts[0]: missing property 'arguments'`);
    expect(errors.some((e) => e.startsWith(`${p}: contracts[0].actAs:`))).toBe(true);
  });

  it('reports unknown properties', () => {
    const p = file('unknown.json', { version: 1, partys: [] });
    expect(errorsOf(p)).toEqual([`${p}: (root): unknown property 'partys' (did you mean 'parties'?)`]);
  });

  it('suggests the property meant, also deep in the file, and nothing when none is close', () => {
    const p = file('unknown-deep.json', { version: 1, users: [{ id: 'u', primaryPary: 'x' }], contracts: [{ template: 't', actAs: [], arguments: {}, zzzzzzzz: 1 }] });
    const errors = errorsOf(p);
    expect(errors).toContain(`${p}: users[0]: unknown property 'primaryPary' (did you mean 'primaryParty'?)`);
    expect(errors).toContain(`${p}: contracts[0]: unknown property 'zzzzzzzz'`);
  });

  it("a typo in a template is reported once, there, and its contracts' own mistakes are still reported", () => {
    const p = file('typo.json', {
      version: 1,
      parties: ['bank', 'alice'],
      templates: [{ packageName: 'my-app', module: 'Main', entity: 'Iou', fields: { issuer: 'Party', owner: 'Party', amount: 'Numeric' }, signatories: ['isuer'] }],
      contracts: [
        { template: '#my-app:Main:Iou', actAs: ['bank'], arguments: { issuer: 'bank', owner: 'alice', amount: '1' } },
        { template: '#my-app:Main:Iou', actAs: ['bank'], arguments: { issuer: 'bank', owner: 'alice', amont: '1' } },
        { template: '#my-app:Main:Iuo', actAs: ['bank'], arguments: {} },
      ],
    });
    const errors = errorsOf(p);
    expect(errors).toEqual([
      `${p}: templates[0].signatories[0]: 'isuer' is not a field of the template (did you mean 'issuer'?)`,
      `${p}: contracts[1].arguments: missing field 'amount'`,
      `${p}: contracts[1].arguments.amont: unknown field 'amont' (did you mean 'amount'?)`,
      expect.stringMatching(new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: contracts\\[2\\]\\.template: .*\\(did you mean '#my-app:Main:Iou'\\?\\)$`)),
    ]);
  });

  it('reports template declarations that do not hold together', () => {
    const p = file('tpl.json', {
      version: 1,
      templates: [
        {
          packageName: 'my-app',
          module: 'Main',
          entity: 'Iou',
          fields: { issuer: 'Party', owner: 'Party', note: 'Text' },
          signatories: ['issuer', 'note'],
          observers: ['ghost'],
          key: { fields: ['issuer'], maintainers: ['owner'] },
          choices: {
            Give: { consuming: true, controllers: [{ $arg: 'to' }], argument: { newOwner: 'Party' }, creates: [{ template: '#my-app:Main:Nope', arguments: {} }] },
          },
        },
      ],
    });
    const errors = errorsOf(p);
    expect(errors).toContain(`${p}: templates[0].signatories[1]: field 'note' must be a Party or a list of parties`);
    expect(errors).toContain(`${p}: templates[0].observers[0]: 'ghost' is not a field of the template`);
    expect(errors).toContain(`${p}: templates[0].key.maintainers[0]: maintainer 'owner' must be one of the key fields`);
    expect(errors).toContain(`${p}: templates[0].choices.Give.controllers[0]: 'to' is not a field of the choice argument`);
  });

  it('reports choices creating unknown templates', () => {
    const p = file('creates.json', {
      version: 1,
      templates: [
        {
          packageName: 'my-app',
          module: 'Main',
          entity: 'Iou',
          fields: { issuer: 'Party' },
          signatories: ['issuer'],
          choices: { Convert: { consuming: true, controllers: ['issuer'], creates: [{ template: '#my-app:Main:Nope', arguments: {} }] } },
        },
      ],
    });
    expect(errorsOf(p)).toEqual([`${p}: templates[0].choices.Convert.creates[0].template: unknown template '#my-app:Main:Nope'`]);
  });

  it('reports contracts the ledger refuses, with the ledger error', () => {
    const p = file('contracts.json', {
      version: 1,
      parties: ['alice', 'bank'],
      contracts: [
        { template: '#canton-conformance-samples:Sample.Asset:Asset', actAs: ['alice'], arguments: { issuer: 'bank', owner: 'alice', amount: '1' } },
        { template: '#canton-conformance-samples:Sample.Asset:Asset', actAs: ['bank'], arguments: { issuer: 'bank', owner: 'zed', amount: '1' } },
        { template: '#canton-conformance-samples:Sample.Asset:Asset', actAs: ['bank'], arguments: { issuer: 'bank', owner: 'alice' } },
        { template: '#canton-conformance-samples:Sample.Asset:Asset', actAs: ['bank'], arguments: { issuer: 'bank', owner: { $party: 'nobody' }, amount: '1' } },
      ],
    });
    const errors = errorsOf(p);
    expect(errors[0]).toMatch(new RegExp(`^${p}: contracts\\[0\\]: DAML_AUTHORIZATION_ERROR: `));
    expect(errors[1]).toMatch(/contracts\[1\]: COMMAND_PREPROCESSING_FAILED: .*owner: invalid party id 'zed'/);
    expect(errors[2]).toMatch(/contracts\[2\]: COMMAND_PREPROCESSING_FAILED: .*missing non-optional field 'amount'/);
    expect(errors[3]).toBe(`${p}: contracts[3].arguments.owner: unknown party 'nobody' (declare it under "parties")`);
  });
});

describe('templates declared in a fixture file', () => {
  it('behave as declared: fields, key, choices that create and archive', () => {
    const p = file('iou.json', {
      version: 1,
      templates: [
        {
          packageName: 'my-app',
          module: 'Main',
          entity: 'Iou',
          fields: { issuer: 'Party', owner: 'Party', amount: 'Numeric', tags: { list: 'Text' }, note: { optional: 'Text' } },
          signatories: ['issuer'],
          observers: ['owner'],
          key: { fields: ['issuer', 'tags'], maintainers: ['issuer'] },
          choices: {
            Iou_Transfer: { consuming: true, argument: { newOwner: 'Party' }, controllers: ['owner'], creates: [{ template: 'self', set: { owner: { $arg: 'newOwner' } } }] },
            Iou_Settle: { consuming: true, controllers: ['issuer', { $self: 'owner' }] },
          },
        },
      ],
      parties: ['alice', 'bob', 'bank'],
      contracts: [{ id: 'iou', template: '#my-app:Main:Iou', actAs: ['bank'], arguments: { issuer: 'bank', owner: 'alice', amount: '10', tags: ['x'] } }],
    });
    const ledger = createLedger();
    const w = loadWorld(ledger, p);
    if (!w.ok) throw new Error(w.error.map(formatFixtureError).join('\n'));
    const { alice, bob, bank } = w.value.parties as { alice: string; bob: string; bank: string };
    const iou = w.value.contracts.iou as string;
    expect(ledger.contract(iou)?.argument).toEqual({ issuer: bank, owner: alice, amount: '10.0000000000', tags: ['x'], note: null });
    const give = must(
      ledger.submitAndWaitForTransaction({
        commands: {
          userId: 'alice',
          commandId: 'give',
          actAs: [alice],
          commands: [{ ExerciseByKeyCommand: { templateId: '#my-app:Main:Iou', contractKey: { issuer: bank, tags: ['x'] }, choice: 'Iou_Transfer', choiceArgument: { newOwner: bob } } }],
        },
        transactionFormat: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
      }),
    );
    const [ex, created] = give.transaction.events;
    const newIou = created && 'CreatedEvent' in created ? created.CreatedEvent.contractId : '';
    expect(ex && 'ExercisedEvent' in ex && ex.ExercisedEvent.exerciseResult).toBe(newIou);
    const settle = { ExerciseCommand: { templateId: '#my-app:Main:Iou', contractId: newIou, choice: 'Iou_Settle', choiceArgument: {} } };
    expect(ledger.submitAndWait({ userId: 'bob', commandId: 's1', actAs: [bob], commands: [settle] }).ok).toBe(false);
    must(ledger.submitAndWait({ userId: 'bob', commandId: 's2', actAs: [bob, bank], commands: [settle] }));
    expect(ledger.isActive(newIou)).toBe(false);
  });
});
