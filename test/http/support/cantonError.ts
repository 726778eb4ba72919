import { expect } from 'vitest';

/** Asserts a parsed body is a participant-style JsCantonError with this code (explicit nulls included). */
export function expectCantonError(body: unknown, code: string, cause?: RegExp | string): void {
  expect(body).toMatchObject({
    code,
    correlationId: expect.toSatisfy((v: unknown) => v === null || typeof v === 'string'),
    traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
    context: expect.objectContaining({ participant: expect.any(String), category: expect.any(String), tid: expect.any(String) }),
    resources: expect.any(Array),
    errorCategory: expect.any(Number),
    grpcCodeValue: expect.any(Number),
  });
  // The category's retry duration (the JSON API's retryInfo): transient, contention and deadline categories only.
  const { errorCategory, retryInfo } = body as { errorCategory: number; retryInfo: unknown };
  expect(retryInfo).toBe([1, 2, 3].includes(errorCategory) ? '1 second' : null);
  if (cause !== undefined) expect((body as { cause: string }).cause).toMatch(cause);
}

/** No response may leak a stack trace or a source path. */
export function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+|node_modules|\n\s+at /);
}
