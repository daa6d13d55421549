/**
 * Splits a design into independently parseable chunks: the head (comments
 * and `service`) and one chunk per `table` that starts a line — exactly
 * where the parser begins a table, so parsing the chunks one by one gives
 * the same tree as parsing the whole text. Incremental analysis re-parses
 * only the chunks an edit touched. Line ends are read as the lexer reads
 * them (`\r\n`, `\n`, a lone `\r`); one linear pass.
 */
import { blockCommentEnd, isIdentPart, lineCommentEnd } from "./lexer";
import { hasLineBreak, isLineBreak } from "./line-ends";

/** Start offsets of the chunks; the first is always 0. */
export function chunkStarts(text: string): number[] {
  const starts = [0];
  const n = text.length;
  let i = 0;
  let atLineStart = true;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      atLineStart = true;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 0xfeff) {
      i++;
      continue;
    }
    if (atLineStart && c === 116 /* t */ && text.startsWith("table", i) && !isIdentPart(text.charCodeAt(i + 5)) && i > 0) {
      if (text.charCodeAt(nextToken(text, i + 5)) !== 58 /* : — a property named "table" */) starts.push(i);
    }
    if (c === 47 && text.charCodeAt(i + 1) === 47) {
      i = lineCommentEnd(text, i);
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      // Block comment: nothing inside starts a chunk; as in the lexer, one that spans lines leaves the next token at a line start.
      const stop = blockCommentEnd(text, i);
      atLineStart ||= hasLineBreak(text, i + 2, stop);
      i = stop;
      continue;
    }
    atLineStart = false;
    if (c === 34) {
      // string: ends at its quote or at the end of the line
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 92) {
          j += 2;
          continue;
        }
        if (d === 34) {
          j++;
          break;
        }
        if (isLineBreak(d)) break;
        j++;
      }
      i = j;
      continue;
    }
    i++;
  }
  return starts;
}

/**
 * Offset of the next token at or after `i`: skips whitespace, line ends and
 * comments, as the lexer does. Linear overall: what it skips ends at a token,
 * and the next `table` it is called for lies after that token.
 */
function nextToken(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 0xfeff || isLineBreak(c)) {
      i++;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 47) {
      i = lineCommentEnd(text, i);
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      i = blockCommentEnd(text, i);
      continue;
    }
    return i;
  }
  return n;
}
