import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Ledger } from '../../reference-server/src/ledger/index.js';
import { DARS_DIR, HAS_DARS, loadDar } from '../daml/damlFixtures.js';
import { must, nextCommandId, world } from './helpers.js';

const RIGHT = '#splice-amulet:Splice.Amulet:FeaturedAppRight';
const OLD = 'history/splice-amulet-0.1.8.dar';
const NEW = 'history/splice-amulet-0.1.9.dar';

function createdPackage(ledger: Ledger, dso: string, provider: string, extra: Record<string, unknown> = {}): string {
  const tx = must(ledger.submitAndWaitForTransaction({
    commands: { userId: 'tester', commandId: nextCommandId(), actAs: [dso], commands: [{ CreateCommand: { templateId: RIGHT, createArguments: { dso, provider } } }], ...extra },
  })).transaction;
  return (tx.events[0] as { CreatedEvent: { templateId: string } }).CreatedEvent.templateId.split(':')[0] as string;
}

describe.runIf(HAS_DARS)('package-name template ids run as Canton selects the package (needs ../shared/upstream/daml/dars)', () => {
  it('the highest vetted version, unless packageIdSelectionPreference names another; unvetting moves the choice', () => {
    const { ledger, bank: dso, alice: provider } = world();
    const sync = ledger.config.synchronizers[0]!.id;
    for (const dar of [OLD, NEW]) must(ledger.uploadDar(readFileSync(join(DARS_DIR, dar)), { synchronizerId: sync }));
    const oldId = loadDar(OLD).dar.main.id;
    const newId = loadDar(NEW).dar.main.id;
    expect(createdPackage(ledger, dso, provider)).toBe(newId);
    expect(createdPackage(ledger, dso, provider, { packageIdSelectionPreference: [oldId] })).toBe(oldId);
    must(ledger.updateVettedPackages({ changes: [{ operation: { Unvet: { value: { packages: [{ packageId: newId }] } } } }], synchronizerId: sync } as never));
    expect(createdPackage(ledger, dso, provider)).toBe(oldId);
    // A filter by package name matches the template in every version of the package.
    const acs = [...must(ledger.activeContracts({
      activeAtOffset: ledger.ledgerEnd().offset,
      eventFormat: { filtersByParty: { [provider]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: RIGHT, includeCreatedEventBlob: false } } } }] } } },
    }))];
    const packagesSeen = acs.map((e) => (e.contractEntry as unknown as { JsActiveContract: { createdEvent: { templateId: string } } }).JsActiveContract.createdEvent.templateId.split(':')[0]);
    expect(packagesSeen.sort()).toEqual([newId, oldId, oldId].sort());
  });
  it('a selection remembered between commands follows each later upload and vetting change', () => {
    const { ledger, bank: dso, alice: provider } = world();
    const sync = ledger.config.synchronizers[0]!.id;
    const oldId = loadDar(OLD).dar.main.id;
    const newId = loadDar(NEW).dar.main.id;
    must(ledger.uploadDar(readFileSync(join(DARS_DIR, OLD)), { synchronizerId: sync }));
    expect(createdPackage(ledger, dso, provider)).toBe(oldId);
    expect(createdPackage(ledger, dso, provider)).toBe(oldId);
    must(ledger.uploadDar(readFileSync(join(DARS_DIR, NEW)), { synchronizerId: sync }));
    expect(createdPackage(ledger, dso, provider)).toBe(newId);
    must(ledger.updateVettedPackages({ changes: [{ operation: { Unvet: { value: { packages: [{ packageId: newId }] } } } }], synchronizerId: sync } as never));
    expect(createdPackage(ledger, dso, provider)).toBe(oldId);
    must(ledger.updateVettedPackages({ changes: [{ operation: { Vet: { value: { packages: [{ packageId: newId }] } } } }], synchronizerId: sync } as never));
    expect(createdPackage(ledger, dso, provider)).toBe(newId);
  });
});
