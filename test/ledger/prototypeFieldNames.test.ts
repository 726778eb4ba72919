import { describe, expect, it } from 'vitest';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import type { DamlRecord } from '../../reference-server/src/ledger/wire.js';
import { nextCommandId, refused, world } from './helpers.js';

/** The names every JavaScript object answers to through its prototype. */
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe('record fields named like Object.prototype members', () => {
  it('are refused like any unknown field, not silently dropped', () => {
    const { ledger, alice, bank } = world();
    for (const name of PROTOTYPE_NAMES) {
      // Parsed from JSON, as the HTTP face does: `__proto__` becomes an own property there.
      const createArguments = JSON.parse(`{"issuer":${JSON.stringify(bank)},"owner":${JSON.stringify(alice)},"amount":"1",${JSON.stringify(name)}:{}}`) as DamlRecord;
      const error = refused(
        ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments } }] }),
        'COMMAND_PREPROCESSING_FAILED',
      );
      expect(error.cause, name).toContain(`unexpected field '${name}'`);
    }
  });
});
