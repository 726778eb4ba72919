// What a YAML 1.1 loader (PyYAML, so Schemathesis and other Python tools) needs from our documents.
import { isDeepStrictEqual } from 'node:util';
import { isAlias, isNode, parseDocument, visit } from 'yaml';

/**
 * Why `text` would not load the same in a YAML 1.1 loader, one line per problem (empty when it would).
 * Anchors and aliases are refused outright: PyYAML rejects an anchor defined twice, which YAML 1.2
 * allows, and a document without them cannot hit that. Plain scalars that YAML 1.1 reads differently
 * (`yes`, `on`, `010`, `1:20`, unquoted dates) show up as data that differs between the two versions.
 */
export function yaml11Problems(text: string): string[] {
  const problems: string[] = [];
  const v12 = parseDocument(text, { version: '1.2' });
  const v11 = parseDocument(text, { version: '1.1' });
  for (const e of [...v12.errors, ...v11.errors]) problems.push(`parse error: ${e.message}`);
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
  visit(v12, {
    Node(_, node) {
      if (isAlias(node)) problems.push(`line ${lineOf(node.range?.[0] ?? 0)}: alias *${node.source}`);
      else if (isNode(node) && node.anchor !== undefined) problems.push(`line ${lineOf(node.range?.[0] ?? 0)}: anchor &${node.anchor}`);
    },
  });
  if (problems.length === 0 && !isDeepStrictEqual(v11.toJS(), v12.toJS())) {
    problems.push('reads as different data under YAML 1.1 (an unquoted yes/no/on/off, octal, sexagesimal or date)');
  }
  return problems;
}
