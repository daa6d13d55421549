/**
 * Writing Python source text safely: string literals for any string a
 * design may hold (NUL, lone surrogates, astral characters), `#` comments
 * that design text cannot break out of, and the names of a key's functions.
 */
import { commentText, Source } from "../source";

/**
 * A Python string literal holding exactly the UTF-16 string `s`: printable
 * ASCII as it is, everything else escaped — a lone surrogate as `\udXXX`
 * (Python keeps it as that code point), a pair as the one astral character
 * it encodes, as JavaScript reads it.
 */
export function pyStr(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c < 0x100) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else if (c < 0x10000) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += `\\U${c.toString(16).padStart(8, "0")}`;
  }
  return out + '"';
}

/** Text from the design made safe for a `#` comment: one line, no control characters, clipped. */
export function pyComment(s: string, max = 200): string {
  return commentText(s, max);
}

/** `partitionKey` → `partition_key`, `rowKeyByAge` → `row_key_ByAge`: a key builder's Python name (index names kept as written). */
export function pyKeyName(fn: string): string {
  if (fn === "partitionKey") return "partition_key";
  if (fn === "rowKey") return "row_key";
  return `row_key_${fn.slice("rowKey".length)}`;
}

/** A regular expression from the TypeScript plan (`^…$`) as the Python pattern `re.fullmatch` takes. */
export function pyPattern(shape: string): string {
  return shape.replace(/^\^/, "").replace(/\$$/, "");
}

/** Lines of Python with a running indentation (four spaces a level) and `#` comments. */
export class PySource extends Source {
  constructor() {
    super("    ");
  }

  /** `#` comment lines from prose (made safe here). */
  comment(lines: string[], depth = 0): this {
    return this.add(
      lines.map((l) => `# ${pyComment(l, 400)}`.trimEnd()),
      depth,
    );
  }
}
