/**
 * Uploaded Daml is untrusted: packages that are almost right, made by changing one field of the
 * project's own sample package (and of the hostile package) at the protobuf level, without the
 * schema. Each must be refused with Canton's upload codes and a reason the decoder or checker
 * gives (not an exception it did not expect), or accepted; an accepted one then runs commands of
 * the original's templates on a ledger, each answered or refused with a documented code (never an
 * internal error or an exception), and the ledger still runs the original package afterwards.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { BuiltPackage } from '../../daml-engine/build/PackageBuilder.js';
import { encodeDar } from '../../daml-engine/encode/encodeDar.js';
import { encodeArchive } from '../../daml-engine/encode/encodeArchive.js';
import type { Command, Ledger } from '../../reference-server/src/ledger/index.js';
import { ASSET_TEMPLATE, createLedger } from '../../reference-server/src/ledger/index.js';
import type { DarPackage } from '../../reference-server/src/ledger/packages/readDar.js';
import { validateDarPackages } from '../../reference-server/src/ledger/packages/validateDarPackages.js';
import { buildSamplePackage } from '../../reference-server/src/ledger/templates/samplePackage.js';
import type { FieldPath, Mutation, WireField } from '../support/protoMutator.js';
import { fieldPaths, mutate, parseMessage, writeMessage } from '../support/protoMutator.js';
import { DARS_DIR, HAS_DARS } from './damlFixtures.js';
import { buildHostilePackage } from './hostilePackage.js';
import { readDar } from '../../reference-server/src/ledger/packages/readDar.js';
import type { PackageCache } from '../../daml-engine/decode/decodeArchive.js';

const UPLOAD_CODES = ['DAR_PARSE_ERROR', 'DAR_VALIDATION_ERROR', 'DAR_NOT_SELF_CONSISTENT'];
/** How the upload check words an exception it did not expect (validateDarPackages' `message`). */
const UNEXPECTED = /^(TypeError|RangeError|ReferenceError|SyntaxError|Error|InternalError): /;

const darPackage = (payload: Uint8Array, base: BuiltPackage): DarPackage => ({
  packageId: createHash('sha256').update(payload).digest('hex'), packageName: base.name, packageVersion: base.version, payload, lfVersion: undefined,
});

interface Base {
  readonly built: BuiltPackage;
  readonly tree: WireField[];
  readonly paths: { path: FieldPath; field: WireField }[];
}

function base(built: BuiltPackage): Base {
  const tree = parseMessage(built.payload);
  if (!tree) throw new Error(`${built.name}: its payload does not parse as a message`);
  return { built, tree, paths: fieldPaths(tree) };
}

const bases = [base(buildSamplePackage({ name: 'fuzz-samples', account: false })), base(buildSamplePackage({ name: 'fuzz-samples-keys' })), base(buildHostilePackage('fuzz-hostile'))];

const varintValues = fc.oneof(
  fc.constantFrom(0n, 1n, 2n, 3n, 127n, 128n, 255n, 65_535n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n, 2n ** 63n - 1n, 2n ** 64n - 1n),
  fc.bigInt({ min: 0n, max: 300n }),
);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: varintValues.map((value) => ({ op: 'setVarint', value }) as const) },
  { weight: 2, arbitrary: fc.constant({ op: 'delete' } as const) },
  { weight: 2, arbitrary: fc.constant({ op: 'duplicate' } as const) },
  { weight: 2, arbitrary: fc.constant({ op: 'swapWithNext' } as const) },
  { weight: 1, arbitrary: fc.nat(40).map((keep) => ({ op: 'truncateBytes', keep }) as const) },
  { weight: 1, arbitrary: fc.record({ at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }).map((m) => ({ op: 'flipByte', ...m }) as const) },
);

/** One to three mutations of one of the bases, at paths drawn among its fields (varint paths for setVarint). */
const mutant = fc.nat(bases.length - 1).chain((b) => {
  const { paths } = bases[b]!;
  const varints = paths.filter((p) => p.field.kind === 'varint');
  const step = mutation.chain((m) => (m.op === 'setVarint' ? fc.constantFrom(...varints) : fc.constantFrom(...paths)).map((p) => ({ path: p.path, m })));
  return fc.array(step, { minLength: 1, maxLength: 3 }).map((steps) => ({ b, steps }));
});

function payloadOf(m: { b: number; steps: { path: FieldPath; m: Mutation }[] }): Uint8Array {
  let tree = bases[m.b]!.tree;
  for (const s of m.steps) tree = mutate(tree, s.path, s.m);
  return writeMessage(tree);
}

