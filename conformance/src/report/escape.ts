/** Characters XML 1.0 forbids even escaped (control characters, lone surrogates, U+FFFE/F). Targets send anything. */
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for XML and HTML bodies and attribute values (both quote kinds). */
export function escapeXml(s: string): string {
  return s
    .replace(XML_INVALID, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export const escapeHtml = escapeXml;

/** One Markdown table cell: no pipes, newlines, markup or control characters; bounded length. */
export function mdCell(s: string, max = 200): string {
  const one = s
    .replace(XML_INVALID, '\uFFFD')
    .replace(/\r?\n|\t/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/`/g, "'");
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
