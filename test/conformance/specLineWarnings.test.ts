import { describe, expect, it } from 'vitest';
import { specLineWarnings } from '../../conformance/src/runner/warnings.js';

/** A `--spec` document of another Canton line than the target's: its schema failures are the document's, and the run says so. */
describe('--spec of another Canton line', () => {
  it("warns when the document's info.version names another line than the one the target is judged by, and only then", () => {
    const older = specLineWarnings(['specs/ledger.3.4.openapi.yaml'], '3.5');
    expect(older).toHaveLength(1);
    expect(older[0]).toMatch(/^--spec specs\/ledger\.3\.4\.openapi\.yaml describes Canton 3\.4 \(info\.version 3\.4\.0\), but the target is judged as Canton 3\.5: .*give the document of the target's line$/);
    expect(specLineWarnings(['specs/ledger.3.5.openapi.yaml', 'specs/ledger.openapi.yaml'], '3.5')).toEqual([]);
    expect(specLineWarnings(['specs/ledger.3.6.openapi.yaml'], '3.6')).toEqual([]);
    // No line to compare with (no ledger group), or a document that is not a Canton line's (the registry's): nothing said.
    expect(specLineWarnings(['specs/ledger.3.4.openapi.yaml'], undefined)).toEqual([]);
    expect(specLineWarnings(['specs/registry.openapi.yaml'], '3.5')).toEqual([]);
  });
});
