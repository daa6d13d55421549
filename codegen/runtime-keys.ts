/**
 * Runtime helpers that render key parts exactly as the analyzer's
 * `renderKey` does (pad, hash, bucket, reverse, date), check a whole key
 * against the profile (forbidden characters, size), and bound key ranges.
 *
 * The numbers and tables come from the key functions' one definition
 * (core/model/key-functions.ts): the ticks, the date tokens and their order,
 * the widths, the hex digits a bucket reads. The formulas are TypeScript
 * text of their own: a generated module compiles alone under the user's
 * strict options and imports nothing of this package (its MD5 is Node's
 * `node:crypto`, the core's a pure one the webview can run), and a
 * function's runtime text is compiled JavaScript without its types. The
 * round-trip property test checks each helper against the core's function
 * on random inputs.
 */
import { BUCKET_HEX_DIGITS, DATE_TOKENS, type DateToken, EPOCH_TICKS, MAX_TICKS, TICKS_DIGITS, TICKS_PER_MS } from "@core";
import { charClass, rangesOf, str } from "./source";
import type { Helper } from "./helper";

/** Each date token's field of a `Date`, in UTC: the source `keyDateText` reads it with. */
const DATE_FIELD: Record<DateToken, string> = {
  yyyy: "d.getUTCFullYear()",
  MM: "d.getUTCMonth() + 1",
  dd: "d.getUTCDate()",
  HH: "d.getUTCHours()",
  mm: "d.getUTCMinutes()",
  ss: "d.getUTCSeconds()",
  fff: "d.getUTCMilliseconds()",
};

