/**
 * Runtime helpers behind the parsers: the splitter that cuts a key into its
 * parts in one pass, the readers that turn a part's text back into a value,
 * and the checks that a text is exactly what a builder makes.
 */
import { DATE_TOKENS, type DateToken } from "@core";
import type { Helper } from "./helper";

/** Each date token's variable in `keyReadDateText`, and its value where a format leaves it out (the first month and day). */
const DATE_READ: Record<DateToken, { name: string; absent: number }> = {
  yyyy: { name: "y", absent: 0 },
  MM: { name: "mo", absent: 1 },
  dd: { name: "d", absent: 1 },
  HH: { name: "h", absent: 0 },
  mm: { name: "mi", absent: 0 },
  ss: { name: "s", absent: 0 },
  fff: { name: "ms", absent: 0 },
};
const v = (t: DateToken) => DATE_READ[t].name;

export const PARSE_HELPERS: Record<string, Helper> = {
  KeySegment: {
    deps: [],
    code: () => `/** How a parser finds a part of a key: a literal, a fixed width, up to a separator, or all but a fixed-width tail. */
type KeySegment = { readonly literal: string } | { readonly width: number } | { readonly until: string } | { readonly tail: number };`,
  },
  keySplit: {
    deps: ["KeyError", "keyShow", "KeySegment"],
    code: () => `/** Cuts a key into the texts of its parts, in one pass. */
function keySplit<S extends readonly KeySegment[]>(key: string, segments: S): { [K in keyof S]: string } {
  const out: string[] = [];
  let at = 0;
  for (const seg of segments) {
    let end: number;
    if ("literal" in seg) {
      if (!key.startsWith(seg.literal, at)) throw new KeyError(\`expected \${keyShow(seg.literal)} at \${at}\`);
      end = at + seg.literal.length;
    } else if ("width" in seg) {
      end = at + seg.width;
    } else if ("until" in seg) {
      end = key.indexOf(seg.until, at);
      if (end < 0) throw new KeyError(\`expected \${keyShow(seg.until)} after \${at}\`);
    } else {
      end = key.length - seg.tail;
    }
    if (end < at || end > key.length) throw new KeyError(\`it ends too early, at \${at}\`);
    out.push(key.slice(at, end));
    at = end;
  }
  if (at !== key.length) throw new KeyError(\`unexpected text at \${at}\`);
  return out as unknown as { [K in keyof S]: string };
}`,
  },
  keyParse: {
    deps: ["KeyError", "keyShow"],
    code: () => `/** Runs a parser; any KeyError names the key and what it is not. */
function keyParse<T>(what: string, key: string, maxLength: number, read: (key: string) => T): T {
  try {
    if (typeof key !== "string") throw new KeyError("a key is a string");
    if (key.length > maxLength) throw new KeyError(\`it has \${key.length} characters; no such key has more than \${maxLength}\`);
    return read(key);
  } catch (e) {
    if (e instanceof KeyError) throw new KeyError(\`\${keyShow(key)} is not a \${what}: \${e.message}\`);
    throw e;
  }
}`,
  },
  keyVerify: {
    deps: ["KeyError", "keyShow"],
    code: () => `/** The text must be exactly what the builder makes of the values read from it. */
function keyVerify(text: string, rebuilt: string, what: string): void {
  if (rebuilt !== text) throw new KeyError(\`\${what} is \${keyShow(text)}, but the values read from it build \${keyShow(rebuilt)}\`);
}`,
  },
  keyShape: {
    deps: ["KeyError", "keyShow"],
    code: () => `/** A part that gives no value back is still checked for the form every rendering of it has. */
function keyShape(text: string, shape: RegExp, what: string): void {
  if (!shape.test(text)) throw new KeyError(\`\${what} cannot be \${keyShow(text)}\`);
}`,
  },
  keyReadInteger: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyReadInteger(t: string): number {
  if (!/^-?[0-9]+$/.test(t)) throw new KeyError(\`\${keyShow(t)} is not an integer\`);
  return Number(t);
}`,
  },
  keyReadInteger64: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyReadInteger64(t: string): bigint {
  if (!/^-?[0-9]+$/.test(t)) throw new KeyError(\`\${keyShow(t)} is not an integer\`);
  return BigInt(t);
}`,
  },
  keyReadNumber: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyReadNumber(t: string): number {
  const n = Number(t);
  if (t === "" || !Number.isFinite(n)) throw new KeyError(\`\${keyShow(t)} is not a number\`);
  return n;
}`,
  },
  keyReadBoolean: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyReadBoolean(t: string): boolean {
  if (t !== "true" && t !== "false") throw new KeyError(\`\${keyShow(t)} is not true or false\`);
  return t === "true";
}`,
  },
  keyReadDateTime: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyReadDateTime(t: string): Date {
  const d = new Date(t);
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$/.test(t) || Number.isNaN(d.getTime())) throw new KeyError(\`\${keyShow(t)} is not an ISO 8601 UTC datetime\`);
  return d;
}`,
  },
  keyReadHex: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyReadHex(t: string): Uint8Array {
  if (t.length % 2 !== 0 || !/^[0-9a-f]*$/.test(t)) throw new KeyError(\`\${keyShow(t)} is not lowercase hex bytes\`);
  const out = new Uint8Array(t.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(t.slice(2 * i, 2 * i + 2), 16);
  return out;
}`,
  },
  keyMember: {
    deps: ["KeyError", "keyShow"],
    code: () => `/** The enum value whose rendering (as is, lowercased or uppercased) is the text. */
function keyMember<T extends string>(t: string, values: readonly T[], name: string, mapped: (v: string) => string = (v) => v): T {
  const found = values.find((v) => mapped(v) === t);
  if (found === undefined) throw new KeyError(\`\${keyShow(t)} is no value of \${name}\`);
  return found;
}`,
  },
  keyReadReverseDate: {
    deps: ["keyTicks", "keyReadInteger64"],
    code: () => `function keyReadReverseDate(t: string): Date {
  return new Date(Number((keyMaxTicks - keyReadInteger64(t) - keyEpochTicks) / keyTicksPerMs));
}`,
  },
  keyReadDateText: {
    deps: ["keyDateTokens", "KeyError", "keyShow"],
    code: () => `/** The datetime of a date() text whose format holds every token from yyyy to fff. */
function keyReadDateText(t: string, format: string): Date {
  const fields = [${DATE_TOKENS.map((t) => DATE_READ[t].absent).join(", ")}];
  let at = 0;
  for (let i = 0; i < format.length; ) {
    const k = keyDateTokens.findIndex((tok) => format.startsWith(tok, i));
    const width = k < 0 ? 1 : keyDateTokens[k]?.length ?? 1;
    const text = t.slice(at, at + width);
    if (k >= 0) {
      if (!/^[0-9]+$/.test(text) || text.length !== width) throw new KeyError(\`\${keyShow(t)} does not match the date format "\${format}"\`);
      fields[k] = Number(text);
    }
    at += width;
    i += width;
  }
  const [${DATE_TOKENS.map((t) => `${v(t)} = ${DATE_READ[t].absent}`).join(", ")}] = fields;
  const date = new Date(0);
  date.setUTCFullYear(${v("yyyy")}, ${v("MM")} - 1, ${v("dd")});
  date.setUTCHours(${v("HH")}, ${v("mm")}, ${v("ss")}, ${v("fff")});
  return date;
}`,
  },
};
