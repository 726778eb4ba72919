import { contractIdArb } from '../generators/identifiers.js';
import { badChoiceContextRequestArb } from '../generators/badBodies.js';
import type { Exchange } from '../target/exchange.js';
import { expectErrorResponse, expectStatus, firstDifference, isBase64, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import { forAll } from './support/property.js';
import type { CheckContext, CheckDefinition } from './types.js';

const OP = 'getAllocationInstructionAcceptContext';
const SD = 'service description, group A';

export const acceptPath = (id: string) => `/registry/allocation-instruction/v2/${encodeURIComponent(id)}/choice-contexts/accept`;

export function acceptContext(ctx: CheckContext, id: string, body: unknown): Promise<Exchange> {
  return ctx.http.request('registry', { method: 'POST', path: acceptPath(id), json: body, operationId: OP });
}

function knownInstruction(ctx: CheckContext): string {
  return ctx.profile.registry?.allocationInstructionId ?? ctx.skip(`profile '${ctx.profile.name}' names no active allocation instruction (registry.allocationInstructionId)`);
}

/** The 200 ChoiceContext of a request, checked for the required shape. */
export async function choiceContext(ctx: CheckContext, id: string, body: unknown, what: string): Promise<{ exchange: Exchange; context: Json; disclosed: Json[] }> {
  const exchange = await acceptContext(ctx, id, body);
  expectStatus(ctx, exchange, 200, what);
  const context = objectBody(ctx, exchange, what);
  if (!isObject(context.choiceContextData)) ctx.fail(`${what}: choiceContextData must be an object`, exchange);
  if (!Array.isArray(context.disclosedContracts)) ctx.fail(`${what}: disclosedContracts must be an array`, exchange);
  const disclosed = context.disclosedContracts as unknown[];
  disclosed.forEach((d, i) => {
    if (!isObject(d)) ctx.fail(`${what}: /disclosedContracts/${i} is not an object`, exchange);
    for (const k of ['templateId', 'contractId', 'synchronizerId']) {
      if (typeof d[k] !== 'string' || d[k] === '') ctx.fail(`${what}: /disclosedContracts/${i}/${k} must be a non-empty string`, exchange);
    }
    if (!isBase64(d.createdEventBlob)) ctx.fail(`${what}: /disclosedContracts/${i}/createdEventBlob must be a non-empty base64 string`, exchange);
  });
  return { exchange, context, disclosed: disclosed as Json[] };
}

/** JSON pointers of every `debug*` field, anywhere below the response. */
export function debugFields(v: unknown, at = ''): string[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => debugFields(x, `${at}/${i}`));
  if (!isObject(v)) return [];
  return Object.entries(v).flatMap(([k, x]) => (k.startsWith('debug') ? [`${at}/${k}`] : debugFields(x, `${at}/${k}`)));
}

function withoutDebug(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutDebug);
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !k.startsWith('debug')).map(([k, x]) => [k, withoutDebug(x)]));
}

/**
 * A 404 for unknown ids proves nothing if the endpoint itself is missing (that is a 404 too): with
 * a known instruction in the profile, it must answer 200 first.
 */
async function controlKnown(ctx: CheckContext): Promise<void> {
  const id = ctx.profile.registry?.allocationInstructionId;
  if (id === undefined) {
    ctx.warn('the profile names no active instruction, so a target without this endpoint would pass too');
    return;
  }
  expectStatus(ctx, await acceptContext(ctx, id, {}), 200, `control: the known instruction ${id}`);
}

const check = (c: Omit<CheckDefinition, 'group' | 'operationId'> & Partial<Pick<CheckDefinition, 'operationId'>>): CheckDefinition => ({ group: 'registry', operationId: OP, ...c });

