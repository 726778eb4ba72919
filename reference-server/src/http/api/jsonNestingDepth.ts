/**
 * The deepest nesting of arrays and objects in a JSON text, found without parsing (strings are
 * skipped). Bodies nested deeper than any Daml value can be are refused before they reach code
 * that recurses over them (validation, rendering), so they cannot exhaust the stack.
 */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) i = closingQuote(text, i);
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) max = depth;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
}

/**
 * Where the string opened at `open` ends (the text's length if it does not): found with `indexOf`,
 * which skips a disclosed contract's long blob far faster than a loop over its characters. A quote
 * after an odd number of backslashes is escaped.
 */
function closingQuote(text: string, open: number): number {
  for (let j = text.indexOf('"', open + 1); j >= 0; j = text.indexOf('"', j + 1)) {
    let k = j - 1;
    while (text.charCodeAt(k) === 92 /* \ */) k--;
    if ((j - 1 - k) % 2 === 0) return j;
  }
  return text.length;
}
