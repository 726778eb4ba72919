import fc from 'fast-check';

const hex = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });
const hint = fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/);

/** Well-formed party ids (`hint::1220<64 hex>`) that almost surely name no party on the target. */
export const partyIdArb = (): fc.Arbitrary<string> => fc.tuple(hint, hex(64)).map(([h, x]) => `${h}::1220${x}`);

/** Well-formed contract ids (`00` + 64 hex + suffix), as Canton prints them, almost surely unknown. */
export const contractIdArb = (): fc.Arbitrary<string> =>
  fc.tuple(hex(64), fc.oneof(fc.constant(''), hex(8), fc.constant('ca111220'))).map(([x, suffix]) => `00${x}${suffix}`);

/** User ids from Canton's allowed alphabet (letters, digits, `@^$.!`|-_#:` and spaces are not allowed), at most 128 chars. */
export const userIdArb = (): fc.Arbitrary<string> => fc.stringMatching(/^[a-z][a-z0-9@.$!|_#:-]{2,40}$/);

/** Strings that are not party ids at all (bad characters, no namespace, empty parts). */
export const malformedPartyArb = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant('not a party'),
    fc.constant('::'),
    fc.constant('alice::'),
    fc.constant('::1220abcd'),
    fc.stringMatching(/^[a-z]{1,8} [a-z]{1,8}$/),
    fc.stringMatching(/^[a-z]{1,8}::[g-z]{4,12}$/),
  );
