/**
 * Where an engine command's time and memory go, next to a built-in one (issue 31 item 5): the
 * same create+archive rounds as `engine-commands.ts` (the built-in Sample.Asset, the uploaded test
 * token), each side in this process in turn, measured per command: wall time, the time inside the
 * ledger's interpretation (`Ledger.interpret`: validation, the built-in model or the engine with
 * its JSON codec), inside the engine's run alone (`UpdateEngine.submit`) and inside the commit
 * (`Ledger.commit`); then the bytes allocated per command (V8's sampling heap profiler, objects a
 * scavenge collected included) and the scavenges per thousand commands.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/engine-phases.js
 *   ROUNDS=8000 WARMUP=3000 node bench/out/build/bench/engine-phases.js
 *   ENGINE=asset ...   (the engine side runs the built-in side's own template, Sample.Asset, as a package)
 *   ALLOC_TOP=30 node bench/out/build/bench/engine-phases.js   (also the 30 functions allocating most)
 */
import { Session } from 'node:inspector';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { UpdateEngine } from '../daml-engine/update/UpdateEngine.js';
import type { Command, Ledger } from '../reference-server/src/ledger/index.js';
import { ASSET_TEMPLATE, createLedger } from '../reference-server/src/ledger/index.js';
import { Ledger as LedgerClass } from '../reference-server/src/ledger/Ledger.js';
import { buildSamplePackage } from '../reference-server/src/ledger/templates/samplePackage.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
const root = candidates.find((c) => { try { return statSync(c).isDirectory(); } catch { return false; } });
if (!root && process.env.ENGINE !== 'asset') throw new Error('no shared/upstream/daml/dars beside the checkout (ENGINE=asset needs none)');

const ROUNDS = Number(process.env.ROUNDS ?? 6_000);
const WARMUP = Number(process.env.WARMUP ?? 3_000);
const TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:Token';

/** Nanoseconds spent inside each wrapped method since the last reset. */
const spent = { interpret: 0n, commit: 0n, engine: 0n };
function wrap<T extends object>(proto: T, name: keyof T & string, into: keyof typeof spent): void {
  const original = proto[name] as unknown as (...a: unknown[]) => unknown;
  (proto as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
    const t = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      spent[into] += process.hrtime.bigint() - t;
    }
  };
}
wrap(LedgerClass.prototype, 'interpret', 'interpret');
wrap(LedgerClass.prototype, 'commit', 'commit');
wrap(UpdateEngine.prototype, 'submit', 'engine');

let scavenges = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as { detail?: { kind?: number } }).detail?.kind ?? (e as { kind?: number }).kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++;
  }
}).observe({ entryTypes: ['gc'] });

interface Side { readonly name: string; round(): void }

