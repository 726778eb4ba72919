/**
 * One real Amulet transfer per call (`AmuletRules_Transfer` of the splice-amulet 0.1.8 that
 * splice-amulet-test 0.1.8 carries), set up as Splice's own tests do
 * (Splice.Scripts.Util.genericSetupApp): AmuletRules with the test DAR's
 * `defaultAmuletConfigSchedule` (evaluated by the engine), the bootstrap rounds, a DevNet tap of
 * alice; then each call moves 10 Amulet from alice to bob through the JSON API command path (fees,
 * holding fees and rewards computed by the DAR). The ledger and DAR reader are parameters, so a
 * bench can set up this build's and a base build's side by side.
 */
import type * as LedgerIndex from '../reference-server/src/ledger/index.js';
import type * as ReadDar from '../reference-server/src/ledger/packages/readDar.js';

type Tx = LedgerIndex.JsTransaction;

export function amuletTransferRound(
  createLedger: typeof LedgerIndex.createLedger,
  readDar: typeof ReadDar.readDar,
  dar: Uint8Array,
): () => void {
  const ledger = createLedger();
  const up = ledger.uploadDar(dar, { synchronizerId: ledger.config.synchronizers[0]!.id });
  if (!up.ok) throw new Error(up.error.cause);
  const parsed = readDar(dar);
  if (!parsed.ok) throw new Error(parsed.error.reason);
  const pkg = (name: string) => parsed.value.packages.find((p) => p.packageName === name)!.packageId;
  const [amuletPkg, testPkg] = [pkg('splice-amulet'), pkg('splice-amulet-test')];
  const party = (hint: string) => { const r = ledger.allocateParty({ partyIdHint: hint }); if (!r.ok) throw new Error(r.error.cause); return r.value.partyDetails.party; };
  const [dso, alice, bob] = [party('dso'), party('alice'), party('bob')];
  const rulesName = { packageId: amuletPkg, module: 'Splice.AmuletRules', name: 'AmuletRules' };
  const created = ledger.submitEngineCommands({
    actAs: [dso],
    commands: [{
      kind: 'create', template: rulesName,
      expr: { kind: 'recCon', tycon: { tycon: rulesName, args: [] }, fields: [
        { field: 'dso', expr: { kind: 'lit', value: { kind: 'party', value: dso } } },
        { field: 'configSchedule', expr: { kind: 'val', ref: { packageId: testPkg, module: 'Splice.Scripts.Parameters', name: 'defaultAmuletConfigSchedule' } } },
        { field: 'isDevNet', expr: { kind: 'lit', value: { kind: 'bool', value: true } } },
      ] },
    }],
  });
  if (!created.ok) throw new Error(`AmuletRules: ${created.error.cause}`);
  const rules = created.value.transaction.created[0]!.contractId;
  const RULES = `${amuletPkg}:Splice.AmuletRules:AmuletRules`;
  let seq = 0;
  const exercise = (actAs: string[], choice: string, choiceArgument: LedgerIndex.DamlValue): Tx => {
    const r = ledger.submitAndWaitForTransaction({ commands: { userId: 'bench', commandId: `a${++seq}`, actAs, readAs: [dso], commands: [{ ExerciseCommand: { templateId: RULES, contractId: rules, choice, choiceArgument } }] } });
    if (!r.ok) throw new Error(`${choice}: ${r.error.code}: ${r.error.cause}`);
    return r.value.transaction;
  };
  const boot = exercise([dso], 'AmuletRules_Bootstrap_Rounds', { amuletPrice: '1.0', round0Duration: { microseconds: '86400000000' } });
  const round0 = boot.events.flatMap((e) => ('CreatedEvent' in e && e.CreatedEvent.templateId.endsWith(':OpenMiningRound') ? [e.CreatedEvent] : []))
    .find((c) => (c.createArgument as { round: { number: string } }).round.number === '0')!.contractId;
  const amuletOf = (tx: Tx, owner: string) => tx.events.flatMap((e) => ('CreatedEvent' in e && e.CreatedEvent.templateId.endsWith(':Splice.Amulet:Amulet') && (e.CreatedEvent.createArgument as { owner: string }).owner === owner ? [e.CreatedEvent.contractId] : []));
  let amulets = amuletOf(exercise([alice], 'AmuletRules_DevNet_Tap', { receiver: alice, amount: '1000000.0', openRound: round0 }), alice);
  const context = { openMiningRound: round0, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null };
  return () => {
    const transfer = { sender: alice, provider: alice, inputs: amulets.map((cid) => ({ tag: 'InputAmulet', value: cid })), outputs: [{ receiver: bob, receiverFeeRatio: '0.0', amount: '10.0', lock: null }] };
    amulets = amuletOf(exercise([alice, bob], 'AmuletRules_Transfer', { transfer, context }), alice);
    if (amulets.length !== 1) throw new Error(`expected one change amulet, got ${amulets.length}`);
  };
}
