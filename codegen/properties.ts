/**
 * What the generated code knows of each property: its TypeScript type (the
 * one `@azure/data-tables` reads back: int64 as bigint, datetime as Date,
 * binary as Uint8Array), its exact domain, the check that guards it on the
 * way into a key, the text a key renders of it and the reader that recovers
 * it from that text.
 */
import { PropertyInfo } from "@core";
import { Runtime } from "./runtime";
import { charClass, str } from "./source";
import { CodegenError } from "./problems";

/** int64 bounds, exactly. */
const INT64_MIN = -(BigInt(2) ** BigInt(63));
const INT64_MAX = BigInt(2) ** BigInt(63) - BigInt(1);

export interface PropertyPlan {
  name: string;
  info: PropertyInfo;
  /** Its TypeScript type in the entity interface. */
  tsType: string;
  /** Exact integer bounds (int, int64), as decimal text. */
  min?: string;
  max?: string;
  /** Module-level declarations the property's check needs (enum values, charset, int64 range), by name; emitted when used. */
  declarations: Map<string, string>;
}

/** System properties of the table and names `@azure/data-tables` maps onto them: a design property may not take them. */
export const RESERVED_NAMES = new Set(["PartitionKey", "RowKey", "Timestamp", "partitionKey", "rowKey", "timestamp", "etag", "odata.etag"]);

/** Plans a property; throws a CodegenError when the design holds something the generated code cannot represent. */
export function planProperty(info: PropertyInfo): PropertyPlan {
  const name = info.name;
  if (RESERVED_NAMES.has(name))
    throw new CodegenError(
      `property '${name}' has the name of a system property of the table (or of its name in @azure/data-tables): rename it`,
      info.decl.name.start,
      info.decl.name.end,
    );
  const plan: PropertyPlan = { name, info, tsType: tsTypeOf(info), declarations: new Map() };
  if (info.type === "int") {
    plan.min = String(info.min);
    plan.max = String(info.max);
  } else if (info.type === "int64") {
    plan.min = exactBound(info.decl.type.min?.raw, INT64_MIN);
    plan.max = exactBound(info.decl.type.max?.raw, INT64_MAX);
    for (const b of [plan.min, plan.max]) {
      if (BigInt(b) < INT64_MIN || BigInt(b) > INT64_MAX)
        throw new CodegenError(`property '${name}': ${b} does not fit int64`, info.decl.type.start, info.decl.type.end);
    }
    plan.declarations.set(`range${name}`, `const range${name} = [BigInt(${str(plan.min)}), BigInt(${str(plan.max)})] as const;`);
  } else if (info.type === "enum") {
    plan.declarations.set(`values${name}`, `const values${name} = [${(info.enumValues ?? []).map(str).join(", ")}] as const;`);
  } else if (info.type === "string" && info.charset) {
    const source = info.decl.modifiers.find((m) => m.kind === "charset");
    const text = source && source.kind === "charset" ? source.chars.value : "";
    plan.declarations.set(`charset${name}`, `const charset${name} = { test: /^${charClass(info.charset.ranges)}*$/, text: ${str(text)} };`);
  }
  return plan;
}

function tsTypeOf(info: PropertyInfo): string {
  switch (info.type) {
    case "string":
    case "guid":
      return "string";
    case "int":
    case "double":
      return "number";
    case "int64":
      return "bigint";
    case "bool":
      return "boolean";
    case "datetime":
      return "Date";
    case "binary":
      return "Uint8Array";
    case "enum":
      return (info.enumValues ?? []).map(str).join(" | ") || "never";
  }
}

/** An integer bound from its literal (`1_000`, `-9223372036854775808`), exactly; the type's bound when absent. */
function exactBound(raw: string | undefined, fallback: bigint): string {
  if (raw === undefined) return fallback.toString();
  const digits = raw.replace(/_/g, "");
  if (!/^-?[0-9]+$/.test(digits)) throw new CodegenError(`'${raw}' is not an integer bound`);
  return BigInt(digits).toString();
}

/** A module-level declaration of the property, marked as used; its name. */
export function declared(p: PropertyPlan, name: string, rt: Runtime): string {
  const code = p.declarations.get(name);
  if (code === undefined) throw new Error(`codegen: no declaration '${name}'`);
  return rt.declare(name, code);
}

