/**
 * Package-name template ids (`#name:Module:Entity`) select the package as Canton does, on two
 * versions of one package the test builds itself (test/daml/samplePackage.ts's builder).
 */
import { describe, expect, it } from 'vitest';

import type { BuiltPackage } from '../../daml-engine/build/PackageBuilder.js';
import { PackageBuilder } from '../../daml-engine/build/PackageBuilder.js';
import { E } from '../../daml-engine/build/E.js';
import { T } from '../../daml-engine/build/T.js';
import type { Ledger } from '../../reference-server/src/ledger/index.js';
import { must, nextCommandId, world } from './helpers.js';

const NAME = 'conformance-selection';
const RIGHT = `#${NAME}:Selection.Main:Right`;

/** Version `version` of one package: the same template (a valid upgrade), a value that differs. */
function version(version: string, upgradedPackageId?: string): BuiltPackage {
  const b = new PackageBuilder({ name: NAME, version, upgradedPackageId });
  const m = b.module('Selection.Main');
  m.template('Right', {
    fields: { dso: T.party, provider: T.party },
    signatories: (t) => E.list(T.party, [t.field('dso')]),
    observers: (t) => E.list(T.party, [t.field('provider')]),
  });
  m.value('version', T.text, E.text(version));
  return b.build();
}
const OLD = version('1.0.0');
const NEW = version('1.1.0', OLD.id);

function createdPackage(ledger: Ledger, dso: string, provider: string, extra: Record<string, unknown> = {}): string {
  const tx = must(ledger.submitAndWaitForTransaction({
    commands: { userId: 'tester', commandId: nextCommandId(), actAs: [dso], commands: [{ CreateCommand: { templateId: RIGHT, createArguments: { dso, provider } } }], ...extra },
  })).transaction;
  return (tx.events[0] as { CreatedEvent: { templateId: string } }).CreatedEvent.templateId.split(':')[0] as string;
}

describe('package-name template ids run as Canton selects the package', () => {
  it('the highest vetted version, unless packageIdSelectionPreference names another; unvetting moves the choice', () => {
    const { ledger, bank: dso, alice: provider } = world();
    const sync = ledger.config.synchronizers[0]!.id;
    for (const built of [OLD, NEW]) must(ledger.uploadDar(built.dar(), { synchronizerId: sync }));
    expect(createdPackage(ledger, dso, provider)).toBe(NEW.id);
    expect(createdPackage(ledger, dso, provider, { packageIdSelectionPreference: [OLD.id] })).toBe(OLD.id);
    must(ledger.updateVettedPackages({ changes: [{ operation: { Unvet: { value: { packages: [{ packageId: NEW.id }] } } } }], synchronizerId: sync } as never));
    expect(createdPackage(ledger, dso, provider)).toBe(OLD.id);
    // A filter by package name matches the template in every version of the package.
    const acs = [...must(ledger.activeContracts({
      activeAtOffset: ledger.ledgerEnd().offset,
      eventFormat: { filtersByParty: { [provider]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: RIGHT, includeCreatedEventBlob: false } } } }] } } },
    }))];
    const packagesSeen = acs.map((e) => (e.contractEntry as unknown as { JsActiveContract: { createdEvent: { templateId: string } } }).JsActiveContract.createdEvent.templateId.split(':')[0]);
    expect(packagesSeen.sort()).toEqual([NEW.id, OLD.id, OLD.id].sort());
  });
  it('a selection remembered between commands follows each later upload and vetting change', () => {
    const { ledger, bank: dso, alice: provider } = world();
    const sync = ledger.config.synchronizers[0]!.id;
    must(ledger.uploadDar(OLD.dar(), { synchronizerId: sync }));
    expect(createdPackage(ledger, dso, provider)).toBe(OLD.id);
    expect(createdPackage(ledger, dso, provider)).toBe(OLD.id);
    must(ledger.uploadDar(NEW.dar(), { synchronizerId: sync }));
    expect(createdPackage(ledger, dso, provider)).toBe(NEW.id);
    must(ledger.updateVettedPackages({ changes: [{ operation: { Unvet: { value: { packages: [{ packageId: NEW.id }] } } } }], synchronizerId: sync } as never));
    expect(createdPackage(ledger, dso, provider)).toBe(OLD.id);
    must(ledger.updateVettedPackages({ changes: [{ operation: { Vet: { value: { packages: [{ packageId: NEW.id }] } } } }], synchronizerId: sync } as never));
    expect(createdPackage(ledger, dso, provider)).toBe(NEW.id);
  });
});
