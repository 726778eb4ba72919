/**
 * Coverage of a Daml Script run, as `daml test --show-coverage` reports it: which templates the
 * scripts created, which choices they exercised (of templates, and of interfaces), which interfaces
 * they used (queried, exercised through, viewed), out of those the DAR's main package and its
 * dependencies define. Recorded from what the ledger committed (every node of every transaction
 * tree, nested ones included) and from interface queries, so it is the same on every ledger.
 */
import type { Package } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import type { ScriptSubmitResult, ScriptTreeEvent } from './ScriptLedger.js';

/** Defined and used items of one kind, in one scope (main package or dependencies). */
export interface CoverageCount {
  readonly defined: number;
  readonly used: number;
  /** `Module:Name` (choices `Module:Template:Choice`) of what no script used, sorted. */
  readonly unused: readonly string[];
}

export interface CoverageScope {
  readonly templatesCreated: CoverageCount;
  readonly templateChoicesExercised: CoverageCount;
  readonly interfacesUsed: CoverageCount;
  readonly interfaceChoicesExercised: CoverageCount;
}

export interface CoverageReport {
  /** The DAR's main package (daml test's "internal"). */
  readonly main: CoverageScope;
  /** The packages it depends on (daml test's "external"), daml-script and the standard library included. */
  readonly dependencies: CoverageScope;
}

/** The keys a run used: templates created, choices exercised, interfaces used (`ScriptCoverage.used`). */
export interface CoverageUsed {
  readonly created: readonly string[];
  readonly exercised: readonly string[];
  readonly interfaces: readonly string[];
}

const key = (q: QualifiedName): string => `${q.packageId}:${q.module}:${q.name}`;

/** What a run used; `report` sets it against what the packages define. */
export class ScriptCoverage {
  readonly #created = new Set<string>();
  readonly #exercised = new Set<string>();
  readonly #interfaces = new Set<string>();

  /** Records what a committed submission created and exercised. */
  submitted(result: ScriptSubmitResult): void {
    if (!result.ok) return;
    const walk = (events: readonly ScriptTreeEvent[]): void => {
      for (const e of events) {
        if (e.kind === 'created') { this.#created.add(key(e.templateId)); continue; }
        if (e.interfaceId !== undefined) {
          this.#interfaces.add(key(e.interfaceId));
          this.#exercised.add(`${key(e.interfaceId)}:${e.choice}`);
        } else {
          this.#exercised.add(`${key(e.templateId)}:${e.choice}`);
        }
        walk(e.children);
      }
    };
    walk(result.tree);
  }

  /** Records an interface a script queried (its views computed). */
  interfaceUsed(interfaceId: QualifiedName): void {
    this.#interfaces.add(key(interfaceId));
  }

  /** What this run used, as plain data (to carry it from a worker thread: `test --jobs`). */
  used(): CoverageUsed {
    return { created: [...this.#created], exercised: [...this.#exercised], interfaces: [...this.#interfaces] };
  }

  /** Adds what another run used (`used()` of a worker's coverage). */
  add(used: CoverageUsed): void {
    for (const k of used.created) this.#created.add(k);
    for (const k of used.exercised) this.#exercised.add(k);
    for (const k of used.interfaces) this.#interfaces.add(k);
  }

  report(mainPackageId: string, packages: Iterable<Package>): CoverageReport {
    const scope = () => ({
      templates: new Counter(this.#created), templateChoices: new Counter(this.#exercised),
      interfaces: new Counter(this.#interfaces), interfaceChoices: new Counter(this.#exercised),
    });
    const main = scope();
    const deps = scope();
    for (const pkg of packages) {
      const s = pkg.id === mainPackageId ? main : deps;
      for (const [moduleName, m] of pkg.modules) {
        for (const [name, t] of m.templates) {
          const id = `${pkg.id}:${moduleName}:${name}`;
          s.templates.add(id, `${moduleName}:${name}`);
          for (const choice of t.choices.keys()) s.templateChoices.add(`${id}:${choice}`, `${moduleName}:${name}:${choice}`);
        }
        for (const [name, i] of m.interfaces) {
          const id = `${pkg.id}:${moduleName}:${name}`;
          s.interfaces.add(id, `${moduleName}:${name}`);
          for (const choice of i.choices.keys()) s.interfaceChoices.add(`${id}:${choice}`, `${moduleName}:${name}:${choice}`);
        }
      }
    }
    const done = (s: ReturnType<typeof scope>): CoverageScope => ({
      templatesCreated: s.templates.count(), templateChoicesExercised: s.templateChoices.count(),
      interfacesUsed: s.interfaces.count(), interfaceChoicesExercised: s.interfaceChoices.count(),
    });
    return { main: done(main), dependencies: done(deps) };
  }
}

class Counter {
  #defined = 0;
  #used = 0;
  readonly #unused: string[] = [];
  constructor(private readonly seen: ReadonlySet<string>) {}
  add(id: string, name: string): void {
    this.#defined++;
    if (this.seen.has(id)) this.#used++;
    else this.#unused.push(name);
  }
  count(): CoverageCount {
    return { defined: this.#defined, used: this.#used, unused: [...this.#unused].sort() };
  }
}

/** `used/defined (pct%)`, 100% of nothing as daml test prints it. */
export function coverageRatio(c: CoverageCount): string {
  const pct = c.defined === 0 ? 100 : (100 * c.used) / c.defined;
  return `${c.used}/${c.defined} (${pct.toFixed(1)}%)`;
}
