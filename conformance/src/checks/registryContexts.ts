import { contractIdArb } from '../generators/identifiers.js';
import type { AuthMode, Exchange } from '../target/exchange.js';
import { claimsFor, mintToken } from '../target/mintToken.js';
import { userIdOf } from './support/ledger.js';
import { expectErrorResponse, expectStatus, isBase64, isObject, objectBody, snippet, type Json } from './support/expect.js';
import { forAll } from './support/property.js';
import { choiceContext } from './registry.js';
import { contextContractIds, disclosedForLedger } from './tokenRegistry.js';
import type { CheckContext, CheckDefinition } from './types.js';

const SD = 'service description, group A';
const TOKEN_STANDARD = 'Splice token standard: allocation-instruction registry API (choice contexts and the disclosed contracts the choice needs)';
const WITHDRAW_OP = 'getAllocationInstructionWithdrawContext';
const DEFAULT_INTERFACE = '#splice-api-token-allocation-instruction-v2:Splice.Api.Token.AllocationInstructionV2:AllocationInstruction';

const withdrawPath = (id: string) => `/registry/allocation-instruction/v2/${encodeURIComponent(id)}/choice-contexts/withdraw`;

async function withdrawContext(ctx: CheckContext, id: string, body: unknown, what: string): Promise<{ exchange: Exchange; context: Json }> {
  const exchange = await ctx.http.request('registry', { method: 'POST', path: withdrawPath(id), json: body, operationId: WITHDRAW_OP });
  expectStatus(ctx, exchange, 200, what);
  const context = objectBody(ctx, exchange, what);
  if (!isObject(context.choiceContextData) || !Array.isArray(context.disclosedContracts)) ctx.fail(`${what}: a ChoiceContext has choiceContextData (object) and disclosedContracts (array)`, exchange);
  for (const [i, d] of (context.disclosedContracts as unknown[]).entries()) {
    if (!isObject(d) || typeof d.contractId !== 'string' || typeof d.templateId !== 'string' || typeof d.synchronizerId !== 'string' || !isBase64(d.createdEventBlob)) ctx.fail(`${what}: /disclosedContracts/${i} lacks contractId, templateId, synchronizerId or a base64 createdEventBlob`, exchange);
  }
  return { exchange, context };
}

const knownInstruction = (ctx: CheckContext) => ctx.profile.registry?.allocationInstructionId ?? ctx.skip(`profile '${ctx.profile.name}' names no active allocation instruction (registry.allocationInstructionId)`);

/**
 * Prepares (interprets without committing) the choice through the JSON Ledger API with the
 * registry's context: the proof that the context is complete and usable, with nothing consumed.
 */
async function prepareChoice(ctx: CheckContext, choice: 'AllocationInstruction_Accept' | 'AllocationInstruction_Withdraw', context: Json): Promise<Exchange> {
  const r = ctx.profile.registry!;
  const authorizer = r.authorizerParty ?? ctx.skip(`profile '${ctx.profile.name}' names no authorizer of the instruction (registry.authorizerParty)`);
  if (ctx.profile.ledger?.interactiveSubmission === false) ctx.skip(`profile '${ctx.profile.name}' says the ledger offers no interactive submission, which the suite uses to try the choice without committing it`);
  // On a secured ledger the choice is prepared as the authorizer's own user (it holds the rights over the authorizer).
  let auth: AuthMode | undefined;
  let userId = userIdOf(ctx);
  if (ctx.profile.auth?.required) {
    const user = r.authorizerUser ?? ctx.skip(`profile '${ctx.profile.name}' names no user acting as the authorizer (registry.authorizerUser) on this secured target`);
    const signing = ctx.profile.auth.signing ?? ctx.skip(`profile '${ctx.profile.name}' gives no signing key (auth.signing) to mint a token for ${user}`);
    auth = { token: await mintToken(signing, claimsFor(signing, user)) };
    userId = user;
  }
  return ctx.http.request('ledger', {
    ...(auth ? { auth } : {}),
    method: 'POST',
    path: '/v2/interactive-submission/prepare',
    json: {
      ...(userId === undefined ? {} : { userId }),
      commandId: ctx.unique('cc-context'),
      actAs: [authorizer],
      commands: [{ ExerciseCommand: { templateId: r.instructionInterfaceId ?? DEFAULT_INTERFACE, contractId: r.allocationInstructionId, choice, choiceArgument: { actors: [authorizer], extraArgs: { context: context.choiceContextData, meta: { values: {} } } } } }],
      disclosedContracts: disclosedForLedger(Array.isArray(context.disclosedContracts) ? context.disclosedContracts : []),
    },
  });
}

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'registry', ...c });

