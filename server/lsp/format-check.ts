/**
 * The server's safety net around the formatter: formatting may only move
 * whitespace, so a result whose other characters differ from the text's is
 * refused rather than applied to the user's document.
 */

/** True when `formatted` has exactly the non-whitespace characters of `text`, in order. Linear time. */
export function keepsEveryCharacter(text: string, formatted: string): boolean {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    while (j < formatted.length && isSpace(formatted.charCodeAt(j))) j++;
    if (i === text.length || j === formatted.length) return i === text.length && j === formatted.length;
    if (text.charCodeAt(i) !== formatted.charCodeAt(j)) return false;
    i++;
    j++;
  }
}

/** The whitespace a formatter may add or remove: what JavaScript's `\s` matches. */
function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
