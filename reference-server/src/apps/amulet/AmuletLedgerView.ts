import type { Ledger } from '../../ledger/index.js';
import { fromScaled, toScaled } from '../../ledger/templates/numeric.js';
import type { LogEntry } from '../../store/LogEntry.js';
import type { StoredContract } from '../../store/StoredContract.js';
import { ContractIndex } from '../ContractIndex.js';
import type { AppTemplates } from '../registerAppTemplates.js';
import { compareTimes } from '../time.js';
import { record, text } from './amuletContext.js';

const byDso = (c: StoredContract) => [text(c.argument.dso)];
const roundNumber = (c: StoredContract) => BigInt(text(record(c.argument.round).number) || '0');
const byRound = (a: StoredContract, b: StoredContract) => (roundNumber(a) < roundNumber(b) ? -1 : roundNumber(a) > roundNumber(b) ? 1 : 0);

/**
 * The Amulet contracts the registry and Scan answer from, indexed by what they are looked up by
 * and kept current from the ledger's commits: the DSO's rules, factory and rounds, featured app
 * rights by provider, preapprovals by receiver, traffic purchases by member, and the total supply
 * of amulet.
 */
export class AmuletLedgerView {
  readonly amuletRules: ContractIndex;
  readonly dsoRules: ContractIndex;
  readonly factories: ContractIndex;
  readonly openRounds: ContractIndex;
  readonly issuingRounds: ContractIndex;
  readonly featuredApps: ContractIndex;
  readonly preapprovals: ContractIndex;
  /** Traffic purchases by synchronizer and member (`synchronizerId \n memberId`). */
  readonly memberTraffic: ContractIndex;
  #supply = 0n;
  #supplyAsOf: number;
  readonly #unsubscribe: () => void;

  constructor(
    readonly ledger: Ledger,
    readonly templates: AppTemplates,
  ) {
    this.amuletRules = new ContractIndex(ledger, templates.amuletRules, byDso);
    this.dsoRules = new ContractIndex(ledger, templates.dsoRules, byDso);
    this.factories = new ContractIndex(ledger, templates.externalPartyAmuletRules, byDso);
    this.openRounds = new ContractIndex(ledger, templates.openMiningRound, byDso, byRound);
    this.issuingRounds = new ContractIndex(ledger, templates.issuingMiningRound, byDso, byRound);
    this.featuredApps = new ContractIndex(ledger, templates.featuredAppRight, (c) => [text(c.argument.provider)]);
    this.preapprovals = new ContractIndex(
      ledger,
      templates.transferPreapproval,
      (c) => [text(c.argument.receiver)],
      (a, b) => compareTimes(text(b.argument.validFrom), text(a.argument.validFrom)) || b.createdOffset - a.createdOffset,
    );
    this.memberTraffic = new ContractIndex(ledger, templates.memberTraffic, (c) => [`${text(c.argument.synchronizerId)}\n${text(c.argument.memberId)}`]);
    for (const t of [templates.amulet, templates.lockedAmulet]) {
      for (const c of ledger.store.activeSnapshot({ kind: 'template', template: t })) this.#supply += this.#amountOf(c);
    }
    this.#supplyAsOf = ledger.config.clock.now();
    this.#unsubscribe = ledger.onCommit((entry) => this.#apply(entry));
  }

  /** The DSO party: the dso of the oldest active AmuletRules; undefined when there is none. */
  dso(): string | undefined {
    const rules = this.templates.amuletRules;
    for (const c of this.ledger.store.activeSnapshot({ kind: 'template', template: rules })) return text(c.argument.dso);
    return undefined;
  }

  /** Amulet in existence (unlocked and locked), Numeric 10, and the ledger time it last changed. */
  supply(): { totalSupply: string; asOf: number } {
    return { totalSupply: fromScaled(this.#supply), asOf: this.#supplyAsOf };
  }

  /** The open round active at `now` (opensAt <= now < targetClosesAt), the latest-opened one. */
  activeOpenRound(dso: string, nowMicros: bigint, timeOf: (t: string) => bigint | undefined): StoredContract | undefined {
    let best: StoredContract | undefined;
    for (const c of this.openRounds.get(dso)) {
      const opens = timeOf(text(c.argument.opensAt));
      const closes = timeOf(text(c.argument.targetClosesAt));
      if (opens === undefined || closes === undefined || opens > nowMicros || nowMicros >= closes) continue;
      if (best === undefined || (timeOf(text(best.argument.opensAt)) ?? 0n) <= opens) best = c;
    }
    return best;
  }

  detach(): void {
    for (const i of [this.amuletRules, this.dsoRules, this.factories, this.openRounds, this.issuingRounds, this.featuredApps, this.preapprovals, this.memberTraffic]) i.detach();
    this.#unsubscribe();
  }

  #amountOf(c: StoredContract): bigint {
    const amulet = c.template === this.templates.lockedAmulet ? record(c.argument.amulet) : c.argument;
    return toScaled(text(record(amulet.amount).initialAmount) || '0');
  }

  #apply(entry: LogEntry): void {
    if (entry.kind !== 'transaction') return;
    let changed = false;
    for (const node of entry.nodes) {
      const t = node.contract.template;
      if (t !== this.templates.amulet && t !== this.templates.lockedAmulet) continue;
      if (node.kind === 'create') {
        if (!node.transient) {
          this.#supply += this.#amountOf(node.contract);
          changed = true;
        }
      } else if (node.archivesInput) {
        this.#supply -= this.#amountOf(node.contract);
        changed = true;
      }
    }
    if (changed) this.#supplyAsOf = entry.effectiveAt;
  }
}
