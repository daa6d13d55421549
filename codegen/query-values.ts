/**
 * The values of a declared query in code: one typed parameter per `?`
 * (`{ from, to }` for `between`, a string for `prefix`), a constant of the
 * property's type for each literal, and the OData text of a condition on a
 * property as the `odata` tag writes it.
 */
import { TableModel } from "@core";
import { PropertyPlan } from "./properties";
import { CodegenError } from "./problems";
import { Runtime } from "./runtime";
import { str } from "./source";

export type Query = Extract<TableModel["table"]["accesses"][number], { kind: "query" }>;
export type Cond = NonNullable<Query["where"]>[number];

export interface CondPlan {
  cond: Cond;
  prop: PropertyPlan;
  /** The parameter's field, for `?` values. */
  param?: string;
  /** The value's expression; `bound` picks the end of a `between`. */
  value(bound?: "from" | "to"): string;
}

/** Plans the conditions of a `where` query: parameter names unique, literals converted to the property's type (errors at offsets of the table's chunk). */
export function planConditions(query: Query, props: ReadonlyMap<string, PropertyPlan>): CondPlan[] {
  const taken = new Set<string>();
  return (query.where ?? []).map((cond) => {
    const prop = props.get(cond.property.text);
    if (!prop) throw new CodegenError(`'${cond.property.text}' is not a property of the table`, cond.property.start, cond.property.end);
    // `between` takes its two ends at run time, whatever the design writes after it.
    if (cond.value.kind === "param" || cond.op === "between") {
      let param = prop.name;
      for (let i = 2; taken.has(param); i++) param = `${prop.name}_${i}`;
      taken.add(param);
      return { cond, prop, param, value: (bound) => (bound ? `p.${param}.${bound}` : `p.${param}`) };
    }
    const constant = cond.op === "prefix" ? str(cond.value.text) : literalOf(prop, cond.value.text, cond.value.start, cond.value.end);
    return { cond, prop, value: () => constant };
  });
}

/** The parameter object's type, or undefined when the query takes none. */
export function paramsType(conds: CondPlan[]): string | undefined {
  const fields = conds
    .filter((c) => c.param !== undefined)
    .map((c) => {
      const t =
        c.cond.op === "prefix" ? "string" : c.cond.op === "between" ? `{ from: ${c.prop.tsType}; to: ${c.prop.tsType} }` : c.prop.tsType;
      return `${c.param}: ${t}`;
    });
  return fields.length ? `{ ${fields.join("; ")} }` : undefined;
}

/** A literal of the design as a constant of the property's type; a value the type cannot hold is the design's mistake, named. */
function literalOf(p: PropertyPlan, text: string, start: number, end: number): string {
  const fail = (what: string) =>
    new CodegenError(`the value ${str(text)} is not ${what} (property '${p.name}' is ${p.info.type})`, start, end);
  switch (p.info.type) {
    case "string":
      return str(text);
    case "enum":
      if (!(p.info.enumValues ?? []).includes(text)) throw fail(`one of ${(p.info.enumValues ?? []).join(", ")}`);
      return str(text);
    case "int":
    case "double": {
      const n = Number(text);
      if (text.trim() === "" || !Number.isFinite(n) || (p.info.type === "int" && !Number.isInteger(n)))
        throw fail(p.info.type === "int" ? "an integer" : "a number");
      return String(n);
    }
    case "int64":
      if (!/^-?[0-9]+$/.test(text)) throw fail("an integer");
      return `BigInt(${str(BigInt(text).toString())})`;
    case "bool":
      if (text !== "true" && text !== "false") throw fail("true or false");
      return text;
    case "datetime":
      if (Number.isNaN(new Date(text).getTime())) throw fail("a datetime");
      return `new Date(${str(new Date(text).toISOString())})`;
    case "guid":
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) throw fail("a GUID");
      return str(text.toLowerCase());
    case "binary":
      if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) throw fail("hex bytes");
      return `new Uint8Array([${(text.match(/../g) ?? []).map((h) => parseInt(h, 16)).join(", ")}])`;
  }
}

const OPS: Record<string, string> = { "=": "eq", "<": "lt", "<=": "le", ">": "gt", ">=": "ge" };

/** The OData clauses of a condition on the property itself, as template text for the `odata` tag. */
export function propertyClauses(c: CondPlan, rt: Runtime): string[] {
  const name = c.prop.name;
  if (c.cond.op === "prefix") {
    // The service has no startswith: a prefix is the range from it to the text just above every continuation of it.
    if (c.prop.info.type !== "string" && c.prop.info.type !== "enum") return [];
    return [`${name} ge \${${c.value()}}`, `${name} lt \${${rt.use("keySuccessor")}(${c.value()})}`];
  }
  if (c.cond.op === "between") return [`${name} ge ${literal(c, "from", rt)}`, `${name} le ${literal(c, "to", rt)}`];
  return [`${name} ${OPS[c.cond.op]} ${literal(c, undefined, rt)}`];
}

/** A value in an OData literal's form: the tag quotes strings and writes dates; the rest is spelled here. */
function literal(c: CondPlan, bound: "from" | "to" | undefined, rt: Runtime): string {
  const v = c.value(bound);
  switch (c.prop.info.type) {
    case "int64":
      return `\${${v}}L`;
    case "guid":
      return `guid\${${v}}`;
    case "binary":
      return `X\${${rt.use("keyHex")}(${v})}`;
    default:
      return `\${${v}}`;
  }
}