/** Commands on the sample package's templates (on the hostile package's, its Bomb's choices), by one new party. */
function commandsFor(ledger: Ledger, packageId: string, name: string, hostile: boolean): { actAs: string[]; commands: Command[] }[] {
  const alice = ledger.allocateParty({ partyIdHint: 'alice' });
  if (!alice.ok) throw new Error(alice.error.cause);
  const p = alice.value.partyDetails.party;
  const one = (command: Command) => ({ actAs: [p], commands: [command] });
  if (hostile) {
    const bomb = `${packageId}:Hostile:Bomb`;
    const args = { owner: p, depth: '3' };
    return [
      one({ CreateCommand: { templateId: bomb, createArguments: args } }),
      ...['Huge', 'Explode', 'Chars'].map((choice) => one({ CreateAndExerciseCommand: { templateId: bomb, createArguments: args, choice, choiceArgument: { n: '4' } } })),
      one({ CreateAndExerciseCommand: { templateId: bomb, createArguments: args, choice: 'Loop', choiceArgument: {} } }),
    ];
  }
  const asset = `${packageId}:Sample.Asset:Asset`;
  const args = { issuer: p, owner: p, amount: '10.5', observers: null };
  const exercise = (choice: string, choiceArgument: Record<string, string>) =>
    one({ CreateAndExerciseCommand: { templateId: asset, createArguments: args, choice, choiceArgument } });
  const out = [
    one({ CreateCommand: { templateId: asset, createArguments: args } }),
    exercise('Split', { splitAmount: '2.5' }),
    exercise('Split', { splitAmount: '20' }),
    exercise('Describe', {}),
    exercise('Transfer', { newOwner: p }),
    exercise('Archive', {}),
  ];
  if (name.endsWith('-keys')) {
    const account = `${packageId}:Sample.Account:Account`;
    out.push(one({ CreateAndExerciseCommand: { templateId: account, createArguments: { bank: p, holder: p, accountId: 'a' }, choice: 'Deposit', choiceArgument: { amount: '1.0' } } }));
  }
  return out;
}

/** A built-in template's create and archive: the ledger still serves others after the package's commands. */
function stillServes(ledger: Ledger): string {
  const bob = ledger.allocateParty({ partyIdHint: 'bob' });
  if (!bob.ok) return bob.error.code;
  const issuer = bob.value.partyDetails.party;
  const r = ledger.submitAndWaitForTransaction({ commands: {
    userId: 'fuzz', commandId: `later-${++commandSeq}`, actAs: [issuer],
    commands: [{ CreateAndExerciseCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner: issuer, amount: '1.0' }, choice: 'Archive', choiceArgument: {} } }],
  } });
  return r.ok ? 'ok' : r.error.code;
}

let commandSeq = 0;
/** FUZZ_RUNS and FUZZ_SEED explore further; a long run gets the time it needs. */
const runs = (byDefault: number) => Number(process.env.FUZZ_RUNS ?? byDefault);
const timeout = (byDefault: number) => Math.max(60_000, runs(byDefault) * 500);

describe('packages one field away from the sample and hostile packages', () => {
  it('round-trips each base through the mutator unchanged', () => {
    for (const b of bases) expect(Buffer.from(writeMessage(b.tree)).equals(Buffer.from(b.built.payload))).toBe(true);
  });

  it('are refused with an upload code and a reason of the checker\'s, or accepted and run commands cleanly', () => {
    const tally = new Map<string, number>();
    const count = (k: string) => tally.set(k, (tally.get(k) ?? 0) + 1);
    fc.assert(fc.property(mutant, (m) => {
      const payload = payloadOf(m);
      const b = bases[m.b]!;
      const pkg = darPackage(payload, b.built);
      const checked = validateDarPackages([pkg], () => undefined);
      if (!checked.ok) {
        count(checked.error.code);
        expect(UPLOAD_CODES).toContain(checked.error.code);
        const reason = String(checked.error.context?.reason ?? checked.error.context?.validationError ?? checked.error.cause);
        expect(reason, checked.error.cause).not.toMatch(UNEXPECTED);
        return;
      }
      count('accepted');
      // A small step budget: the hostile Loop runs to it on every accepted copy.
      const ledger = createLedger({ engineStepBudget: 20_000 });
      const dar = encodeDar({ name: `${b.built.name}-m`, main: encodeArchive(payload).dalf });
      const up = ledger.uploadDar(dar, { synchronizerId: ledger.config.synchronizers[0]!.id });
      expect(up.ok ? 'ok' : up.error.code).toBe('ok');
      for (const { actAs, commands } of commandsFor(ledger, pkg.packageId, b.built.name, m.b === 2)) {
        const r = ledger.submitAndWaitForTransaction({ commands: { userId: 'fuzz', commandId: `c${++commandSeq}`, actAs, commands } });
        count(r.ok ? 'command ok' : `command ${r.error.code}`);
        if (!r.ok) expect(r.error.code, r.error.cause).not.toMatch(/INTERNAL/);
      }
      expect(stillServes(ledger)).toBe('ok');
    }), { seed: Number(process.env.FUZZ_SEED ?? 3130), numRuns: runs(1000) });
    // Every stage was reached: the decoder's refusals, the checker's, and accepted code that ran.
    for (const k of ['DAR_PARSE_ERROR', 'DAR_VALIDATION_ERROR', 'command ok', 'command DAML_FAILURE']) expect(tally.get(k) ?? 0, k).toBeGreaterThan(0);
  }, timeout(1000));
});

