import { PREVIEW_OPERATIONS } from '../../conformance/src/schema/cantonVersions.js';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import type { Group } from '../../conformance/src/checks/types.js';
import { findOperation } from '../../conformance/src/schema/index.js';
import type { Mutant } from './mutants.js';
import { pathOf } from './mutantProxy.js';

/**
 * One generated mutant per schema observer that no hand-written mutant proves: every response of
 * that operation is labelled with a content type the spec does not declare (a bodiless 200, such
 * as /livez, becomes a 204, which it does not declare either). Its observer must
 * fail, which proves two things: the observer judges that operation, and the operation is really
 * called by a behaviour check of the default run (an observer that sees nothing skips, and the
 * mutant survives).
 */
export function schemaMutants(handWritten: readonly Mutant[]): Mutant[] {
  const caught = new Set(handWritten.map((m) => m.caughtBy));
  return catalogue()
    .filter((c) => c.observer === true && !caught.has(c.id))
    .map((c) => ({
      name: `schema-${c.id}`,
      description: `every ${c.operationId} response comes as application/x-undeclared (or 204 where it has no body)`,
      caughtBy: c.id,
      // An operation only 3.6 has is exercised on the reference serving 3.6 only.
      ...(PREVIEW_OPERATIONS.includes(c.operationId) ? { line: '3.6' as const } : {}),
      fault: {
        response: (req, res) => {
          if (findOperation(req.method, pathOf(req.url), c.group as Group)?.operationId !== c.operationId) return res;
          return res.body === '' && res.status === 200 ? { ...res, status: 204 } : { ...res, headers: { ...res.headers, 'content-type': 'application/x-undeclared' } };
        },
      },
    }));
}
