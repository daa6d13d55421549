/**
 * The small runtime every generated module carries: value checks, the key
 * functions (pad, hash, bucket, reverse, date) exactly as the analyzer's
 * `renderKey` computes them, the splitter behind the parsers, and the
 * readers. A module holds only the helpers it uses (and what they use), so
 * a strict `noUnusedLocals` build stays clean.
 */
import { ServiceProfile } from "../core";
import { ROW_HELPERS } from "./runtime-rows";
import { charClass, rangesOf, str } from "./source";

/** A helper of the runtime: its source, what it uses, what it imports. */
export interface Helper {
  deps: string[];
  /** Imports the helper needs: module → names. */
  imports?: Record<string, string[]>;
  code: (profile: ServiceProfile) => string;
}

const HELPERS: Record<string, Helper> = {
  KeyError: {
    deps: [],
    code: () => `/** A value that cannot go into a key of this design, or a text that is not such a key. */
export class KeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeyError";
  }
}`,
  },
  keyShow: {
    deps: [],
    code: () => `/** A value as messages quote it: clipped, so a megabyte of input does not come back. */
function keyShow(v: unknown): string {
  const s = typeof v === "string" ? JSON.stringify(v) : v instanceof Date ? (Number.isNaN(v.getTime()) ? "Invalid Date" : v.toISOString()) : String(v);
  return s.length > 80 ? \`\${s.slice(0, 80)}…\` : s;
}`,
  },
  keyString: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyString(v: string, name: string, minLength: number, maxLength: number, charset?: { test: RegExp; text: string }): string {
  if (typeof v !== "string") throw new KeyError(\`\${name} must be a string, not \${keyShow(v)}\`);
  if (v.length < minLength || v.length > maxLength) {
    const allowed = maxLength === Infinity ? \`at least \${minLength}\` : minLength === maxLength ? \`exactly \${maxLength}\` : \`\${minLength} to \${maxLength}\`;
    throw new KeyError(\`\${name} = \${keyShow(v)} has \${v.length} characters; the design allows \${allowed}\`);
  }
  if (charset && !charset.test.test(v)) throw new KeyError(\`\${name} = \${keyShow(v)} holds a character outside its charset "\${charset.text}"\`);
  return v;
}`,
  },
  keyEnum: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyEnum<T extends string>(v: T, name: string, values: readonly T[]): T {
  if (!values.includes(v)) throw new KeyError(\`\${name} = \${keyShow(v)} is not one of \${values.join(", ")}\`);
  return v;
}`,
  },
  keyInteger: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyInteger(v: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max) throw new KeyError(\`\${name} = \${keyShow(v)} is not an integer in \${min}..\${max}\`);
  return v;
}`,
  },
  keyInteger64: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyInteger64(v: bigint, name: string, min: bigint, max: bigint): bigint {
  if (typeof v !== "bigint" || v < min || v > max) throw new KeyError(\`\${name} = \${keyShow(v)} is not a bigint in \${min}..\${max}\`);
  return v;
}`,
  },
  keyFinite: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyFinite(v: number, name: string): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new KeyError(\`\${name} = \${keyShow(v)} is not a finite number\`);
  return v;
}`,
  },
  keyBoolean: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyBoolean(v: boolean, name: string): boolean {
  if (typeof v !== "boolean") throw new KeyError(\`\${name} = \${keyShow(v)} is not a boolean\`);
  return v;
}`,
  },
  keyDateTime: {
    deps: ["KeyError", "keyShow"],
    code: () => `/** A datetime of the years 1 to 9999 (.NET's DateTime, which reverse() counts ticks of): its ISO text has 24 characters. */
function keyDateTime(v: Date, name: string): Date {
  const ms = v instanceof Date ? v.getTime() : NaN;
  if (!(ms >= -62135596800000 && ms <= 253402300799999)) throw new KeyError(\`\${name} = \${keyShow(v)} is not a date between the years 1 and 9999\`);
  return v;
}`,
  },
  keyGuid: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyGuid(v: string, name: string): string {
  if (typeof v !== "string" || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) throw new KeyError(\`\${name} = \${keyShow(v)} is not a GUID (8-4-4-4-12 hex digits)\`);
  return v;
}`,
  },
  keyBytes: {
    deps: ["KeyError", "keyShow"],
    code: () => `function keyBytes(v: Uint8Array, name: string, maxBytes: number): Uint8Array {
  if (!(v instanceof Uint8Array) || v.length > maxBytes) throw new KeyError(\`\${name} = \${keyShow(v)} is not a byte array of at most \${maxBytes} bytes\`);
  return v;
}`,
  },
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
  return String(parseInt(keyMd5(text).slice(0, 8), 16) % n).padStart(String(n - 1).length, "0");
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
const keyEpochTicks = BigInt("621355968000000000");
const keyMaxTicks = BigInt("3155378975999999999");`,
  },
  keyReverseDate: {
    deps: ["keyTicks"],
    code: () => `/** reverse() of a datetime: DateTime.MaxValue.Ticks minus its ticks, 19 digits. */
function keyReverseDate(d: Date): string {
  return (keyMaxTicks - (keyEpochTicks + BigInt(d.getTime()) * BigInt(10000))).toString().padStart(19, "0");
}`,
  },
  keyDateTokens: {
    deps: [],
    code: () => `/** The fixed-width tokens of date() formats; any other character is copied. */
const keyDateTokens = ["yyyy", "MM", "dd", "HH", "mm", "ss", "fff"] as const;`,
  },
  keyDateText: {
    deps: ["keyDateTokens"],
    code: () => `/** date(): the UTC fields of the datetime, each token zero-padded to its width. */
function keyDateText(d: Date, format: string): string {
  const fields = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()];
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
        lines.push(`/** Characters ${profile.label} keys may not hold: / \\ # ? and control characters. */`);
        lines.push(`const keyForbidden = /${charClass(rangesOf(forbidden))}/;`);
        lines.push("");
      }
      lines.push(`/** A whole key: no forbidden character, and within ${profile.label}'s size limit (${profile.keyEncoding === "utf16" ? "UTF-16, 2 bytes a character" : "UTF-8 bytes"}). */`);
      lines.push("function keyChecked(which: string, key: string, maxBytes: number): string {");
      if (forbidden) {
        lines.push("  const at = key.search(keyForbidden);");
        lines.push(`  if (at >= 0) throw new KeyError(\`\${which} \${keyShow(key)}: the character U+\${key.charCodeAt(at).toString(16).padStart(4, "0")} at \${at} may not appear in ${profile.label} keys\`);`);
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
      lines.push(`  if (bytes > maxBytes) throw new KeyError(\`\${which} \${keyShow(key)} takes \${bytes} bytes; ${profile.label} allows \${maxBytes}\`);`);
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
  return new Date(Number((keyMaxTicks - keyReadInteger64(t) - keyEpochTicks) / BigInt(10000)));
}`,
  },
  keyReadDateText: {
    deps: ["keyDateTokens", "KeyError", "keyShow"],
    code: () => `/** The datetime of a date() text whose format holds every token from yyyy to fff. */
function keyReadDateText(t: string, format: string): Date {
  const fields = [0, 1, 1, 0, 0, 0, 0];
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
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0, ms = 0] = fields;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  return date;
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
  keySame: {
    deps: [],
    code: () => `/** Whether two property values are the same value (dates by instant, byte arrays by content). */
function keySame(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}`,
  },
};

Object.assign(HELPERS, ROW_HELPERS);

/** The helpers a module uses, with their dependencies, in a stable order. */
export class Runtime {
  private readonly used = new Set<string>();
  private readonly declared = new Map<string, string>();

  constructor(private readonly profile: ServiceProfile) {}

  /** Marks a helper (and what it needs) as used; returns its name for the caller's expression. */
  use(name: string): string {
    if (this.used.has(name)) return name;
    const helper = HELPERS[name];
    if (!helper) throw new Error(`codegen: no runtime helper '${name}'`);
    this.used.add(name);
    for (const dep of helper.deps) this.use(dep);
    return name;
  }

  /** Marks a module-level declaration of the table (an enum's values, a charset) as used; returns its name. */
  declare(name: string, code: string): string {
    this.declared.set(name, code);
    return name;
  }

  /** The used declarations, in the order of first use. */
  declarations(): string[] {
    return [...this.declared.values()];
  }

  /** Import lines the used helpers need. */
  imports(): string[] {
    const byModule = new Map<string, Set<string>>();
    for (const name of this.ordered()) {
      for (const [mod, names] of Object.entries(HELPERS[name].imports ?? {})) {
        const set = byModule.get(mod) ?? new Set<string>();
        for (const n of names) set.add(n);
        byModule.set(mod, set);
      }
    }
    return [...byModule].map(([mod, names]) => `import { ${[...names].sort().join(", ")} } from ${str(mod)};`);
  }

  /** The source of every used helper, in declaration order. */
  code(): string[] {
    return this.ordered().map((name) => HELPERS[name].code(this.profile));
  }

  private ordered(): string[] {
    return Object.keys(HELPERS).filter((name) => this.used.has(name));
  }
}