export const registryContextChecks: readonly CheckDefinition[] = [
  check({
    id: 'registry.withdraw.context-shape',
    title: 'Withdraw context of a known instruction: a ChoiceContext whose disclosed contracts carry blob and synchronizer',
    operationId: WITHDRAW_OP,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: ChoiceContext, DisclosedContract; ${TOKEN_STANDARD}`,
    async run(ctx) {
      await withdrawContext(ctx, knownInstruction(ctx), {}, 'withdraw context');
    },
  }),
  check({
    id: 'registry.withdraw.unknown-id-404',
    title: 'Withdraw contexts of random unknown instruction ids get 404 with an ErrorResponse (property)',
    operationId: WITHDRAW_OP,
    level: 'MUST',
    kind: 'property',
    specRef: `${SD}: 404 not found, ErrorResponse`,
    async run(ctx) {
      const known = new Set(Object.values(ctx.profile.registry ?? {}));
      await withdrawContext(ctx, knownInstruction(ctx), {}, 'control: withdraw context of the known instruction');
      await forAll(ctx, contractIdArb().filter((id) => !known.has(id)), async (id) => {
        const e = await ctx.http.request('registry', { method: 'POST', path: withdrawPath(id), json: {}, operationId: WITHDRAW_OP });
        expectStatus(ctx, e, 404, `withdraw context of unknown instruction ${id}`);
        expectErrorResponse(ctx, e, 'unknown instruction');
      }, Math.min(ctx.runs, 10));
    },
  }),
  check({
    id: 'registry.accept.context-complete',
    title: 'Every contract the accept context names (AV_ContractId) is among its disclosed contracts',
    operationId: 'getAllocationInstructionAcceptContext',
    level: 'MUST',
    kind: 'example',
    specRef: `${TOKEN_STANDARD}: the context's contracts are disclosed so that a wallet can submit without reading them`,
    async run(ctx) {
      const { exchange, context, disclosed } = await choiceContext(ctx, knownInstruction(ctx), {}, 'accept context');
      const named = contextContractIds(context.choiceContextData);
      const ids = new Set(disclosed.map((d) => d.contractId));
      const missing = named.filter((id) => !ids.has(id));
      if (missing.length > 0) ctx.fail(`the context names ${missing.join(', ')} but does not disclose ${missing.length === 1 ? 'it' : 'them'}`, exchange);
    },
  }),
  check({
    id: 'registry.accept.context-usable',
    title: "The accept context lets the choice succeed: AllocationInstruction_Accept with it prepares on the ledger (nothing is committed)",
    operationId: 'getAllocationInstructionAcceptContext',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${TOKEN_STANDARD}; service description (groups A and B answer from one ledger)`,
    requires: { groups: ['registry', 'ledger'] },
    async run(ctx) {
      const { context } = await choiceContext(ctx, knownInstruction(ctx), { excludeDebugFields: true }, 'accept context');
      const e = await prepareChoice(ctx, 'AllocationInstruction_Accept', context);
      if (e.response?.status !== 200) ctx.fail(`AllocationInstruction_Accept with the registry's context is refused by the ledger (HTTP ${e.response?.status}): ${snippet(e, 300)}`, e);
    },
  }),
  check({
    id: 'registry.withdraw.context-usable',
    title: 'The withdraw context lets the choice succeed: AllocationInstruction_Withdraw with it prepares on the ledger (nothing is committed)',
    operationId: WITHDRAW_OP,
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${TOKEN_STANDARD}; service description (groups A and B answer from one ledger)`,
    requires: { groups: ['registry', 'ledger'] },
    async run(ctx) {
      const { context } = await withdrawContext(ctx, knownInstruction(ctx), { excludeDebugFields: true }, 'withdraw context');
      const e = await prepareChoice(ctx, 'AllocationInstruction_Withdraw', context);
      if (e.response?.status !== 200) ctx.fail(`AllocationInstruction_Withdraw with the registry's context is refused by the ledger (HTTP ${e.response?.status}): ${snippet(e, 300)}`, e);
    },
  }),
];
