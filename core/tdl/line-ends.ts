/**
 * Line ends as LSP defines them: `\r\n`, `\n` and a lone `\r` each end a
 * line, so a design reads the same (tokens, recovery, positions, formatting)
 * whatever editor or platform wrote it. Every helper scans only the range it
 * is given, so callers that walk disjoint ranges stay linear.
 */

/** The line-end style of a document. */
export type Eol = "\n" | "\r\n" | "\r";

/** True for the two characters that end lines (`\r\n` is one line end made of both). */
export function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

/** Whether `text[from, to)` holds a line end. */
export function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let i = Math.max(0, from); i < to && i < text.length; i++) if (isLineBreak(text.charCodeAt(i))) return true;
  return false;
}

/**
 * Whether `text[from, to)` holds a blank line: two line ends with only spaces
 * and tabs between them (`\r\n` counts as one line end, not two).
 */
export function hasBlankLine(text: string, from: number, to: number): boolean {
  let breaks = 0;
  const end = Math.min(to, text.length);
  for (let i = Math.max(0, from); i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 || c === 10) {
      if (c === 13 && i + 1 < end && text.charCodeAt(i + 1) === 10) i++;
      if (++breaks === 2) return true;
    } else if (c !== 32 && c !== 9 && c !== 0xfeff) {
      breaks = 0;
    }
  }
  return false;
}

/** The style of the document's first line end (`\n` when it has none): the formatter writes new line ends in it. */
export function detectEol(text: string): Eol {
  const n = text.indexOf("\n");
  const r = text.indexOf("\r");
  if (r < 0) return "\n";
  if (n < 0 || r < n - 1) return "\r";
  return r === n - 1 ? "\r\n" : "\n";
}

/** Offset of the start of the line that holds `offset`. */
export function lineStartOf(text: string, offset: number): number {
  let i = Math.min(offset, text.length);
  while (i > 0 && !isLineBreak(text.charCodeAt(i - 1))) i--;
  return i;
}

/** The spaces and tabs that begin the line holding `offset`. */
export function indentOf(text: string, offset: number): string {
  const start = lineStartOf(text, offset);
  let i = start;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return text.slice(start, i);
}
