import type { Response } from 'supertest';
import { expect } from 'vitest';
import { validateResponse } from '../../../conformance/src/schema/index.js';

/**
 * Asserts a response matches specs/ledger.openapi.yaml for the request that produced it: status
 * declared, content type declared, body valid. Returns the response for chaining.
 */
export function expectConforms(res: Response, method: string, path: string): Response {
  const result = validateResponse({
    spec: 'ledger',
    method,
    path,
    status: res.status,
    contentType: res.headers['content-type'],
    body: res.text === '' ? undefined : res.text,
  });
  expect(result.ok ? [] : result.problems, `${method} ${path} -> ${res.status} ${res.text.slice(0, 300)}`).toEqual([]);
  return res;
}
