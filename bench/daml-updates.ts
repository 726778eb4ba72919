/**
 * Update engine throughput on real templates: creates and exercises per second (splitwell's
 * install flow, the test token's create + Archive), beside the floor every create pays in the
 * same run (the node seed and contract id HMACs alone): the ratio survives a busy machine.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/daml-updates.js
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Update } from '../daml-engine/ast/Expr.js';
import type { QualifiedName, Type } from '../daml-engine/ast/Type.js';
import { decodeDar } from '../daml-engine/decode/decodeDar.js';
import { Packages } from '../daml-engine/decode/Packages.js';
import { decodeJson } from '../daml-engine/json/jsonValue.js';
import { packageDataTypes } from '../daml-engine/json/packageDataTypes.js';
import { contractIdV1, deriveContractDiscriminator, deriveNodeSeed } from '../daml-engine/update/seeds.js';
import type { LedgerContract } from '../daml-engine/update/UpdateEngine.js';
import { createCommand, exerciseCommand, UpdateEngine } from '../daml-engine/update/UpdateEngine.js';
import type { Value } from '../daml-engine/value/Value.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
const root = candidates.find((c) => { try { return statSync(c).isDirectory(); } catch { return false; } });
if (!root) throw new Error('no shared/upstream/daml/dars beside the checkout');

const packages = new Packages();
const load = (relative: string): string => {
  const dar = decodeDar(readFileSync(join(root, relative)), packages.cache);
  if (!dar.ok) throw new Error(dar.failure.message);
  packages.addDar(dar.value);
  return dar.value.main.id;
};
const splitwell = load('splice/splitwell-0.1.23.dar');
const token = load('splice/splice-test-token-v1-1.0.0.dar');
const getPackage = (id: string) => packages.get(id);
const types = packageDataTypes(getPackage);
const json = (type: Type, value: unknown): Value => {
  const r = decodeJson(type, value, types);
  if (!r.ok) throw new Error(JSON.stringify(r.problem));
  return r.value;
};
const con = (tycon: QualifiedName): Type => ({ kind: 'con', tycon, args: [] });
const sw = (name: string): QualifiedName => ({ packageId: splitwell, module: 'Splice.Splitwell', name });
const tt = (name: string): QualifiedName => ({ packageId: token, module: 'Splice.Testing.Tokens.TestTokenV1', name });
const PROVIDER = 'provider::1220aa';
const USER = 'user::1220bb';
const ADMIN = 'admin::1220dd';
const PREPARED = 1_764_000_000_000_000n;

const active = new Map<string, LedgerContract>();
const engine = new UpdateEngine({ getPackage });
let seedCounter = 0;
function submit(update: Update, submitters: string[]): Value {
  const seed = new Uint8Array(32);
  new DataView(seed.buffer).setUint32(0, ++seedCounter);
  const r = engine.submit({ update, submitters, transactionSeed: seed, preparationTime: PREPARED, getContract: (cid) => active.get(cid) });
  if (!r.ok) throw new Error(`${r.error.kind}: ${'message' in r.error ? r.error.message : ''}`);
  for (const c of r.transaction.created) active.set(c.contractId, { templateId: c.templateId, argument: c.argument });
  for (const cid of r.transaction.archived) active.delete(cid);
  return r.result;
}
const cidOf = (v: Value): string => (v.kind === 'contractId' ? v.value : '');

const rulesArg = json(con(sw('SplitwellRules')), { provider: PROVIDER });
const choiceType = (t: QualifiedName, choice: string): Type =>
  packages.get(t.packageId)!.modules.get(t.module)!.templates.get(t.name)!.choices.get(choice)!.argBinder.type;
const requestArg = json(choiceType(sw('SplitwellRules'), 'SplitwellRules_RequestInstall'), { user: USER });
const acceptArg = json(choiceType(sw('SplitwellInstallRequest'), 'SplitwellInstallRequest_Accept'), {});
const tokenArg = json(con(tt('Token')), { holding: { owner: USER, instrumentId: { admin: ADMIN, id: 'TEST' }, amount: '10.0', lock: null, meta: { values: {} } } });
const archiveArg = json(choiceType(tt('Token'), 'Archive'), {});

const rulesId = cidOf(submit(createCommand(sw('SplitwellRules'), rulesArg), [PROVIDER]));
/** One round: a non-consuming exercise creating a request, a consuming one creating the install. */
function splitwellRound(): void {
  const requestId = cidOf(submit(exerciseCommand(sw('SplitwellRules'), rulesId, 'SplitwellRules_RequestInstall', requestArg), [USER]));
  submit(exerciseCommand(sw('SplitwellInstallRequest'), requestId, 'SplitwellInstallRequest_Accept', acceptArg), [PROVIDER]);
}
/** One round: create a Token (its ensure runs), then archive it. */
function tokenRound(): void {
  const id = cidOf(submit(createCommand(tt('Token'), tokenArg), [USER, ADMIN]));
  submit(exerciseCommand(tt('Token'), id, 'Archive', archiveArg), [USER, ADMIN]);
}
function floorRound(i: number): void {
  const seed = deriveNodeSeed(new Uint8Array(32).fill(i & 255), 0);
  contractIdV1(deriveContractDiscriminator(deriveNodeSeed(seed, 0), PREPARED, [PROVIDER, USER]));
}

function rate(name: string, rounds: number, round: (i: number) => void, perRound: string): number {
  for (let i = 0; i < Math.min(200, rounds); i++) round(i); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) round(i);
  const ms = performance.now() - t0;
  const perSecond = rounds / (ms / 1000);
  console.log(`| ${name} | ${rounds.toLocaleString('en')} | ${perRound} | ${ms.toFixed(0)} ms | ${Math.round(perSecond).toLocaleString('en')} rounds/s |`);
  return perSecond;
}

const N = Number(process.env.ROUNDS ?? 2000);
console.log('| workload | rounds | per round | time | rate |');
console.log('|---|---|---|---|---|');
const floor = rate('floor: seeds + contract id HMACs of one create', N * 5, floorRound, '1 create id');
const token1 = rate('test token: create Token + exercise Archive', N, tokenRound, '2 transactions, 1 create, 1 exercise');
const split = rate('splitwell: RequestInstall (creates) + Accept (archives, creates)', N, splitwellRound, '2 transactions, 2 exercises, 2 creates');
console.log(`\ncreates+exercises per second: test token ${Math.round(token1 * 2).toLocaleString('en')}, splitwell ${Math.round(split * 4).toLocaleString('en')}`);
console.log(`ratio to the id floor (per create): test token ${(floor / token1).toFixed(1)}x, splitwell ${(floor / (split * 2)).toFixed(1)}x`);
console.log(`active contracts left: ${active.size}`);
