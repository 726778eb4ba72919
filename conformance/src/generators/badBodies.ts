import fc from 'fast-check';

/** A request body as raw text plus what is wrong with it, for negative-input properties. */
export interface BadBody {
  readonly text: string;
  readonly why: string;
}

/** Text that is not JSON at all: cut-off objects, stray tokens, trailing garbage, wrong quoting. */
export const malformedJsonArb = (): fc.Arbitrary<BadBody> =>
  fc.oneof(
    fc.constantFrom('{', '{"', '{"a":', '{"a":1', '[1,2', 'nul', 'tru', '{\'a\':1}', '{"a":1}}', '{"a" 1}', '{,}', '\u0000{}', '{"a":01}', '{"a":NaN}').map((text) => ({ text, why: 'malformed JSON' })),
    fc.json().filter((j) => j.length > 1 && j.startsWith('{')).map((j) => ({ text: j.slice(0, -1), why: 'truncated JSON object' })),
    fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !isJson(s)).map((text) => ({ text, why: 'not JSON' })),
  );

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** Non-object JSON and objects with the wrong types for GetChoiceContextRequest (group A). */
export const badChoiceContextRequestArb = (): fc.Arbitrary<BadBody> =>
  fc.oneof(
    malformedJsonArb(),
    fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.boolean())
      .map((v) => ({ text: JSON.stringify(v), why: 'body is not a JSON object' })),
    // Not null: an optional member written null is absent to Splice's registry (guardrail's circe
    // decoders read an Option's null as None), so a conformant registry may answer 200.
    fc.oneof(fc.string(), fc.integer(), fc.object({ maxDepth: 1 }), fc.constantFrom('true', 'false', 1, 0))
      .map((v) => ({ text: JSON.stringify({ excludeDebugFields: v }), why: 'excludeDebugFields is not a boolean' })),
    fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.object({ maxDepth: 1 }))
      .map((v) => ({ text: JSON.stringify({ meta: { key: v } }), why: 'a meta value is not a string' })),
    fc.oneof(fc.string(), fc.integer(), fc.array(fc.string(), { maxLength: 2 }), fc.boolean())
      .map((v) => ({ text: JSON.stringify({ meta: v }), why: 'meta is not an object' })),
  );

/** Values that are not a valid int64 offset: wrong JSON types, fractions, negatives, beyond int64. */
export const badOffsetArb = (): fc.Arbitrary<{ value: unknown; why: string }> =>
  fc.oneof(
    // Not a string holding a number: Canton's circe Decoder[Long] reads "12" (and "12.0", "1.2e1") as 12.
    fc.string().filter((s) => s.trim() === '' || !Number.isFinite(Number(s))).map((value) => ({ value, why: 'offset is a string' })),
    fc.constant({ value: null, why: 'offset is null' }),
    fc.boolean().map((value) => ({ value, why: 'offset is a boolean' })),
    fc.array(fc.integer(), { maxLength: 2 }).map((value) => ({ value, why: 'offset is an array' })),
    fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }).map((value) => ({ value, why: 'offset is not an integer' })),
    fc.integer({ min: -1_000_000, max: -1 }).map((value) => ({ value, why: 'offset is negative' })),
  );
