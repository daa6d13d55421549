/**
 * Writing TypeScript source text safely: literals for any string a design
 * may hold (NUL, lone surrogates, U+2028), comments that a design's text
 * cannot close, object keys that cannot turn into a prototype.
 */
import { clip } from "@core";

/**
 * A TypeScript string literal holding exactly `s`: JSON escapes control
 * characters and lone surrogates; U+2028 and U+2029, legal in literals
 * since ES2019, are escaped too, as older tools end a line there.
 */
export function str(s: string): string {
  return JSON.stringify(s)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Text from the design made safe for a `//` or JSDoc comment: one line, no
 * comment terminator, no control characters, clipped.
 */
export function commentText(s: string, max = 200): string {
  const flat = s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/\*\//g, "*\\/");
  return clip(flat, max);
}

/**
 * A property as an object-literal key: `__proto__` written plainly would set
 * the object's prototype instead of an own property, so it is computed.
 */
export function objectKey(name: string): string {
  return name === "__proto__" ? `["__proto__"]` : name;
}

/** A UTF-16 code unit as a regular expression's escape (`\u002f`): safe anywhere in a pattern. */
export function regexUnit(c: number): string {
  return `\\u${c.toString(16).padStart(4, "0")}`;
}

/** A character class for a regular expression from UTF-16 code-unit ranges, every character escaped. */
export function charClass(ranges: ReadonlyArray<readonly [number, number]>): string {
  return `[${ranges.map(([lo, hi]) => (lo === hi ? regexUnit(lo) : `${regexUnit(lo)}-${regexUnit(hi)}`)).join("")}]`;
}

/** Code-unit ranges of the characters `pred` accepts, in order. */
export function rangesOf(pred: (code: number) => boolean): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let c = 0; c <= 0xffff; c++) {
    if (!pred(c)) continue;
    const last = out[out.length - 1];
    if (last && last[1] === c - 1) last[1] = c;
    else out.push([c, c]);
  }
  return out;
}

/** Lines of source with a running indentation (two spaces a level unless told; Python's modules use four). */
export class Source {
  private readonly lines: string[] = [];

  constructor(private readonly indent = "  ") {}

  /** Adds lines (each may hold several, split on `\n`), indented by `depth` levels. */
  add(text: string | string[], depth = 0): this {
    const pad = this.indent.repeat(depth);
    for (const chunk of Array.isArray(text) ? text : [text]) {
      for (const line of chunk.split("\n")) this.lines.push(line ? pad + line : "");
    }
    return this;
  }

  /** A JSDoc block from lines of prose (already safe: see `commentText`). */
  doc(lines: string[], depth = 0): this {
    if (!lines.length) return this;
    if (lines.length === 1) return this.add(`/** ${lines[0]} */`, depth);
    return this.add(["/**", ...lines.map((l) => (l ? ` * ${l}` : " *")), " */"], depth);
  }

  /** Ends the text with `n` blank lines (one unless told), without adding to those already there; none at the start. */
  blank(n = 1): this {
    let trailing = 0;
    for (let i = this.lines.length - 1; i >= 0 && this.lines[i] === ""; i--) trailing++;
    for (let i = trailing; i < n && this.lines.length; i++) this.lines.push("");
    return this;
  }

  text(): string {
    return this.lines.join("\n").replace(/\n+$/, "") + "\n";
  }
}
