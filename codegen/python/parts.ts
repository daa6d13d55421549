/**
 * Key parts as Python expressions: the rendering of a part (exactly as the
 * core's `renderKey`), its value check on the way in, and — where the
 * TypeScript plan says the text gives the value back — the reader. The plan
 * (widths, segments, what is recoverable) is the TypeScript generator's
 * (codegen/keys.ts): one planning, two languages.
 */
import { isNumberLit, isStringLit, Part } from "@core";
import type { PropertyPlan } from "../properties";
import { CodegenError } from "../problems";
import { pyStr } from "./source";

/** Where the generated code reads a property's value: `e.get("Bib")`. */
export type PyAccess = (prop: string) => string;

/** A property's module-level constant (enum values, charset), by name; filled as parts use them. */
export type PyDeclarations = Map<string, string>;

export interface PyContext {
  props: ReadonlyMap<string, PropertyPlan>;
  declarations: PyDeclarations;
}

function property(ctx: PyContext, name: string): PropertyPlan {
  const p = ctx.props.get(name);
  if (!p) throw new CodegenError(`'${name}' is not a property of the table`);
  return p;
}

/** The constant holding an enum's values. */
function valuesOf(p: PropertyPlan, ctx: PyContext): string {
  const name = `_VALUES_${p.name}`;
  ctx.declarations.set(name, `${name} = (${(p.info.enumValues ?? []).map(pyStr).join(", ")}${p.info.enumValues?.length === 1 ? "," : ""})`);
  return name;
}

/** The call checking a value against the property's domain; it returns the value. */
export function pyCheck(p: PropertyPlan, value: string, ctx: PyContext): string {
  const n = pyStr(p.name);
  const info = p.info;
  switch (info.type) {
    case "string": {
      const min = info.decl.type.min?.value ?? 0;
      const max = Number.isFinite(info.maxChars) ? String(info.maxChars) : "None";
      let charset = "";
      if (info.charset) {
        const name = `_CHARSET_${p.name}`;
        const source = info.decl.modifiers.find((m) => m.kind === "charset");
        const text = source && source.kind === "charset" ? source.chars.value : "";
        const cls = info.charset.ranges.map(([lo, hi]) => (lo === hi ? u(lo) : `${u(lo)}-${u(hi)}`)).join("");
        ctx.declarations.set(name, `${name} = (_re.compile(r"[${cls}]*"), ${pyStr(text)})`);
        charset = `, ${name}`;
      }
      return `_key_string(${value}, ${n}, ${min}, ${max}${charset})`;
    }
    case "enum":
      return `_key_enum(${value}, ${n}, ${valuesOf(p, ctx)})`;
    case "int":
    case "int64":
      return `_key_integer(${value}, ${n}, ${p.min}, ${p.max})`;
    case "double":
      return `_key_finite(${value}, ${n})`;
    case "bool":
      return `_key_boolean(${value}, ${n})`;
    case "datetime":
      return `_key_datetime(${value}, ${n})`;
    case "guid":
      return `_key_guid(${value}, ${n})`;
    case "binary": {
      const size = info.decl.type.size?.value;
      return `_key_bytes(${value}, ${n}, ${size !== undefined && Number.isFinite(size) ? size : "None"})`;
    }
  }
}

const u = (c: number) => `\\u${c.toString(16).padStart(4, "0")}`;

/** The text a key holds for a checked value, as the language renders it. */
function pyRenderChecked(p: PropertyPlan, checked: string): string {
  switch (p.info.type) {
    case "string":
    case "enum":
      return checked;
    case "int":
    case "int64":
      return `str(${checked})`;
    case "double":
      return `_number_text(${checked})`;
    case "bool":
      return `("true" if ${checked} else "false")`;
    case "datetime":
      return `_iso(${checked})`;
    case "guid":
      return `${checked}.lower()`;
    case "binary":
      return `${checked}.hex()`;
  }
}

/** The expression rendering a sequence of parts. */
export function pyParts(parts: readonly Part[], access: PyAccess, ctx: PyContext): string {
  return parts.length ? parts.map((p) => pyPart(p, access, ctx)).join(" + ") : '""';
}