export const KEY_HELPERS: Record<string, Helper> = {
  keyHex: {
    deps: [],
    code: () => `function keyHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}`,
  },
  keyPad: {
    deps: ["KeyError"],
    code: () => `/** pad(): decimal digits left-padded with 0 to the width, the sign in front; never wider than the width. */
function keyPad(digits: string, width: number, what: string): string {
  const padded = digits.startsWith("-") ? \`-\${digits.slice(1).padStart(width - 1, "0")}\` : digits.padStart(width, "0");
  if (padded.length > width) throw new KeyError(\`\${what}: \${digits} does not fit in \${width} characters\`);
  return padded;
}`,
  },
  keyMd5: {
    deps: [],
    imports: { "node:crypto": ["createHash"] },
    code: () => `/** MD5 of the text as UTF-8 (a lone surrogate as U+FFFD), lowercase hex. */
function keyMd5(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}`,
  },
  keyHash: {
    deps: ["keyMd5"],
    code: () => `/** hash(): the first n hex characters of the MD5 of the text. */
function keyHash(text: string, n: number): string {
  return keyMd5(text).slice(0, n);
}`,
  },
  keyBucket: {
    deps: ["keyMd5"],
    code: () => `/** bucket(): the first 8 hex characters of the MD5 as an unsigned number, modulo n, padded to the width of n - 1. */
function keyBucket(text: string, n: number): string {
  return String(parseInt(keyMd5(text).slice(0, ${BUCKET_HEX_DIGITS}), 16) % n).padStart(String(n - 1).length, "0");
}`,
  },
  keyReverseInteger: {
    deps: ["KeyError"],
    code: () => `/** reverse(): the range's maximum minus the value, padded to the maximum's width; never wider. */
function keyReverseInteger(v: number, max: number, width: number, what: string): string {
  const digits = String(max - v);
  if (digits.length > width) throw new KeyError(\`\${what}: \${max} - \${v} = \${digits} does not fit in \${width} digits, so the key would not keep the order\`);
  return digits.padStart(width, "0");
}`,
  },
  keyReverseInteger64: {
    deps: ["KeyError"],
    code: () => `/** reverse(): the range's maximum minus the value, padded to the maximum's width; never wider. */
function keyReverseInteger64(v: bigint, max: bigint, width: number, what: string): string {
  const digits = (max - v).toString();
  if (digits.length > width) throw new KeyError(\`\${what}: \${max} - \${v} = \${digits} does not fit in \${width} digits, so the key would not keep the order\`);
  return digits.padStart(width, "0");
}`,
  },
  keyTicks: {
    deps: [],
    code: () => `/** .NET ticks (100 ns since 0001-01-01) of the Unix epoch and of DateTime.MaxValue. */
const keyEpochTicks = BigInt(${str(String(EPOCH_TICKS))});
const keyMaxTicks = BigInt(${str(String(MAX_TICKS))});
const keyTicksPerMs = BigInt(${String(TICKS_PER_MS)});`,
  },
  keyReverseDate: {
    deps: ["keyTicks"],
    code: () => `/** reverse() of a datetime: DateTime.MaxValue.Ticks minus its ticks, ${TICKS_DIGITS} digits. */
function keyReverseDate(d: Date): string {
  return (keyMaxTicks - (keyEpochTicks + BigInt(d.getTime()) * keyTicksPerMs)).toString().padStart(${TICKS_DIGITS}, "0");
}`,
  },
  keyDateTokens: {
    deps: [],
    code: () => `/** The fixed-width tokens of date() formats; any other character is copied. */
const keyDateTokens = [${DATE_TOKENS.map(str).join(", ")}] as const;`,
  },
  keyDateText: {
    deps: ["keyDateTokens"],
    code: () => `/** date(): the UTC fields of the datetime, each token zero-padded to its width. */
function keyDateText(d: Date, format: string): string {
  const fields = [${DATE_TOKENS.map((t) => DATE_FIELD[t]).join(", ")}];
  let out = "";
  for (let i = 0; i < format.length; ) {
    const t = keyDateTokens.findIndex((tok) => format.startsWith(tok, i));
    if (t < 0) {
      out += format.charAt(i++);
      continue;
    }
    const width = keyDateTokens[t]?.length ?? 0;
    out += String(fields[t]).padStart(width, "0");
    i += width;
  }
  return out;
}`,
  },
  keyChecked: {
    deps: ["KeyError", "keyShow"],
    code: (profile) => {
      const forbidden = profile.forbiddenKeyChar;
      const lines: string[] = [];
      if (forbidden) {
        lines.push(`/** Characters ${profile.label} keys may not hold: ${profile.forbiddenKeyText}. */`);
        lines.push(`const keyForbidden = /${charClass(rangesOf(forbidden))}/;`);
        lines.push("");
      }
      lines.push(
        `/** A whole key: no forbidden character, and within ${profile.label}'s size limit (${profile.keyEncoding === "utf16" ? "UTF-16, 2 bytes a character" : "UTF-8 bytes"}). */`,
      );
      lines.push("function keyChecked(which: string, key: string, maxBytes: number): string {");
      if (forbidden) {
        lines.push("  const at = key.search(keyForbidden);");
        lines.push(
          `  if (at >= 0) throw new KeyError(\`\${which} \${keyShow(key)}: the character U+\${key.charCodeAt(at).toString(16).toUpperCase().padStart(4, "0")} at \${at} may not appear in ${profile.label} keys\`);`,
        );
      }
      if (profile.keyEncoding === "utf16") {
        lines.push("  const bytes = key.length * 2;");
      } else {
        lines.push("  let bytes = 0;");
        lines.push("  for (let i = 0; i < key.length; i++) {");
        lines.push("    const c = key.charCodeAt(i);");
        lines.push("    if (c < 0x80) bytes += 1;");
        lines.push("    else if (c < 0x800) bytes += 2;");
        lines.push("    else if (c >= 0xd800 && c <= 0xdbff && (key.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { bytes += 4; i++; }");
        lines.push("    else bytes += 3;");
        lines.push("  }");
      }
      lines.push(
        `  if (bytes > maxBytes) throw new KeyError(\`\${which} \${keyShow(key)} takes \${bytes} bytes; ${profile.label} allows \${maxBytes}\`);`,
      );
      lines.push("  return key;");
      lines.push("}");
      return lines.join("\n");
    },
  },
  keyUntil: {
    deps: ["KeyError", "keyShow"],
    code: () => `/** A part of variable length ends where the separator after it first occurs: it may not hold that separator. */
function keyUntil(text: string, separator: string, what: string): string {
  if ((text + separator).indexOf(separator) !== text.length) {
    throw new KeyError(\`\${what} = \${keyShow(text)} holds the separator \${keyShow(separator)} that follows it, so the key could not be split back\`);
  }
  return text;
}`,
  },
  keySuccessor: {
    deps: [],
    code: () => `/**
 * The smallest text above every text that starts with the prefix: its last
 * character (past trailing U+FFFF) plus one. A prefix of U+FFFF alone has no
 * such text; 1,025 of them sort above any key the services store.
 */
function keySuccessor(prefix: string): string {
  let end = prefix.length;
  while (end > 0 && prefix.charCodeAt(end - 1) === 0xffff) end--;
  if (end === 0) return "\\uffff".repeat(1025);
  return prefix.slice(0, end - 1) + String.fromCharCode(prefix.charCodeAt(end - 1) + 1);
}`,
  },
};
