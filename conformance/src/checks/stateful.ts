import fc from 'fast-check';
import { activeContracts, archiveContract, createContract, eventsOf, ledgerEnd, updates, userIdOf } from './support/ledger.js';
import { expectStatus, isObject, objectBody, type Json } from './support/expect.js';
import { forAll } from './support/property.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * The model: what the ledger must look like for the suite's own contracts. Offsets come from the
 * target (the model cannot predict them, only their order); the model predicts the active set at
 * every offset it has seen, and what the update list between two of them contains.
 */
interface Model {
  readonly contracts: Map<string, { created: number; archived?: number }>;
  /** Every offset observed so far (ledger ends, completion offsets), ascending. */
  readonly offsets: number[];
  lastCreate?: Json;
}

interface Real {
  readonly ctx: CheckContext;
  readonly party: string;
  /** With a party of its own, the ledger's answers must equal the model exactly; otherwise other contracts are ignored. */
  readonly exclusive: boolean;
}

const maxOffset = (m: Model) => m.offsets.at(-1) ?? 0;
const observe = (m: Model, o: number) => {
  if (!m.offsets.includes(o)) m.offsets.push(o);
  m.offsets.sort((a, b) => a - b);
};
const activeAt = (m: Model, o: number) => [...m.contracts].filter(([, c]) => c.created <= o && (c.archived === undefined || c.archived > o)).map(([id]) => id).sort();
const activeNow = (m: Model) => [...m.contracts].filter(([, c]) => c.archived === undefined).map(([id]) => id).sort();

class Create implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    const before = maxOffset(m);
    const c = await createContract(r.ctx, r.party);
    if (c.completionOffset <= before) r.ctx.fail(`model divergence: a new transaction got offset ${c.completionOffset}, not after ${before} already seen`, c.exchange);
    m.contracts.set(c.contractId, { created: c.completionOffset });
    m.lastCreate = c.body;
    observe(m, c.completionOffset);
  }
  toString = () => 'Create';
}

class Archive implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => activeNow(m as Model).length > 0;
  async run(m: Model, r: Real) {
    const ids = activeNow(m);
    const id = ids[this.pick % ids.length]!;
    const s = await archiveContract(r.ctx, r.party, { contractId: id, templateId: r.ctx.profile.ledger!.template!.templateId });
    if (s.completionOffset <= maxOffset(m)) r.ctx.fail(`model divergence: the archive got offset ${s.completionOffset}, not after ${maxOffset(m)}`, s.exchange);
    m.contracts.get(id)!.archived = s.completionOffset;
    observe(m, s.completionOffset);
  }
  toString = () => `Archive(${this.pick})`;
}

class ActiveAt implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const o = m.offsets[this.pick % m.offsets.length]!;
    const { exchange, contracts } = await activeContracts(r.ctx, r.party, o, { templateId: r.ctx.profile.ledger!.template!.templateId });
    const got = contracts.map((c) => c.createdEvent.contractId).filter((id) => r.exclusive || m.contracts.has(id)).sort();
    const want = activeAt(m, o);
    if (got.join() !== want.join()) {
      const extra = got.filter((x) => !want.includes(x));
      const missing = want.filter((x) => !got.includes(x));
      r.ctx.fail(`model divergence at offset ${o}: active contracts ${extra.length ? `include ${extra.join(', ')} (not active then)` : ''}${extra.length && missing.length ? ' and ' : ''}${missing.length ? `lack ${missing.join(', ')}` : ''}`, exchange);
    }
  }
  toString = () => `ActiveAt(${this.pick})`;
}

class LedgerEnd implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    const { offset, exchange } = await ledgerEnd(r.ctx);
    if (offset < maxOffset(m)) r.ctx.fail(`model divergence: ledger end ${offset} is behind offset ${maxOffset(m)} already committed`, exchange);
    observe(m, offset);
  }
  toString = () => 'LedgerEnd';
}

