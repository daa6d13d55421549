/**
 * Random property values inside a design's domains (fast-check), the same
 * values in the core's `Scalar` form for `renderKey`, and which properties a
 * key gives back — worked out from the design here, apart from the generator.
 */
import fc from "fast-check";
import { Expr, isStringLit, MAX_DATE_MS, MIN_DATE_MS, Part, PropertyInfo, Scalar } from "@core";

/** The type a generated module takes for a property. */
export type Value = string | number | boolean | bigint | Date | Uint8Array;

function exactBound(raw: string | undefined, fallback: bigint): bigint {
  return raw === undefined ? fallback : BigInt(raw.replace(/_/g, ""));
}

/** Characters: the charset's when declared, else printable ASCII or any UTF-16 code unit (lone surrogates, NUL, forbidden ones). */
function charArb(info: PropertyInfo): fc.Arbitrary<string> {
  const ranges =
    info.charset && info.type === "string" && info.decl.modifiers.some((m) => m.kind === "charset") ? info.charset.ranges : undefined;
  if (ranges)
    return fc
      .constantFrom(...ranges)
      .chain(([lo, hi]) => fc.integer({ min: lo, max: hi }))
      .map((c) => String.fromCharCode(c));
  return fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0, max: 0xffff })).map((c) => String.fromCharCode(c));
}

/** Values of the property's domain in the design. */
export function valueArb(info: PropertyInfo): fc.Arbitrary<Value> {
  const t = info.decl.type;
  switch (info.type) {
    case "string": {
      const min = t.min?.value ?? 0;
      const max = Math.min(Number.isFinite(info.maxChars) ? info.maxChars : 40, 40);
      return fc.array(charArb(info), { minLength: Math.min(min, max), maxLength: max }).map((cs) => cs.join(""));
    }
    case "enum":
      return fc.constantFrom(...(info.enumValues ?? []));
    case "int":
      return fc.integer({ min: info.min ?? -(2 ** 31), max: info.max ?? 2 ** 31 - 1 });
    case "int64":
      return fc.bigInt({ min: exactBound(t.min?.raw, -(2n ** 63n)), max: exactBound(t.max?.raw, 2n ** 63n - 1n) });
    // -0 renders as "0" and reads back as 0: the one double a key cannot tell apart (compared with Object.is below, so it is left out).
    case "double":
      return fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d));
    case "bool":
      return fc.boolean();
    case "datetime":
      return fc.date({ min: new Date(MIN_DATE_MS), max: new Date(MAX_DATE_MS), noInvalidDate: true });
    // The language renders a guid lowercase; the builder lowercases, so a lowercase one reads back as itself.
    case "guid":
      return fc.uuid();
    case "binary":
      return fc.uint8Array({ maxLength: Math.min(Number.isFinite(t.size?.value ?? Infinity) ? t.size!.value : 64, 64) });
  }
}

/** An entity of the table: a value for every property. */
export function entityArb(props: ReadonlyMap<string, PropertyInfo>): fc.Arbitrary<Record<string, Value>> {
  const rec: Record<string, fc.Arbitrary<Value>> = {};
  for (const info of props.values()) rec[info.name] = valueArb(info);
  return fc.record(rec);
}

/**
 * The value as the core's `renderKey` takes it: bytes as lowercase hex, an
 * int64 as a number while doubles hold it exactly (the core's reverse()
 * counts in doubles), beyond that as its decimal text.
 */
export function scalar(v: Value): Scalar {
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString("hex");
  return v;
}

/** Same value: dates by instant, bytes by content, numbers by Object.is. */
export function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  return Object.is(a, b);
}

const ALL_DATE_TOKENS = ["yyyy", "MM", "dd", "HH", "mm", "ss", "fff"];

/**
 * Properties a key gives back: every property it uses except those that
 * appear only under hash() or bucket() (digests), or under a date() whose
 * format leaves out a field. Case mappings are taken as lossless: the designs
 * tested use them only on values they do not merge.
 */
export function invertibleProps(expr: Expr): Set<string> {
  const out = new Set<string>();
  const walk = (parts: Part[]) => {
    for (const p of parts) {
      if (p.kind === "ref") out.add(p.name.text);
      if (p.kind !== "call") continue;
      const inner = p.args[0];
      if (!inner || !("kind" in inner) || inner.kind !== "expr") continue;
      if (p.fnName === "hash" || p.fnName === "bucket") continue;
      if (p.fnName === "date") {
        const fmt = p.args[1];
        const text = isStringLit(fmt) ? fmt.value : "";
        if (!ALL_DATE_TOKENS.every((t) => text.includes(t))) continue;
      }
      walk(inner.parts);
    }
  };
  walk(expr.parts);
  return out;
}

/** Every property the key uses. */
export function keyProps(expr: Expr): Set<string> {
  const out = new Set<string>();
  const walk = (parts: Part[]) => {
    for (const p of parts) {
      if (p.kind === "ref") out.add(p.name.text);
      const inner = p.kind === "call" ? p.args[0] : undefined;
      if (inner && "kind" in inner && inner.kind === "expr") walk(inner.parts);
    }
  };
  walk(expr.parts);
  return out;
}

/** The literal texts of a key's top-level parts (its separators and prefixes). */
export function literals(expr: Expr): string[] {
  return expr.parts.flatMap((p) => (p.kind === "string" && p.value ? [p.value] : []));
}
