import type { ChoiceContext, ContractView, DamlRecord, DamlValue, LedgerError, Result } from '../../ledger/index.js';
import { err, ok } from '../../ledger/index.js';
import { msToMicros, timeMicros } from '../time.js';

/**
 * Keys of Amulet's choice contexts (`choiceContextData.values`), as Splice's registry names them.
 * Each names a contract the choice fetches, disclosed with the context.
 */
export const AMULET_RULES_KEY = 'amulet-rules';
export const OPEN_ROUND_KEY = 'open-round';
export const TRANSFER_PREAPPROVAL_KEY = 'transfer-preapproval';
/** splice-amulet 0.1.22 and later: the DSO's latest ExternalPartyConfigState. */
export const EXTERNAL_PARTY_CONFIG_STATE_KEY = 'external-party-config-state';
/** Splice's registry: whether the choice should expire the lock of the locked amulet (a bool). */
export const EXPIRE_LOCK_KEY = 'expire-lock';

/** The instrument id of Amulet; its admin is the DSO party. */
export const AMULET_INSTRUMENT_ID = 'Amulet';

export const record = (v: DamlValue | undefined): DamlRecord => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as DamlRecord) : {});
export const text = (v: DamlValue | undefined): string => (typeof v === 'string' ? v : '');

/** The contract id under `key` of a choice context, if the caller passed one. */
export function contextCid(extraArgs: DamlValue | undefined, key: string): string | undefined {
  const v = record(record(record(record(extraArgs).context).values)[key]);
  return v.tag === 'AV_ContractId' && typeof v.value === 'string' ? v.value : undefined;
}

/** Like contextCid, but a missing entry fails the choice, naming the key. */
export function requiredContextCid(ctx: ChoiceContext, extraArgs: DamlValue | undefined, key: string): Result<string, LedgerError> {
  const cid = contextCid(extraArgs, key);
  return cid === undefined ? err(ctx.fail(`Missing context entry for: ${key}; fetch the context from the registry's choice-context endpoint`)) : ok(cid);
}

/** Fetches a context contract and checks it is of `templateId` (package-id form) and of this dso. */
export function fetchOf(ctx: ChoiceContext, cid: string, templateId: string, what: string, dso: string): Result<ContractView, LedgerError> {
  const c = ctx.fetch(cid);
  if (!c.ok) return c;
  if (c.value.templateId !== templateId) return err(ctx.fail(`context contract ${cid} is not a ${what}`));
  if (c.value.argument.dso !== dso) return err(ctx.fail(`${what} ${cid} belongs to another dso`));
  return c;
}

/** Ledger time strictly before `deadline` (RFC 3339); `what` names it in the refusal. */
export function before(ctx: ChoiceContext, deadline: DamlValue | undefined, what: string): Result<void, LedgerError> {
  const t = timeMicros(text(deadline));
  if (t !== undefined && msToMicros(ctx.now) < t) return ok(undefined);
  return err(ctx.fail(`${what} (${text(deadline)}) has passed`));
}

/** Ledger time at or after `t`. */
export function notAfterNow(ctx: ChoiceContext, t: DamlValue | undefined, what: string): Result<void, LedgerError> {
  const v = timeMicros(text(t));
  if (v !== undefined && v <= msToMicros(ctx.now)) return ok(undefined);
  return err(ctx.fail(`${what} (${text(t)}) must not be in the future`));
}