class Updates implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly a: number,
    readonly b: number,
  ) {}
  check = (m: Readonly<Model>) => m.offsets.length >= 2;
  async run(m: Model, r: Real) {
    const x = m.offsets[this.a % m.offsets.length]!;
    const y = m.offsets[this.b % m.offsets.length]!;
    const [begin, end] = x <= y ? [x, y] : [y, x];
    const { exchange, transactions } = await updates(r.ctx, r.party, begin, end);
    const created = transactions.flatMap((t) => eventsOf(t).created).filter((id) => r.exclusive || m.contracts.has(id)).sort();
    const archived = transactions.flatMap((t) => eventsOf(t).archived).filter((id) => r.exclusive || m.contracts.has(id)).sort();
    const wantCreated = [...m.contracts].filter(([, c]) => c.created > begin && c.created <= end).map(([id]) => id).sort();
    const wantArchived = [...m.contracts].filter(([, c]) => c.archived !== undefined && c.archived > begin && c.archived <= end).map(([id]) => id).sort();
    if (created.join() !== wantCreated.join()) r.ctx.fail(`model divergence: updates in (${begin}, ${end}] create [${created.join(', ')}], the model expects [${wantCreated.join(', ')}]`, exchange);
    if (archived.join() !== wantArchived.join()) r.ctx.fail(`model divergence: updates in (${begin}, ${end}] archive [${archived.join(', ')}], the model expects [${wantArchived.join(', ')}]`, exchange);
  }
  toString = () => `Updates(${this.a}, ${this.b})`;
}

class DedupRetry implements fc.AsyncCommand<Model, Real> {
  check = (m: Readonly<Model>) => m.lastCreate !== undefined;
  async run(m: Model, r: Real) {
    const e = await r.ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: m.lastCreate });
    expectStatus(r.ctx, e, 409, 'model divergence: re-submitting the last create with the same change id');
  }
  toString = () => 'DedupRetry';
}

// Creates and queries are weighted up: most divergences need a few contracts and a look back.
const commandsArb = fc.commands(
  [
    fc.constant(new Create()),
    fc.constant(new Create()),
    fc.nat(20).map((n) => new Archive(n)),
    fc.nat(40).map((n) => new ActiveAt(n)),
    fc.nat(40).map((n) => new ActiveAt(n)),
    fc.constant(new LedgerEnd()),
    fc.tuple(fc.nat(40), fc.nat(40)).map(([a, b]) => new Updates(a, b)),
    fc.constant(new DedupRetry()),
  ],
  { maxCommands: 14 },
);

async function freshParty(ctx: CheckContext): Promise<string> {
  const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/parties', json: { partyIdHint: ctx.unique('cc-model').replace(/[^a-zA-Z0-9_-]/g, '-'), identityProviderId: '' } });
  expectStatus(ctx, e, 200, 'allocating a party for one model run');
  const d = objectBody(ctx, e, 'party allocation').partyDetails;
  if (!isObject(d) || typeof d.party !== 'string') return ctx.fail('POST /v2/parties: no partyDetails.party', e);
  const userId = userIdOf(ctx);
  if (ctx.profile.auth?.required && userId !== undefined) {
    const g = await ctx.http.request('ledger', { method: 'POST', path: `/v2/users/${encodeURIComponent(userId)}/rights`, json: { userId, rights: [{ kind: { CanActAs: { value: { party: d.party } } } }, { kind: { CanReadAs: { value: { party: d.party } } } }], identityProviderId: '' } });
    expectStatus(ctx, g, 200, 'granting rights over the model party');
  }
  return d.party;
}

export const statefulChecks: readonly CheckDefinition[] = [
  {
    id: 'ledger.stateful.model',
    title: 'Model-based run: random create, archive, active contracts at past offsets, ledger end, updates and dedup retries agree with a model of the ledger',
    group: 'ledger',
    operationId: LedgerOp.activeContracts,
    level: 'MUST',
    kind: 'stateful',
    specRef: `${SD_B}: active contracts at offsets, ledger end, updates; ${UPSTREAM_B} deduplication`,
    requires: { writes: true },
    async run(ctx) {
      const ledger = ctx.profile.ledger;
      if (!ledger?.template) return ctx.skip(`profile '${ctx.profile.name}' names no template the suite may create (ledger.template)`);
      const exclusive = ledger.allocateParties === true;
      if (!exclusive && !ledger.party) ctx.skip(`profile '${ctx.profile.name}' names no ledger party and does not allow party allocation`);
      await forAll(
        ctx,
        commandsArb,
        async (cmds) => {
          const party = exclusive ? await freshParty(ctx) : ctx.profile.ledger!.party!;
          const start = (await ledgerEnd(ctx)).offset;
          const setup = () => ({ model: { contracts: new Map(), offsets: [start] } satisfies Model, real: { ctx, party, exclusive } satisfies Real });
          await fc.asyncModelRun(setup, cmds);
        },
        Math.max(10, Math.ceil(ctx.runs / 2)),
      );
    },
  },
];
