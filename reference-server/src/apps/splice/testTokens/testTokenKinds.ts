/**
 * Splice's two test tokens (token-standard/examples in canton-network/splice), as their DARs
 * declare them: which templates are the rules (the factories), the holdings, the transfer
 * instructions and the allocations, and what their choices read from the registry's context.
 * splice-test-token-v1 needs no context at all (its choices fetch nothing but what the actors
 * see); splice-test-token-v2 logs its v2 history events on the TokenRules named under
 * `testTokenV2/tokenRules` (Util.tokenRulesContextKey) and reads the AccountConfigs of accounts
 * with a provider from `testTokenV2/accountConfigs` (AccountConfig.accountConfigsContextKey).
 */
import type { Ledger, TemplateDef } from '../../../ledger/index.js';

export type TestTokenFlavour = 'v1' | 'v2';

export interface TestTokenKind {
  readonly flavour: TestTokenFlavour;
  readonly packageName: string;
  /** Qualified names (`Module:Entity`) of the package's templates, by role. */
  readonly rules: string;
  /** Holdings whose create argument is `{holding: HoldingView}` (v1's or v2's view). */
  readonly token: string;
  /** Other holdings: v1's transfer offers and allocations are holdings themselves. */
  readonly lockedHoldings: readonly string[];
  readonly transferInstructions: readonly string[];
  readonly allocations: readonly string[];
  readonly accountConfig: string | undefined;
  /** The context key naming the TokenRules (undefined: the choices read no context). */
  readonly rulesKey: string | undefined;
  readonly accountConfigsKey: string | undefined;
}

const V1 = 'Splice.Testing.Tokens.TestTokenV1';
const V2 = 'Splice.Testing.Tokens.TestTokenV2';

export const TEST_TOKEN_KINDS: readonly TestTokenKind[] = [
  {
    flavour: 'v1',
    packageName: 'splice-test-token-v1',
    rules: `${V1}:TokenRules`,
    token: `${V1}:Token`,
    lockedHoldings: [`${V1}:TokenTransferOffer`, `${V1}:TokenAllocation`],
    transferInstructions: [`${V1}:TokenTransferOffer`],
    allocations: [`${V1}:TokenAllocation`],
    accountConfig: undefined,
    rulesKey: undefined,
    accountConfigsKey: undefined,
  },
  {
    flavour: 'v2',
    packageName: 'splice-test-token-v2',
    rules: `${V2}:TokenRules`,
    token: `${V2}.Holding:Token`,
    lockedHoldings: [],
    transferInstructions: [`${V2}.Transfer:TokenTransferOffer`],
    allocations: [`${V2}.Allocation:TokenAllocationV1`, `${V2}.Allocation:TokenAllocationV2`],
    accountConfig: `${V2}.AccountConfig:AccountConfig`,
    rulesKey: 'testTokenV2/tokenRules',
    accountConfigsKey: 'testTokenV2/accountConfigs',
  },
];

/**
 * Every uploaded version of `packageName`'s template `qualified` (contracts of any version are
 * the token's); empty when the package is not on the ledger.
 */
export function templateVersions(ledger: Ledger, packageName: string, qualified: string): readonly TemplateDef[] {
  const found = ledger.catalogue.resolveForFilter(`#${packageName}:${qualified}`);
  if (!found.ok) return [];
  return found.value.filter((d): d is TemplateDef => d.kind === 'template' && d.packageName === packageName);
}
