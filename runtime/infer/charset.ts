/**
 * A `charset` for the characters a string property was seen to hold,
 * generalised to the classes designers write: `0-9`, `a-f`/`A-F` for hex,
 * `a-z`, `A-Z`, plus each punctuation character. Free text (non-ASCII, or
 * many kinds of punctuation) gets none: an unknown alphabet is the honest
 * answer there, and the rules that need one stay silent.
 */

/** More distinct punctuation characters than this reads as free text. */
const MAX_OTHERS = 8;

/** Collects the characters of many values cheaply (one pass, ASCII flags). */
export class CharsetCollector {
  private readonly ascii = new Uint8Array(128);
  private nonAscii = false;

  add(value: string): void {
    if (this.nonAscii) return;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c >= 128) {
        this.nonAscii = true;
        return;
      }
      this.ascii[c] = 1;
    }
  }

  /** The charset's body (`"0-9a-z_"`), or undefined for free text or no characters. */
  charset(): string | undefined {
    if (this.nonAscii) return undefined;
    const has = (lo: string, hi: string) => {
      for (let c = lo.charCodeAt(0); c <= hi.charCodeAt(0); c++) if (this.ascii[c]) return true;
      return false;
    };
    const digits = has("0", "9");
    const lowerHex = has("a", "f") && !has("g", "z");
    const upperHex = has("A", "F") && !has("G", "Z");
    const lower = has("a", "z");
    const upper = has("A", "Z");
    const hexOnly = (lower || upper) && (!lower || lowerHex) && (!upper || upperHex) && digits;
    let out = "";
    if (digits) out += "0-9";
    if (upper) out += hexOnly ? "A-F" : "A-Z";
    if (lower) out += hexOnly ? "a-f" : "a-z";
    let others = 0;
    for (let c = 0; c < 128; c++) {
      if (!this.ascii[c] || /[A-Za-z0-9]/.test(String.fromCharCode(c))) continue;
      if (c < 0x20 || c === 0x7f) return undefined;
      if (++others > MAX_OTHERS) return undefined;
      out += escapeClassChar(String.fromCharCode(c));
    }
    return out || undefined;
  }
}

/**
 * A character inside a class body: `\`, `-`, `^` and `]` escaped for the
 * class. Only the class escape: the writer quotes the whole body as a string
 * literal (tdlString), so escaping `"` or doubling `\` here would escape twice.
 */
function escapeClassChar(ch: string): string {
  return "\\-^]".includes(ch) ? `\\${ch}` : ch;
}
