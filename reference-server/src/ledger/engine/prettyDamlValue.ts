/**
 * Values and type names as the Daml engine prints them in its error messages (Speedy's
 * `Pretty.prettyValue`, `prettyTypeConId`, `prettyIdentifier`; digital-asset/canton
 * community/daml-lf/interpreter/.../speedy/Pretty.scala). Its documents have no line breaks
 * inside values, so plain strings render them exactly.
 */
import type { QualifiedName } from '../../../../daml-engine/ast/Type.js';
import { numericToScaledText, numericToText } from '../../../../daml-engine/value/numeric.js';
import { dateToText, timestampToText } from '../../../../daml-engine/value/time.js';
import type { Value } from '../../../../daml-engine/value/Value.js';

/** `Module:Name@` and the package id's first 8 characters (prettyTypeConId, prettyIdentifier). */
export const prettyTypeConId = (q: QualifiedName): string => `${q.module}:${q.name}@${q.packageId.slice(0, 8)}`;

/** `packageId:Module:Name` (Ref.Identifier's toString). */
export const identifierText = (q: QualifiedName): string => `${q.packageId}:${q.module}:${q.name}`;

/**
 * A value: `verbose` prints the top-level record, variant or enum with its type; nested values
 * always are (the engine passes `true` below the top).
 */
export function prettyDamlValue(v: Value, verbose: boolean): string {
  switch (v.kind) {
    case 'int64': return v.value.toString();
    case 'numeric': return numericToScaledText(v); // Numeric.toString: exactly `scale` digits
    case 'bigNumeric': return numericToText(v);
    case 'text': return `"${v.value}"`;
    case 'date': return dateToText(v.days);
    case 'timestamp': return timestampToText(v.micros);
    case 'party': return `'${v.value}'`;
    case 'contractId': return v.value;
    case 'unit': return '<unit>';
    case 'bool': return v.value ? 'true' : 'false';
    case 'record': {
      const fields = v.fields.map((f, i) => `${v.fieldNames[i] ?? '<no-label>'} = ${prettyDamlValue(f, true)}`);
      // `{` & fill(", ", fields) & `}`: a space either side, even with no field.
      return `${verbose ? prettyTypeConId(v.tycon) : ''}{ ${fields.join(', ')} }`;
    }
    case 'variant': return `${verbose ? `${prettyTypeConId(v.tycon)}:` : ''}${v.constructor}(${prettyDamlValue(v.value, true)})`;
    case 'enum': return `${verbose ? `${prettyTypeConId(v.tycon)}:` : ''}${v.constructor}`;
    case 'nil': case 'cons': {
      const items: string[] = [];
      for (let cell: Value = v; cell.kind === 'cons'; cell = cell.tail) items.push(prettyDamlValue(cell.head, true));
      return `[${items.join(', ')}]`;
    }
    case 'optional': return v.value === undefined ? 'None' : `Option(${prettyDamlValue(v.value, verbose)})`;
    case 'textMap': return `TextMap(${v.entries.map(([k, x]) => `${k} -> ${prettyDamlValue(x, verbose)}`).join(', ')})`;
    case 'genMap': return `GenMap(${v.entries.map(([k, x]) => `${prettyDamlValue(k, verbose)} -> ${prettyDamlValue(x, verbose)}`).join(', ')})`;
    // Not serializable: never in a contract or an exception payload.
    case 'struct': return `<struct ${v.fieldNames.join(', ')}>`;
    default: return `<${v.kind}>`;
  }
}
