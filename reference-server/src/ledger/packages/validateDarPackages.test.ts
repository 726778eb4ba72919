import { createHash } from 'node:crypto';
import { BinaryWriter, WireType } from '@protobuf-ts/runtime';
import { describe, expect, it } from 'vitest';
import { buildDalf } from '../../../../conformance/src/generators/dar.js';
import type { DarPackage } from './readDar.js';
import { validateDarPackages } from './validateDarPackages.js';

const darPackage = (payload: Uint8Array, name = 'p', version = '1.0.0'): DarPackage =>
  ({ packageId: createHash('sha256').update(payload).digest('hex'), packageName: name, packageVersion: version, payload, lfVersion: undefined });

describe('validateDarPackages', () => {
  it('accepts a well-formed package and gives it decoded', () => {
    const dalf = buildDalf({ name: 'cc-ok', version: '1.0.0' });
    const r = validateDarPackages([darPackage(dalf.payload)], () => undefined);
    expect(r).toMatchObject({ ok: true, value: [{ id: dalf.packageId, metadata: { name: 'cc-ok', version: '1.0.0' } }] });
  });

  it('refuses a payload the decoder cannot read as DAR_PARSE_ERROR, naming the package', () => {
    const payload = new BinaryWriter().tag(3, WireType.LengthDelimited).string('99').tag(4, WireType.LengthDelimited).bytes(new Uint8Array(0)).finish();
    const p = darPackage(payload);
    expect(validateDarPackages([p], () => undefined)).toMatchObject({
      ok: false, error: { code: 'DAR_PARSE_ERROR', context: { packageId: p.packageId, reason: expect.stringMatching(/Daml-LF 2\.99/) } },
    });
  });

  it('an unexpected exception while checking is a refusal, not a crash', () => {
    const dalf = buildDalf({ name: 'cc-throws', version: '1.0.0' });
    // A lookup that throws stands for any bug below: the upload must still answer cleanly.
    const badKnown = validateDarPackages([darPackage(dalf.payload)], (id) => (id === dalf.packageId ? (() => { throw new TypeError('boom'); })() : undefined));
    expect(badKnown).toMatchObject({ ok: false, error: { code: 'DAR_VALIDATION_ERROR', context: { validationError: expect.stringMatching(/TypeError: boom/) } } });
  });
});
