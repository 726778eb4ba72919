import fc from 'fast-check';
import { badOffsetArb, malformedJsonArb } from '../generators/badBodies.js';
import { createCommand, createContract, eventFormat, jsCommands, ledgerEnd, readParty, suiteParty } from './support/ledger.js';
import { bodyOf, expectCantonError, expectRejected, expectStatus, isObject, jsonEqual } from './support/expect.js';
import { forAll } from './support/property.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });

const READ_ENDPOINTS = ['/v2/state/active-contracts', '/v2/updates', '/v2/commands/completions'] as const;
const WRITE_ENDPOINTS = ['/v2/commands/submit-and-wait', '/v2/commands/submit-and-wait-for-transaction', '/v2/commands/async/submit', '/v2/parties', '/v2/users'] as const;

export const ledgerNegativeChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.negative.malformed-json-400',
    title: 'Bodies that are not JSON are refused with 400 (text/plain reason or JsCantonError), never a 5xx (property)',
    operationId: LedgerOp.activeContracts,
    level: 'MUST',
    kind: 'property',
    specRef: `${UPSTREAM_B}: an undecodable body is a 400 with a text/plain reason`,
    async run(ctx) {
      const endpoints = ctx.profile.writes ? [...READ_ENDPOINTS, ...WRITE_ENDPOINTS] : [...READ_ENDPOINTS];
      await forAll(ctx, fc.tuple(fc.constantFrom(...endpoints), malformedJsonArb()), async ([path, bad]) => {
        const e = await ctx.http.request('ledger', { method: 'POST', path, body: bad.text });
        expectRejected(ctx, e, 400, `POST ${path} with ${bad.why}`);
      });
    },
  }),
  check({
    id: 'ledger.negative.bad-offset-400',
    title: 'activeAtOffset of the wrong type, fractional or negative is refused with 400 (property)',
    operationId: LedgerOp.activeContracts,
    level: 'MUST',
    kind: 'property',
    specRef: `${SD_B}: activeAtOffset (integer offset)`,
    async run(ctx) {
      const party = await readParty(ctx);
      await forAll(ctx, badOffsetArb(), async (bad) => {
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', json: { activeAtOffset: bad.value, eventFormat: eventFormat(party) } });
        expectRejected(ctx, e, 400, `active contracts with ${bad.why} (${JSON.stringify(bad.value)})`);
      });
    },
  }),
  check({
    id: 'ledger.negative.unknown-field-400',
    title: 'A request with an unknown field is refused with 400, or the field is ignored: answered as without it, never a 5xx',
    operationId: LedgerOp.activeContracts,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: request messages; Canton 3.5 decodes them with circe at strictDecoding = false (JsSchema.config), so an unknown member is ignored; a participant that refuses it answers 400 ("Unexpected fields")`,
    async run(ctx) {
      const party = await readParty(ctx);
      // A contract of the run's own, so an answer that lost the party's contracts shows.
      if (ctx.profile.writes && party !== undefined) await createContract(ctx, party);
      const request = { activeAtOffset: (await ledgerEnd(ctx)).offset, eventFormat: eventFormat(party) };
      const e = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/state/active-contracts',
        json: { ...request, ccUnexpectedField: true },
        unreadInput: 'an unknown member, which Canton 3.5 ignores (its request decoding is not strict) and a stricter participant refuses',
      });
      if (e.response?.status !== 200) return expectRejected(ctx, e, 400, 'active contracts with an unknown field');
      // Ignored, as Canton 3.5 does: then it changes nothing, the answer is the one without it.
      const plain = await ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', json: request });
      expectStatus(ctx, plain, 200, 'active contracts without the unknown field');
      const [withField, without] = [bodyOf(ctx, e, 'active contracts with an unknown field'), bodyOf(ctx, plain, 'active contracts')];
      if (!Array.isArray(withField)) return ctx.fail('active contracts with an unknown field answered 200 without a JSON array', e);
      const key = (xs: unknown) => (Array.isArray(xs) ? xs.map((x) => JSON.stringify(x)).sort() : []);
      if (!jsonEqual(key(withField), key(without))) ctx.fail(`active contracts at offset ${request.activeAtOffset} with an unknown field answered ${withField.length} entries, without it ${Array.isArray(without) ? without.length : 'no list'}: a member the participant ignores must not change the answer`, e);
    },
  }),
  check({
    id: 'ledger.negative.missing-required-400',
    title: 'A submission without commandId is refused with 400',
    operationId: LedgerOp.submitAndWait,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: JsCommands requires commandId, commands, actAs`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const { commandId: _omitted, ...body } = jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) });
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: body });
      expectRejected(ctx, e, 400, 'submit-and-wait without commandId');
    },
  }),
  check({
    id: 'ledger.negative.invalid-party-400',
    title: 'A submission acting as a string that is not a party id is refused with 400 (403 when secured) and a JsCantonError',
    operationId: LedgerOp.submitAndWait,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: INVALID_ARGUMENT (HTTP 400)`,
    requires: { writes: true },
    async run(ctx) {
      // Not a Daml-LF party string ([a-zA-Z0-9:_ -], at most 255): a participant refuses it as it
      // decodes the request. A well-formed string of no known party (letters and spaces are one)
      // gets past that and may be refused later, as UNKNOWN_SUBMITTERS (404).
      const bad = 'not#a!party';
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: jsCommands(ctx, bad, { CreateCommand: createCommand(ctx, bad) }) });
      // A secured participant checks the user's rights over actAs first: no right over a non-party is a 403.
      expectStatus(ctx, e, ctx.profile.auth?.required ? [400, 403] : [400], 'submit-and-wait acting as an invalid party');
      expectCantonError(ctx, e, 'invalid party');
    },
  }),
  check({
    id: 'ledger.wire.post-without-content-type',
    title: 'A JSON POST without Content-Type is still read as JSON (the real LedgerClient sends none)',
    operationId: LedgerOp.activeContracts,
    level: 'MUST',
    kind: 'example',
    specRef: '@canton-network/core-ledger-client: LedgerClient sends POST bodies without Content-Type',
    async run(ctx) {
      const end = (await ledgerEnd(ctx)).offset;
      // limit 1: the point is the missing Content-Type, not the size of the party's contract set (413 past the list limit).
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', query: { limit: 1 }, json: { activeAtOffset: end, eventFormat: eventFormat(await readParty(ctx)) }, contentType: null });
      expectStatus(ctx, e, 200, 'active contracts without Content-Type');
      if (!Array.isArray(bodyOf(ctx, e, 'active contracts'))) ctx.fail('the answer is not a JSON array', e);
    },
  }),
  check({
    id: 'ledger.wire.duplicate-slash',
    title: 'A path with a doubled slash (//v2/version) is served (the wallet SDK builds such URLs)',
    operationId: LedgerOp.version,
    level: 'SHOULD',
    kind: 'example',
    specRef: '@canton-network/wallet-sdk: its WebSocket base URL ends in a slash, so paths arrive as //v2/...',
    async run(ctx) {
      const e = await ctx.http.request('ledger', { method: 'GET', path: '//v2/version', operationId: LedgerOp.version });
      expectStatus(ctx, e, 200, 'GET //v2/version');
      const body = bodyOf(ctx, e, 'GET //v2/version');
      if (!isObject(body) || typeof body.version !== 'string') ctx.fail('GET //v2/version did not answer the version response', e);
    },
  }),
];