export const registryChecks: readonly CheckDefinition[] = [
  check({
    id: 'registry.accept.context-shape',
    title: 'Accept context of a known instruction: choiceContextData and disclosed contracts with blob and synchronizer',
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: ChoiceContext, DisclosedContract (required fields)`,
    async run(ctx) {
      await choiceContext(ctx, knownInstruction(ctx), {}, 'accept context');
    },
  }),
  check({
    id: 'registry.accept.exclude-debug-true',
    title: 'excludeDebugFields: true omits every field whose name starts with debug',
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: GetChoiceContextRequest.excludeDebugFields`,
    async run(ctx) {
      const { exchange, context } = await choiceContext(ctx, knownInstruction(ctx), { excludeDebugFields: true }, 'accept context with excludeDebugFields: true');
      const found = debugFields(context);
      if (found.length > 0) ctx.fail(`excludeDebugFields: true, yet the answer has ${found.join(', ')}`, exchange);
    },
  }),
  check({
    id: 'registry.accept.exclude-debug-equivalence',
    title: 'The answer with excludeDebugFields: true equals the answer with false minus the debug fields',
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: DisclosedContract (the three debug fields are the ones removed)`,
    async run(ctx) {
      const id = knownInstruction(ctx);
      const full = await choiceContext(ctx, id, { excludeDebugFields: false }, 'accept context with excludeDebugFields: false');
      const lean = await choiceContext(ctx, id, { excludeDebugFields: true }, 'accept context with excludeDebugFields: true');
      const stripped = withoutDebug(full.context);
      if (!jsonEqual(stripped, lean.context)) {
        ctx.fail(`the two answers differ beyond the debug fields, first at ${firstDifference(stripped, lean.context)}`, lean.exchange);
      }
    },
  }),
  check({
    id: 'registry.accept.exclude-debug-default',
    title: 'excludeDebugFields absent behaves as false',
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: GetChoiceContextRequest.excludeDebugFields (default false)`,
    async run(ctx) {
      const id = knownInstruction(ctx);
      const explicit = await choiceContext(ctx, id, { excludeDebugFields: false }, 'accept context with excludeDebugFields: false');
      const absent = await choiceContext(ctx, id, {}, 'accept context without excludeDebugFields');
      if (!jsonEqual(explicit.context, absent.context)) ctx.fail(`absent and false differ, first at ${firstDifference(explicit.context, absent.context)}`, absent.exchange);
    },
  }),
  check({
    id: 'registry.accept.deterministic',
    title: 'The same request twice gives the same context (contexts can be prefetched)',
    level: 'SHOULD',
    kind: 'example',
    specRef: `${SD}: ChoiceContext rule (SHOULD NOT depend on anything but the instruction)`,
    async run(ctx) {
      const id = knownInstruction(ctx);
      const a = await choiceContext(ctx, id, { excludeDebugFields: true }, 'first accept context');
      const b = await choiceContext(ctx, id, { excludeDebugFields: true }, 'second accept context');
      if (!jsonEqual(a.context, b.context)) ctx.fail(`two identical requests got different contexts, first at ${firstDifference(a.context, b.context)}`, b.exchange);
    },
  }),
  check({
    id: 'registry.accept.unknown-id-404',
    title: 'Random unknown instruction ids get 404 with an ErrorResponse (property)',
    level: 'MUST',
    kind: 'property',
    specRef: `${SD}: 404 not found, ErrorResponse`,
    async run(ctx) {
      const known = new Set(Object.values(ctx.profile.registry ?? {}));
      await controlKnown(ctx);
      await forAll(ctx, contractIdArb().filter((id) => !known.has(id)), async (id) => {
        const e = await acceptContext(ctx, id, {});
        expectStatus(ctx, e, 404, `accept context of unknown instruction ${id}`);
        expectErrorResponse(ctx, e, 'unknown instruction');
      });
    },
  }),
  check({
    id: 'registry.accept.malformed-body-400',
    title: 'Malformed request bodies get 400 with an ErrorResponse (property)',
    level: 'MUST',
    kind: 'property',
    specRef: `${SD}: GetChoiceContextRequest; 400 bad request, ErrorResponse`,
    async run(ctx) {
      const id = knownInstruction(ctx);
      await forAll(ctx, badChoiceContextRequestArb(), async (bad) => {
        const e = await ctx.http.request('registry', { method: 'POST', path: acceptPath(id), body: bad.text, operationId: OP });
        expectStatus(ctx, e, 400, `accept context with a bad body (${bad.why})`);
        expectErrorResponse(ctx, e, bad.why);
      });
    },
  }),
  check({
    id: 'registry.accept.archived-404',
    title: 'An archived instruction gets 404 with an ErrorResponse',
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: 404 not found`,
    async run(ctx) {
      const id = ctx.profile.registry?.archivedAllocationInstructionId ?? ctx.skip(`profile '${ctx.profile.name}' names no archived allocation instruction (registry.archivedAllocationInstructionId)`);
      const e = await acceptContext(ctx, id, {});
      expectStatus(ctx, e, 404, 'accept context of an archived instruction');
      expectErrorResponse(ctx, e, 'archived instruction');
    },
  }),
  check({
    id: 'registry.accept.in-flight-409',
    title: 'An instruction whose contracts are being reassigned gets 409 with an ErrorResponse',
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: DisclosedContract.synchronizerId (409 while reassigned); 409 conflict`,
    async run(ctx) {
      const id = ctx.profile.registry?.inFlightAllocationInstructionId ?? ctx.skip(`profile '${ctx.profile.name}' names no instruction with a contract in flight (registry.inFlightAllocationInstructionId)`);
      const e = await acceptContext(ctx, id, {});
      expectStatus(ctx, e, 409, 'accept context while a contract to disclose is being reassigned');
      expectErrorResponse(ctx, e, 'contract in flight');
    },
  }),
];