/** The expression rendering one part. */
export function pyPart(part: Part, access: PyAccess, ctx: PyContext): string {
  if (part.kind === "string") return pyStr(part.value);
  if (part.kind === "ref") {
    const p = property(ctx, part.name.text);
    return pyRenderChecked(p, pyCheck(p, access(p.name), ctx));
  }
  const inner = part.args[0];
  if (!inner || !("kind" in inner) || inner.kind !== "expr") throw new CodegenError(`${part.fn.text}(…) needs a key expression`);
  const text = `(${pyParts(inner.parts, access, ctx)})`;
  const n = isNumberLit(part.args[1]) ? part.args[1].value : undefined;
  const desc = describe(part);
  switch (part.fnName) {
    case "pad":
      return `_pad(${text}, ${n}, ${pyStr(desc)})`;
    case "hash":
      return `_hash(${text}, ${n})`;
    case "bucket":
      return `_bucket(${text}, ${n})`;
    case "lower":
      return `${text}.lower()`;
    case "upper":
      return `${text}.upper()`;
    case "reverse": {
      const p = soleProperty(inner.parts, ctx);
      const checked = pyCheck(p, access(p.name), ctx);
      if (p.info.type === "datetime") return `_reverse_date(${checked})`;
      return `_reverse_integer(${checked}, ${p.max}, ${p.max!.length}, ${pyStr(desc)})`;
    }
    case "date": {
      const p = soleProperty(inner.parts, ctx);
      const fmt = isStringLit(part.args[1]) ? part.args[1].value : "";
      return `_date_text(${pyCheck(p, access(p.name), ctx)}, ${pyStr(fmt)})`;
    }
    default:
      throw new CodegenError(`unknown key function '${part.fn.text}'`);
  }
}

function soleProperty(parts: readonly Part[], ctx: PyContext): PropertyPlan {
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only?.kind !== "ref") throw new CodegenError("the function takes one property");
  return property(ctx, only.name.text);
}

/**
 * The expression reading a part's property back from its text `t`. Called
 * only for parts the plan marks readable (codegen/parts.ts decides which).
 */
export function pyRead(part: Part, t: string, ctx: PyContext): string {
  if (part.kind === "ref") return pyReadValue(property(ctx, part.name.text), t, ctx);
  if (part.kind !== "call") throw new CodegenError("a literal gives no value back");
  const inner = part.args[0];
  const parts = inner && "kind" in inner && inner.kind === "expr" ? inner.parts : [];
  switch (part.fnName) {
    case "pad":
      return pyRead(parts[0]!, t, ctx);
    case "reverse": {
      const p = soleProperty(parts, ctx);
      return p.info.type === "datetime" ? `_read_reverse_date(${t})` : `${p.max} - _read_integer(${t})`;
    }
    case "date": {
      const fmt = isStringLit(part.args[1]) ? part.args[1].value : "";
      return `_read_date_text(${t}, ${pyStr(fmt)})`;
    }
    case "lower":
    case "upper": {
      const p = soleProperty(parts, ctx);
      if (p.info.type === "enum") return `_member(${t}, ${valuesOf(p, ctx)}, ${pyStr(p.name)}, str.${part.fnName})`;
      return pyReadValue(p, t, ctx);
    }
    default:
      throw new CodegenError(`${part.fn.text}() gives no value back`);
  }
}

function pyReadValue(p: PropertyPlan, t: string, ctx: PyContext): string {
  switch (p.info.type) {
    case "string":
    case "guid":
      return t;
    case "enum":
      return `_member(${t}, ${valuesOf(p, ctx)}, ${pyStr(p.name)})`;
    case "int":
    case "int64":
      return `_read_integer(${t})`;
    case "double":
      return `_read_number(${t})`;
    case "bool":
      return `_read_boolean(${t})`;
    case "datetime":
      return `_read_datetime(${t})`;
    case "binary":
      return `_read_hex(${t})`;
  }
}

/** The part as the design writes it, for messages: `pad(Bib, 5)`. */
export function describe(part: Part): string {
  if (part.kind === "string") return JSON.stringify(part.value);
  if (part.kind === "ref") return part.name.text;
  const args = part.args.map((a) => {
    if (a && "kind" in a && a.kind === "expr") return a.parts.map(describe).join(" + ");
    if (isNumberLit(a)) return String(a.value);
    if (isStringLit(a)) return JSON.stringify(a.value);
    return "?";
  });
  return `${part.fn.text}(${args.join(", ")})`;
}
