/**
 * daml-prim's `GHC.Show.Text.showsPrecText : Int -> Text -> ShowS` run natively: `show` of a
 * Text, the quoted text with Haskell's escapes. Splice's code shows texts in the messages it
 * builds for `require` (Daml is strict: built whether or not the check fails); interpreted, each
 * character goes through `showLitChrs` and `showLitChr`'s guards, about a tenth of the evaluation
 * steps of a real Amulet transfer (bench/RESULTS.md).
 *
 * The body is `\_ x -> showString "\"" . showLitText x . showString "\""`: a `ShowS`, given the
 * text that follows. The intrinsic takes that text as a third argument, so `showsPrecText d x` is
 * a partial application, a function value as the body's result is (functions are not compared).
 * The body cannot fail: `ord` and `ctrlChrText`'s errors are for texts `explode` never makes.
 */
import type { BuiltinOutcome } from '../builtins/Builtin.js';
import { textOf } from '../value/Value.js';
import { builtinCost } from './allocationCost.js';
import type { Intrinsic } from './intrinsics.js';

/** `ctrlChrText`'s names of the control characters below space, by code point (`\SO` is `showLitChr`'s own case). */
const CONTROL = [
  'NUL', 'SOH', 'STX', 'ETX', 'EOT', 'ENQ', 'ACK', 'a', 'b', 't', 'n', 'v', 'f', 'r', 'SO', 'SI',
  'DLE', 'DC1', 'DC2', 'DC3', 'DC4', 'NAK', 'SYN', 'ETB', 'CAN', 'EM', 'SUB', 'ESC', 'FS', 'GS', 'RS', 'US',
];

const isDigit = (cp: number | undefined): boolean => cp !== undefined && cp >= 0x30 && cp <= 0x39;

/**
 * `showLitText x` applied to a text that does not start with a digit or `H` (the closing quote
 * follows it): each code point as `showLitChr` writes it. `protectEsc` looks at the text after a
 * numeric escape or `\SO`, which starts with the next character's own rendering: a digit or `H`
 * only when that character is one.
 */
export function showLitText(x: string): string {
  let out = '';
  const cps = Array.from(x, (c) => c.codePointAt(0)!);
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i]!;
    if (cp === 0x22) out += '\\"';
    else if (cp > 0x7f) out += `\\${cp}${isDigit(cps[i + 1]) ? '\\&' : ''}`;
    else if (cp === 0x7f) out += '\\DEL';
    else if (cp === 0x5c) out += '\\\\';
    else if (cp >= 0x20) out += String.fromCodePoint(cp);
    else if (cp === 0x0e) out += `\\SO${cps[i + 1] === 0x48 ? '\\&' : ''}`;
    else out += `\\${CONTROL[cp]!}`;
  }
  return out;
}

export const showsPrecTextIntrinsic: Intrinsic = {
  name: 'intrinsic GHC.Show.Text:showsPrecText',
  arity: 3,
  // Charged what the body builds at least: the exploded text, and the appended result.
  cost: (args) => builtinCost('EXPLODE_TEXT', [args[1]!]) + builtinCost('APPEND_TEXT', [args[1]!, args[2]!]),
  apply: (args): BuiltinOutcome => ({ ok: true, value: { kind: 'text', value: `"${showLitText(textOf(args[1]!))}"${textOf(args[2]!)}` } }),
};
