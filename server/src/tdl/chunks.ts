/**
 * Splits a design into independently parseable chunks: the head (comments
 * and `service`) and one chunk per `table` that starts a line — exactly
 * where the parser begins a table, so parsing the chunks one by one gives
 * the same tree as parsing the whole text. Incremental analysis re-parses
 * only the chunks an edit touched.
 */

const isIdentPart = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** Start offsets of the chunks; the first is always 0. */
export function chunkStarts(text: string): number[] {
  const starts = [0];
  const n = text.length;
  let i = 0;
  let atLineStart = true;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) { atLineStart = true; i++; continue; }
    if (c === 32 || c === 9 || c === 13 || c === 0xfeff) { i++; continue; }
    if (atLineStart && c === 116 /* t */ && text.startsWith("table", i) && !isIdentPart(text.charCodeAt(i + 5)) && i > 0) {
      let j = i + 5;
      while (j < n && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
      if (text.charCodeAt(j) !== 58 /* : — a property named "table" */) starts.push(i);
    }
    if (c === 47 && text.charCodeAt(i + 1) === 47) { // line comment
      const end = text.indexOf("\n", i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      // Block comment: nothing inside starts a chunk; as in the lexer, one that spans lines leaves the next token at a line start.
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      if (text.lastIndexOf("\n", stop - 1) >= i) atLineStart = true;
      i = stop;
      continue;
    }
    atLineStart = false;
    if (c === 34) { // string: ends at its quote or at the end of the line
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 92) { j += 2; continue; }
        if (d === 34) { j++; break; }
        if (d === 10) break;
        j++;
      }
      i = j;
      continue;
    }
    i++;
  }
  return starts;
}