/** The call that checks a value against the property's domain and returns it. */
export function checkCall(p: PropertyPlan, value: string, rt: Runtime): string {
  const n = str(p.name);
  const info = p.info;
  switch (info.type) {
    case "string": {
      const min = info.decl.type.min?.value ?? 0;
      const max = Number.isFinite(info.maxChars) ? info.maxChars : Infinity;
      return `${rt.use("keyString")}(${value}, ${n}, ${min}, ${max}${info.charset ? `, ${declared(p, `charset${p.name}`, rt)}` : ""})`;
    }
    case "enum":
      return `${rt.use("keyEnum")}(${value}, ${n}, ${declared(p, `values${p.name}`, rt)})`;
    case "int":
      return `${rt.use("keyInteger")}(${value}, ${n}, ${p.min}, ${p.max})`;
    case "int64":
      return `${rt.use("keyInteger64")}(${value}, ${n}, ${declared(p, `range${p.name}`, rt)}[0], range${p.name}[1])`;
    case "double":
      return `${rt.use("keyFinite")}(${value}, ${n})`;
    case "bool":
      return `${rt.use("keyBoolean")}(${value}, ${n})`;
    case "datetime":
      return `${rt.use("keyDateTime")}(${value}, ${n})`;
    case "guid":
      return `${rt.use("keyGuid")}(${value}, ${n})`;
    case "binary": {
      const size = info.decl.type.size?.value;
      return `${rt.use("keyBytes")}(${value}, ${n}, ${size !== undefined && Number.isFinite(size) ? size : Infinity})`;
    }
  }
}

/** The text a key holds for a checked value, as the language renders it. */
export function renderChecked(p: PropertyPlan, checked: string, rt: Runtime): string {
  switch (p.info.type) {
    case "string":
    case "enum":
      return checked;
    case "int":
    case "int64":
    case "double":
    case "bool":
      return `String(${checked})`;
    case "datetime":
      return `${checked}.toISOString()`;
    case "guid":
      return `${checked}.toLowerCase()`;
    case "binary":
      return `${rt.use("keyHex")}(${checked})`;
  }
}

/** The expression recovering the value from the text of a plain reference (undefined: never recoverable). */
export function readValue(p: PropertyPlan, text: string, rt: Runtime): string {
  switch (p.info.type) {
    case "string":
    case "guid":
      return text;
    case "enum":
      return `${rt.use("keyMember")}(${text}, ${declared(p, `values${p.name}`, rt)}, ${str(p.name)})`;
    case "int":
      return `${rt.use("keyReadInteger")}(${text})`;
    case "int64":
      return `${rt.use("keyReadInteger64")}(${text})`;
    case "double":
      return `${rt.use("keyReadNumber")}(${text})`;
    case "bool":
      return `${rt.use("keyReadBoolean")}(${text})`;
    case "datetime":
      return `${rt.use("keyReadDateTime")}(${text})`;
    case "binary":
      return `${rt.use("keyReadHex")}(${text})`;
  }
}

/** Width of every rendering of the property, when they all have one. */
export function fixedWidth(p: PropertyPlan): number | undefined {
  const info = p.info;
  switch (info.type) {
    case "guid":
      return 36;
    case "datetime":
      return 24;
    case "string": {
      const min = info.decl.type.min?.value;
      return min !== undefined && min === info.decl.type.max?.value ? min : undefined;
    }
    case "enum": {
      const lengths = new Set((info.enumValues ?? []).map((v) => v.length));
      return lengths.size === 1 ? [...lengths][0] : undefined;
    }
    case "int":
    case "int64":
      return p.min === p.max ? p.min!.length : undefined;
    default:
      return undefined;
  }
}

/** Every character a rendering may hold is ASCII (so lower() and upper() keep its length). */
export function rendersAscii(p: PropertyPlan): boolean {
  if (p.info.type === "enum") return (p.info.enumValues ?? []).every((v) => /^[\u0000-\u007f]*$/.test(v));
  if (p.info.type === "string") return !!p.info.charset && p.info.charset.ranges.every(([, hi]) => hi < 0x80);
  return true;
}
