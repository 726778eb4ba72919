import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile, type Profile } from '../../conformance/src/runner/profile.js';
import { runSuite } from '../../conformance/src/runner/runSuite.js';
import type { Report } from '../../conformance/src/report/model.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { OTHER_IDENTITY, OUR_NAMESPACE, THEIR_NAMESPACE } from '../support/otherIdentity.js';
import { startMutant } from '../mutants/mutantProxy.js';
import { trailingNonesDropped } from '../mutants/benign/trailingNonesDropped.js';

/**
 * The suite against a conformant server that runs Splice's own packages (splice-amulet 0.1.22,
 * as a vendor's Scan and registry do), not the ports the oracle's in-process reference runs: its
 * AmuletRules and rounds have the members 0.1.22 has, its choice contexts the entries 0.1.22's
 * registry builds, its settlements the tx-kinds 0.1.22 writes; and, as any vendor's node, it has
 * its own participant id and synchronizers (test/support/otherIdentity.ts), so none of its ids are
 * the reference's. None of that may fail a check or
 * warn: the oracle compares only what the request alone decides, the history judge blames the
 * ledger only for what the ledger decides.
 */
const DARS = ['splice-amulet-0.1.22.dar', 'splice-api-token-allocation-v2-1.0.0.dar', 'splice-api-token-holding-v2-1.0.0.dar', 'splice-api-token-transfer-instruction-v2-1.0.0.dar'];
const TRANSFER_INSTRUCTION = '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferInstruction';
const ALLOCATION = '#splice-api-token-allocation-v1:Splice.Api.Token.AllocationV1:Allocation';

describe.skipIf(!HAS_DARS)('certifying a server on Splice 0.1.22 (needs ../shared/upstream/daml/dars)', () => {
  let server: ReferenceServer;
  let profile: Profile;

  /** The one contract of `interfaceId` `party` sees, by its interface view. */
  async function onlyContract(party: string, interfaceId: string): Promise<string> {
    const end = ((await (await fetch(`${server.url}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
    const filter = { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: false, includeCreatedEventBlob: false } } } }] };
    const res = await fetch(`${server.url}/v2/state/active-contracts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ activeAtOffset: end, eventFormat: { filtersByParty: { [party]: filter }, verbose: false } }) });
    const entries = (await res.json()) as { contractEntry: { JsActiveContract?: { createdEvent: { contractId: string } } } }[];
    const ids = entries.flatMap((e) => (e.contractEntry.JsActiveContract ? [e.contractEntry.JsActiveContract.createdEvent.contractId] : []));
    expect(ids, `${party}'s ${interfaceId}`).toHaveLength(1);
    return ids[0]!;
  }

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-splice-target-'));
    try {
      for (const dar of DARS) copyFileSync(join(DARS_DIR, 'splice', dar), join(dir, dar));
      server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, spliceDars: dir, identity: OTHER_IDENTITY, log: { error: () => undefined, warn: () => undefined, info: () => undefined } });
    } finally {
      rmSync(dir, { recursive: true });
    }
    // The reference profile, with the ids of this world's own contracts (alice's pending transfer
    // to carol, bob's allocation for otc-1) and without the ports' allocation instructions,
    // which real Amulet does not have (those checks skip).
    // A vendor's node has its own identity: the reference profile's parties in its namespace.
    const base = JSON.parse(JSON.stringify(loadProfile('reference')).replaceAll(OUR_NAMESPACE, THEIR_NAMESPACE)) as Profile;
    const alice = base.registry!.authorizerParty!;
    const bob = base.scan!.preapprovalParty!;
    const { allocationInstructionId: _a, archivedAllocationInstructionId: _b, inFlightAllocationInstructionId: _c, ...registry } = base.registry!;
    const { preapprovalContractId: _d, ...scan } = base.scan!;
    profile = {
      ...base,
      name: 'splice-0.1.22',
      registry: { ...registry, transferInstructionId: await onlyContract(alice, TRANSFER_INSTRUCTION), allocationId: await onlyContract(bob, ALLOCATION) },
      scan,
    };
  }, 120_000);
  afterAll(() => server?.close());

  it('passes every check that runs, with the oracle, the judge, re-interpretation and the history judge on', async () => {
    const { report, exitCode }: { report: Report; exitCode: number } = await runSuite({
      baseUrls: { registry: server.url, ledger: server.url, scan: server.url },
      target: server.url,
      profile,
      seed: 20261130,
      runs: 8,
      timeoutMs: 10_000,
      concurrency: 2,
      progress: 'quiet',
      toolVersion: 'splice-target',
      oracle: 'reference',
      judge: 'model',
      reinterpret: 'engine',
      history: 'parser',
    });
    const bad = report.checks.filter((c) => c.status === 'fail' || c.status === 'error' || c.status === 'warn').map((c) => `${c.id}: ${c.status} ${c.message ?? ''}`);
    // Real Amulet has no allocation instructions to name: that check says its pass means little.
    expect(bad).toEqual(['registry.accept.unknown-id-404: warn the profile names no active instruction, so a target without this endpoint would pass too']);
    expect(exitCode).toBe(0);
    // It judged what it should: the oracle compared, the registry and Scan checks ran on the real contracts.
    expect(report.oracle?.compared).toBeGreaterThan(100);
    const ran = (prefix: string) => report.checks.filter((c) => c.id.startsWith(prefix) && c.status === 'pass').length;
    expect(ran('registry.')).toBeGreaterThanOrEqual(25);
    expect(ran('scan.')).toBeGreaterThanOrEqual(15);
    // Splice's own TransferFactory_Transfer refuses a transfer past its deadline, as the ports do.
    expect(report.checks.find((c) => c.id === 'registry.transfer-factory.expired-refused')?.status).toBe('pass');
    // Its reject and withdraw contexts let TransferInstruction_Reject and _Withdraw run on the real code.
    expect(report.checks.find((c) => c.id === 'registry.cross-group.transfer-contexts-let-reject-withdraw-succeed')?.status).toBe('pass');
    expect(report.checks.find((c) => c.id === 'registry.cross-group.allocation-contexts-let-choices-succeed')?.status).toBe('pass');
    // Splice's LockedAmulet shows its lock in its Holding view, and its Amulet change is spent alone.
    expect(report.checks.find((c) => c.id === 'registry.holdings.views-after-offer')?.status).toBe('pass');
    expect(report.checks.find((c) => c.id === 'scan.cross-group.featured-app-right-found')?.status).toBe('pass');
  }, 300_000);

  // Splice's records end in Optional fields (the rounds' trafficPrice and rewardConfig, TransferConfig's
  // tokenStandardMaxTTL): Canton 3.5's JSON API leaves them out when None, Splice's Scan writes them null.
  it("Scan's contracts equal the ledger's whose JSON API leaves a record's trailing None fields out, as Canton 3.5's does (trailing-nones-dropped)", async () => {
    const proxy = await startMutant(server.url, trailingNonesDropped);
    try {
      const only = ['scan.cross-group.contracts-match-ledger', 'scan.cross-group.featured-app-right-found', 'scan.cross-group.preapproval-matches-ledger'];
      const { report } = await runSuite({ baseUrls: { registry: proxy.url, ledger: proxy.url, scan: proxy.url }, target: proxy.url, profile, only, seed: 20261130, progress: 'quiet', toolVersion: 'splice-target' });
      expect(report.checks.map((c) => `${c.id}: ${c.status} ${c.message ?? ''}`).sort()).toEqual(only.map((id) => `${id}: pass `).sort());
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
