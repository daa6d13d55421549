/**
 * Runtime helpers that read a row as `@azure/data-tables` returns it back
 * into the entity's types (`readEntity`): the SDK converts most EDM types
 * itself but hands a Guid over as `{ value, type }`.
 */
import type { Helper } from "./helper";

export const ROW_HELPERS: Record<string, Helper> = {
  rowField: {
    deps: [],
    code: () => `/** A property of a row as @azure/data-tables returns it: the value, or the value inside \`{ value, type }\` (a Guid; any type with disableTypeConversion). */
function rowField(row: Readonly<Record<string, unknown>>, name: string): unknown {
  const v = row[name];
  return v !== null && typeof v === "object" && !(v instanceof Date) && !(v instanceof Uint8Array) && "value" in v ? (v as { value: unknown }).value : v;
}`,
  },
  rowString: {
    deps: ["KeyError", "keyShow"],
    code: () => `function rowString(v: unknown, name: string): string {
  if (typeof v !== "string") throw new KeyError(\`the row's \${name} is \${keyShow(v)}, not a string\`);
  return v;
}`,
  },
  rowNumber: {
    deps: ["KeyError", "keyShow"],
    code: () => `function rowNumber(v: unknown, name: string): number {
  const n = typeof v === "string" ? Number(v) : v;
  if (typeof n !== "number" || Number.isNaN(n)) throw new KeyError(\`the row's \${name} is \${keyShow(v)}, not a number\`);
  return n;
}`,
  },
  rowBigInt: {
    deps: ["KeyError", "keyShow"],
    code: () => `function rowBigInt(v: unknown, name: string): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "string" && /^-?[0-9]+$/.test(v)) return BigInt(v);
  if (typeof v === "number" && Number.isSafeInteger(v)) return BigInt(v);
  throw new KeyError(\`the row's \${name} is \${keyShow(v)}, not an Int64\`);
}`,
  },
  rowBoolean: {
    deps: ["KeyError", "keyShow"],
    code: () => `function rowBoolean(v: unknown, name: string): boolean {
  if (typeof v !== "boolean") throw new KeyError(\`the row's \${name} is \${keyShow(v)}, not a boolean\`);
  return v;
}`,
  },
  rowDate: {
    deps: ["KeyError", "keyShow"],
    code: () => `function rowDate(v: unknown, name: string): Date {
  const d = v instanceof Date ? v : typeof v === "string" ? new Date(v) : undefined;
  if (!d || Number.isNaN(d.getTime())) throw new KeyError(\`the row's \${name} is \${keyShow(v)}, not a DateTime\`);
  return d;
}`,
  },
  rowBytes: {
    deps: ["KeyError", "keyShow"],
    code: () => `function rowBytes(v: unknown, name: string): Uint8Array {
  if (!(v instanceof Uint8Array)) throw new KeyError(\`the row's \${name} is \${keyShow(v)}, not Binary\`);
  return v;
}`,
  },
};