let seq = 0;
function side(name: string, ledger: Ledger, actAs: string[], create: () => Command, template: string): Side {
  const submit = (command: Command): string => {
    const r = ledger.submitAndWaitForTransaction({ commands: { userId: 'bench', commandId: `c${++seq}`, actAs, commands: [command] } });
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.cause}`);
    const first = r.value.transaction.events[0];
    return first && 'CreatedEvent' in first ? first.CreatedEvent.contractId : '';
  };
  return {
    name,
    round() {
      const contractId = submit(create());
      submit({ ExerciseCommand: { templateId: template, contractId, choice: 'Archive', choiceArgument: {} } });
    },
  };
}

function party(ledger: Ledger, hint: string): string {
  const r = ledger.allocateParty({ partyIdHint: hint });
  if (!r.ok) throw new Error(r.error.cause);
  return r.value.partyDetails.party;
}

function builtIn(): Side {
  const ledger = createLedger();
  const [issuer, owner] = [party(ledger, 'issuer'), party(ledger, 'owner')];
  return side('built-in Sample.Asset', ledger, [issuer], () => ({ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner, amount: '10.5' } } }), ASSET_TEMPLATE);
}

/** ENGINE=asset: the built-in side's own template as a package (the same Daml through the engine). */
function engineAsset(): Side {
  const ledger = createLedger();
  const up = ledger.uploadDar(buildSamplePackage({ name: 'engine-samples', account: false }).dar(), { synchronizerId: ledger.config.synchronizers[0]!.id });
  if (!up.ok) throw new Error(up.error.cause);
  const [issuer, owner] = [party(ledger, 'issuer'), party(ledger, 'owner')];
  const template = '#engine-samples:Sample.Asset:Asset';
  return side('uploaded Sample.Asset (engine)', ledger, [issuer], () => ({ CreateCommand: { templateId: template, createArguments: { issuer, owner, amount: '10.5', observers: null } } }), template);
}

function engine(): Side {
  if (process.env.ENGINE === 'asset') return engineAsset();
  const ledger = createLedger();
  const up = ledger.uploadDar(readFileSync(join(root as string, 'splice/splice-test-token-v1-1.0.0.dar')), { synchronizerId: ledger.config.synchronizers[0]!.id });
  if (!up.ok) throw new Error(up.error.cause);
  const [owner, admin] = [party(ledger, 'owner'), party(ledger, 'admin')];
  const holding = { owner, instrumentId: { admin, id: 'T' }, amount: '10.5', lock: null, meta: { values: {} } };
  return side('uploaded test token Token (engine)', ledger, [owner, admin], () => ({ CreateCommand: { templateId: TOKEN, createArguments: { holding } } }), TOKEN);
}

const post = <T>(s: Session, method: string, params?: object) => new Promise<T>((done, fail) => s.post(method, params ?? {}, (e, r) => (e ? fail(e) : done(r as T))));

interface HeapNode { readonly selfSize: number; readonly children: readonly HeapNode[]; readonly callFrame: { functionName: string; url: string; lineNumber: number } }
const total = (n: HeapNode): number => n.children.reduce((a, c) => a + total(c), n.selfSize);

/** ALLOC_TOP=N: the N functions that allocate most, bytes a command, by where the object was made. */
function allocatedBy(head: HeapNode, commands: number): Record<string, number> {
  const by = new Map<string, number>();
  const walk = (n: HeapNode, caller: string): void => {
    const f = n.callFrame;
    // A builtin (Map, push, join) is named with the function that called it.
    const key = f.url === '' ? `${f.functionName} in ${caller}` : `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    by.set(key, (by.get(key) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c, f.url === '' ? caller : key);
  };
  walk(head, '');
  const top = [...by].filter(([, b]) => b > 0).sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.ALLOC_TOP));
  return Object.fromEntries(top.map(([k, b]) => [k, Math.round(b / commands)]));
}

async function measure(s: Side, session: Session) {
  for (let i = 0; i < WARMUP; i++) s.round();
  spent.interpret = spent.commit = spent.engine = 0n;
  scavenges = 0;
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) s.round();
  const wall = Number(process.hrtime.bigint() - t0);
  const cpu = process.cpuUsage(c0);
  await new Promise((done) => setTimeout(done, 50)); // the gc entries of the loop arrive now
  const commands = 2 * ROUNDS;
  const perCommand = (ns: bigint | number) => +(Number(ns) / 1000 / commands).toFixed(2);
  const minor = scavenges;
  const usPerCommand = { wall: perCommand(wall), cpu: +((cpu.user + cpu.system) / commands).toFixed(2), interpret: perCommand(spent.interpret), engineRunOnly: perCommand(spent.engine), commit: perCommand(spent.commit) };
  // Allocation over a shorter window of its own (the profiler slows the loop).
  const window = Math.min(ROUNDS, 2_000);
  await post(session, 'HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
  for (let i = 0; i < window; i++) s.round();
  const { profile } = await post<{ profile: { head: HeapNode } }>(session, 'HeapProfiler.stopSampling');
  return {
    side: s.name,
    usPerCommand,
    bytesAllocatedPerCommand: Math.round(total(profile.head) / (2 * window)),
    scavengesPerThousandCommands: +((1000 * minor) / commands).toFixed(2),
    ...(process.env.ALLOC_TOP ? { allocatedBy: allocatedBy(profile.head, 2 * window) } : {}),
  };
}

const session = new Session();
session.connect();
const results = [];
for (const make of [builtIn, engine]) results.push(await measure(make(), session));
console.log(JSON.stringify({ at: new Date().toISOString(), rounds: ROUNDS, warmup: WARMUP, results }, null, 1));
session.disconnect();
