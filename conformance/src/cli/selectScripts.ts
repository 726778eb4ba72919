/**
 * Which of a DAR's scripts `canton-conformance test` runs: `--script` selectors (`Module:name`, or
 * a `Module` for all of its scripts), then `--test-pattern` (a regular expression searched in
 * `Module:name`, as `daml test --test-pattern` searches test names). A selector that names nothing
 * is a usage error with a suggestion: a bare name that is one script's suggests its `Module:name`.
 */
import type { QualifiedName } from '../../../daml-engine/index.js';
import { scriptName } from '../../../daml-engine/index.js';
import { closest } from '../runner/select.js';

export type ScriptSelection =
  | { readonly ok: true; readonly scripts: readonly QualifiedName[] }
  | { readonly ok: false; readonly message: string };

export function selectScripts(all: readonly QualifiedName[], selectors: readonly string[], pattern: RegExp | undefined): ScriptSelection {
  let picked: QualifiedName[] = selectors.length === 0 ? [...all] : [];
  for (const s of selectors) {
    const found = pick(all, s);
    if (!found.ok) return found;
    for (const ref of found.scripts) if (!picked.includes(ref)) picked.push(ref);
  }
  if (pattern) picked = picked.filter((ref) => pattern.test(scriptName(ref)));
  return { ok: true, scripts: picked };
}

function pick(all: readonly QualifiedName[], s: string): ScriptSelection {
  const exact = all.filter((ref) => scriptName(ref) === s);
  if (exact.length > 0) return { ok: true, scripts: exact };
  const inModule = all.filter((ref) => ref.module === s);
  if (inModule.length > 0) return { ok: true, scripts: inModule };
  const named = all.filter((ref) => ref.name === s);
  const hint = named.length === 1 ? scriptName(named[0]!)
    : named.length > 1 ? `one of ${named.map(scriptName).join(', ')}`
    : closest(s, new Set([...all.map(scriptName), ...all.map((ref) => ref.module)]));
  return { ok: false, message: `no script '${s}'${hint ? ` (did you mean ${hint}?)` : ''}; select a script by Module:name, or a module by its name` };
}
