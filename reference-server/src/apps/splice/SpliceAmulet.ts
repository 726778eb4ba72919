/**
 * Splice's own splice-amulet on a ledger (loaded with `--splice-dars`): the ids of its templates
 * in package-id form (a `#splice-amulet` id names the built-in port, which stays registered for
 * ledgers without Splice's DARs) and their definitions, which the registry's and Scan's indexes
 * follow instead of the ports' when the world is built on the real package.
 */
import type { Ledger, LedgerError, Result, TemplateDef } from '../../ledger/index.js';
import { fail, ok } from '../../ledger/index.js';

const QUALIFIED = {
  amuletRules: 'Splice.AmuletRules:AmuletRules',
  transferPreapproval: 'Splice.AmuletRules:TransferPreapproval',
  openMiningRound: 'Splice.Round:OpenMiningRound',
  summarizingMiningRound: 'Splice.Round:SummarizingMiningRound',
  issuingMiningRound: 'Splice.Round:IssuingMiningRound',
  closedMiningRound: 'Splice.Round:ClosedMiningRound',
  amulet: 'Splice.Amulet:Amulet',
  lockedAmulet: 'Splice.Amulet:LockedAmulet',
  featuredAppRight: 'Splice.Amulet:FeaturedAppRight',
  memberTraffic: 'Splice.DecentralizedSynchronizer:MemberTraffic',
  externalPartyAmuletRules: 'Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules',
  amuletTransferInstruction: 'Splice.AmuletTransferInstruction:AmuletTransferInstruction',
  amuletAllocation: 'Splice.AmuletAllocation:AmuletAllocation',
} as const;
export type SpliceAmuletTemplate = keyof typeof QUALIFIED;

/** The loaded splice-amulet: its package id and version, and its templates by role. */
export interface SpliceAmulet {
  readonly packageId: string;
  readonly version: string;
  /** `packageId:Module:Entity` of each template. */
  readonly ids: Readonly<Record<SpliceAmuletTemplate, string>>;
  readonly templates: Readonly<Record<SpliceAmuletTemplate, TemplateDef>>;
  /**
   * ExternalPartyConfigState (splice-amulet 0.1.22 and later; undefined before): the DSO's
   * per-round snapshot of the transfer configuration that Amulet's token-standard choices read
   * from their context (`external-party-config-state`).
   */
  readonly externalPartyConfigState: { readonly id: string; readonly template: TemplateDef } | undefined;
}

/** Resolves the templates of the splice-amulet package `packageId` (uploaded to `ledger`). */
export function spliceAmuletOn(ledger: Ledger, packageId: string, version: string): Result<SpliceAmulet, LedgerError> {
  const ids = {} as Record<SpliceAmuletTemplate, string>;
  const templates = {} as Record<SpliceAmuletTemplate, TemplateDef>;
  for (const [role, qualified] of Object.entries(QUALIFIED) as [SpliceAmuletTemplate, string][]) {
    const id = `${packageId}:${qualified}`;
    const def = ledger.catalogue.resolve(id);
    if (!def.ok) return def;
    if (def.value.kind !== 'template') return fail('INVALID_ARGUMENT', `${id} is not a template`);
    ids[role] = id;
    templates[role] = def.value;
  }
  const configStateId = `${packageId}:Splice.ExternalPartyConfigState:ExternalPartyConfigState`;
  const configState = ledger.catalogue.resolve(configStateId);
  const externalPartyConfigState = configState.ok && configState.value.kind === 'template' ? { id: configStateId, template: configState.value } : undefined;
  return ok({ packageId, version, ids, templates, externalPartyConfigState });
}