/**
 * The same for a package the Daml compiler wrote: Splice's test token (its main package, the
 * token-standard API packages it depends on left as they are). Compiler output uses far more of
 * Daml-LF than the project's builders (interned types and expressions, type classes, exceptions).
 */
describe.skipIf(!HAS_DARS)('packages one field away from Splice\'s test token (needs ../shared/upstream/daml/dars)', () => {
  const TOKEN = 'Splice.Testing.Tokens.TestTokenV1:Token';
  const dar = HAS_DARS ? readDar(readFileSync(join(DARS_DIR, 'splice/splice-test-token-v1-1.0.0.dar'))) : undefined;
  const packages = dar?.ok ? dar.value.packages : [];
  const main = packages[0];
  const tree = main ? parseMessage(main.payload) : undefined;
  const paths = tree ? fieldPaths(tree) : [];
  // The dependencies decoded and checked once, for every ledger of the run.
  const passed = new Map<string, readonly (readonly [string, boolean])[]>();
  const cache: PackageCache = new Map();

  it('parses and writes its main package unchanged', () => {
    expect(dar?.ok).toBe(true);
    expect(Buffer.from(writeMessage(tree!)).equals(Buffer.from(main!.payload))).toBe(true);
  });

  it('are refused with an upload code and a reason of the checker\'s, or accepted and create and archive a token', () => {
    const deps = packages.slice(1).map((d) => encodeArchive(d.payload).dalf);
    const varints = paths.filter((p) => p.field.kind === 'varint');
    const step = mutation.chain((m) => (m.op === 'setVarint' ? fc.constantFrom(...varints) : fc.constantFrom(...paths)).map((p) => ({ path: p.path, m })));
    const tally = new Map<string, number>();
    const count = (k: string) => tally.set(k, (tally.get(k) ?? 0) + 1);
    fc.assert(fc.property(fc.array(step, { minLength: 1, maxLength: 2 }), (steps) => {
      let t = tree!;
      for (const x of steps) t = mutate(t, x.path, x.m);
      const payload = writeMessage(t);
      const ledger = createLedger({ engineStepBudget: 200_000, passedChecks: passed, enginePackageCache: cache });
      const up = ledger.uploadDar(encodeDar({ name: 'token-m', main: encodeArchive(payload).dalf, dependencies: deps }), { synchronizerId: ledger.config.synchronizers[0]!.id });
      if (!up.ok) {
        count(up.error.code);
        expect(UPLOAD_CODES, `${up.error.code}: ${up.error.cause}`).toContain(up.error.code);
        const reason = String(up.error.context?.reason ?? up.error.context?.validationError ?? up.error.cause);
        expect(reason, up.error.cause).not.toMatch(UNEXPECTED);
        return;
      }
      count('accepted');
      const id = createHash('sha256').update(payload).digest('hex');
      const [owner, admin] = ['owner', 'admin'].map((hint) => {
        const r = ledger.allocateParty({ partyIdHint: hint });
        if (!r.ok) throw new Error(r.error.cause);
        return r.value.partyDetails.party;
      }) as [string, string];
      const holding = { owner, instrumentId: { admin, id: 'T' }, amount: '10.5', lock: null, meta: { values: {} } };
      const r = ledger.submitAndWaitForTransaction({ commands: { userId: 'fuzz', commandId: `t${++commandSeq}`, actAs: [owner, admin], commands: [
        { CreateAndExerciseCommand: { templateId: `${id}:${TOKEN}`, createArguments: { holding }, choice: 'Archive', choiceArgument: {} } },
      ] } });
      count(r.ok ? 'command ok' : `command ${r.error.code}`);
      if (!r.ok) expect(r.error.code, r.error.cause).not.toMatch(/INTERNAL/);
      expect(stillServes(ledger)).toBe('ok');
    }), { seed: Number(process.env.FUZZ_SEED ?? 3130), numRuns: runs(100) });
    for (const k of ['DAR_PARSE_ERROR', 'DAR_VALIDATION_ERROR', 'command ok']) expect(tally.get(k) ?? 0, k).toBeGreaterThan(0);
  }, timeout(100));
});
