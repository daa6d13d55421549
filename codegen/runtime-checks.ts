/**
 * Runtime helpers that guard a value on its way into a key: its type and
 * the domain the design declares (range, length, charset, enum values),
 * and the KeyError every refusal throws.
 */
import { MAX_DATE_MS, MIN_DATE_MS } from "@core";
import type { Helper } from "./helper";

export const CHECK_HELPERS: Record<string, Helper> = {
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
  if (!(ms >= ${MIN_DATE_MS} && ms <= ${MAX_DATE_MS})) throw new KeyError(\`\${name} = \${keyShow(v)} is not a date between the years 1 and 9999\`);
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
