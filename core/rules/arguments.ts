/**
 * `invalid-argument`: arguments that cannot mean anything — type bounds,
 * modifiers, key-function arguments, estimates and pattern counts.
 */
import { CallArg, Expr, forEachPart, isExpr, isNumberLit, isStringLit, NumberLit, Part, Table } from "../tdl/ast";
import { INT32, INT64, PropertyInfo } from "../model/properties";
import { isCharsetError, parseCharset } from "../model/charset";
import { dateFormatParts } from "../model/key-functions";
import { soleRef } from "../model/keys";
import { stringValueOffset } from "../tdl/lexer";
import { defineRule, Report as RuleReport, TableContext } from "./rule";

/** Every sentence of `invalid-argument`, one per wrong argument. */
const messages = {
  stringTooShort: (p: { max: string }) => `string length must be at least 1, not ${p.max}`,
  stringBounds: (p: { min: string; max: string }) => `string(${p.min}..${p.max}): the minimum length exceeds the maximum`,
  intBounds: (p: { type: string; min: string; max: string }) => `${p.type}(${p.min}..${p.max}): the lower bound exceeds the upper bound`,
  intRange: (p: { value: string; type: string; min: number | bigint; max: number | bigint }) =>
    `${p.value} does not fit ${p.type} (${p.min}..${p.max})${p.type === "int" ? ": use int64" : ""}`,
  binarySize: () => "binary size must be positive",
  enumTwice: (p: { value: string }) => `enum value '${p.value}' is listed twice`,
  distinctZero: () => "distinct needs at least 1 value",
  distinctEnum: (p: { count: string; values: number }) => `distinct ${p.count} exceeds the enum's ${p.values} values`,
  hotShare: (p: { percent: string }) => `hot takes a share between 0% and 100%, not ${p.percent}%`,
  charsetType: (p: { type: string }) => `charset applies to string properties, not ${p.type}`,
  charset: (p: { why: string }) => p.why,
  fewValues: (p: { type: string; order: string }) => `a ${p.type} cannot be ${p.order}: it has too few values`,
  arity: (p: { fn: string; arity: number; usage: string }) => `${p.fn} takes ${p.arity} argument${p.arity > 1 ? "s" : ""}: ${p.usage}`,
  firstArgument: (p: { fn: string; usage: string }) => `the first argument of ${p.fn} is a key expression: ${p.usage}`,
  notInteger: (p: { what: string; usage: string }) => `${p.what} must be an integer: ${p.usage}`,
  outOfRange: (p: { what: string; lo: number; hi: number; value: string }) =>
    `${p.what} must be between ${p.lo} and ${p.hi}, not ${p.value}`,
  padType: (p: { got: string }) => `pad left-pads decimal digits: its argument must be an int or int64 property, not ${p.got}`,
  reverseType: (p: { got: string }) =>
    `reverse needs one int, int64 or datetime property (it subtracts the value from the range's maximum), not ${p.got}`,
  dateType: (p: { got: string }) => `date formats a datetime property, not ${p.got}`,
  dateFormatString: () => 'the date format must be a string such as "yyyyMMddHH"',
  dateFormatWidth: (p: { format: string }) =>
    `date format "${p.format}" is not fixed-width: use only the tokens yyyy MM dd HH mm ss fff and separators`,
  atLeastOne: (p: { what: string; value: string }) => `${p.what} must be at least 1, not ${p.value}`,
  retention: (p: { value: string }) => `retention must be longer than zero, not ${p.value}`,
  rate: (p: { value: string }) => `the rate must be positive, not ${p.value}`,
  compareNumber: (p: { property: string; type: string }) => `'${p.property}' is a ${p.type}: compare it with a "string" or ?, not a number`,
  compareString: (p: { property: string; type: string }) => `'${p.property}' is a ${p.type}: compare it with a number or ?, not a string`,
  prefixType: (p: { property: string; type: string }) => `prefix matches the start of a string; '${p.property}' is a ${p.type}`,
};

type Report = RuleReport<typeof messages>;

export const invalidArgument = defineRule({
  code: "invalid-argument",
  severity: "error",
  family: "Syntax and meaning",
  traits: { broken: true },
  docs: {
    summary:
      "a wrong argument: `pad` of a non-integer, a width below 1, `hash` n outside 1..32, a date format that is not fixed-width, bounds out of order…",
    why: "The key could not be rendered as written, so every estimate and rule that depends on it would be wrong.",
  },
  messages,
  checkTable(ctx) {
    const report = ctx.report;
    checkProperties(ctx.table, report);
    const exprs: Expr[] = [];
    if (ctx.table.partitionKey) exprs.push(ctx.table.partitionKey.expr);
    if (ctx.table.rowKey) exprs.push(ctx.table.rowKey.expr);
    for (const ix of ctx.table.indexes) exprs.push(ix.expr);
    for (const e of exprs)
      forEachPart(e, (part) => {
        if (part.kind === "call") checkCall(part, ctx, report);
      });
    checkEstimatesAndPatterns(ctx, report);
  },
});

function checkProperties(table: Table, report: Report): void {
  for (const p of table.properties) {
    const t = p.type;
    if (t.name === "string") {
      if (t.max && t.max.value < 1) report(t.max, "stringTooShort", { max: t.max.raw });
      if (t.min && t.max && t.min.value > t.max.value) report(t, "stringBounds", { min: t.min.raw, max: t.max.raw });
    }
    if ((t.name === "int" || t.name === "int64") && t.min && t.max) {
      const b = t.name === "int" ? INT32 : INT64;
      if (t.min.value > t.max.value) report(t, "intBounds", { type: t.name, min: t.min.raw, max: t.max.raw });
      for (const n of [t.min, t.max]) {
        if (n.value < b.min || n.value > b.max) report(n, "intRange", { value: n.raw, type: t.name, min: b.min, max: b.max });
      }
    }
    if (t.name === "binary" && t.size && !(t.size.value > 0)) report(t.size, "binarySize");
    if (t.values) {
      const seen = new Set<string>();
      for (const v of t.values) {
        if (seen.has(v.text)) report(v, "enumTwice", { value: v.text });
        seen.add(v.text);
      }
    }
    for (const m of p.modifiers) {
      if (m.kind === "distinct" && !(m.count.value >= 1)) report(m.count, "distinctZero");
      if (m.kind === "distinct" && t.values && m.count.value > new Set(t.values.map((v) => v.text)).size) {
        report(m.count, "distinctEnum", { count: m.count.raw, values: t.values.length });
      }
      if (m.kind === "hot" && !(m.percent.value > 0 && m.percent.value <= 100)) report(m.percent, "hotShare", { percent: m.percent.raw });
      if (m.kind === "charset") {
        if (t.name !== "string") {
          report(m, "charsetType", { type: t.name });
          continue;
        }
        const cs = parseCharset(m.chars.value);
        if (isCharsetError(cs)) {
          const at = stringValueOffset(m.chars, cs.index);
          report({ start: at, end: Math.min(at + 1, m.chars.end) }, "charset", { why: cs.message });
        }
      }
      if (m.kind === "increasing" || m.kind === "decreasing") {
        if (t.name === "bool" || t.name === "enum") report(m, "fewValues", { type: t.name, order: m.kind });
      }
    }
  }
}

/** What kind of text an expression renders, as far as arguments care. */
function exprKind(expr: Expr, props: ReadonlyMap<string, PropertyInfo>): "integer" | "datetime" | "other" {
  if (expr.parts.length !== 1) return "other";
  const part = expr.parts[0];
  if (part.kind === "ref") {
    const t = props.get(part.name.text)?.type;
    return t === "int" || t === "int64" ? "integer" : t === "datetime" ? "datetime" : "other";
  }
  if (part.kind === "call" && (part.fnName === "reverse" || part.fnName === "bucket")) return "integer";
  return "other";
}

const ARITY: Record<string, number> = { pad: 2, hash: 2, bucket: 2, reverse: 1, date: 2, lower: 1, upper: 1 };
const USAGE: Record<string, string> = {
  pad: "pad(P, width)",
  hash: "hash(P, n)",
  bucket: "bucket(P, n)",
  reverse: "reverse(P)",
  date: 'date(P, "yyyyMMdd")',
  lower: "lower(P)",
  upper: "upper(P)",
};

function checkCall(part: Extract<Part, { kind: "call" }>, ctx: TableContext, report: Report): void {
  const fn = part.fnName;
  if (!fn) return; // reported as syntax
  const args = part.args;
  if (args.length !== ARITY[fn]) {
    report(part, "arity", { fn, arity: ARITY[fn], usage: USAGE[fn] });
    return;
  }
  const inner = args[0];
  if (!isExpr(inner)) {
    report(inner, "firstArgument", { fn, usage: USAGE[fn] });
    return;
  }
  // An undeclared property is reported once, by unknown-property; its type is unknown here.
  const unknownRef = inner.parts.some((p) => p.kind === "ref" && !ctx.props.has(p.name.text));
  const kind = unknownRef ? "unknown" : exprKind(inner, ctx.props);
  const int = (arg: CallArg, what: string, lo: number, hi: number): number | undefined => {
    if (!isNumberLit(arg)) {
      report(arg, "notInteger", { what, usage: USAGE[fn] });
      return undefined;
    }
    if (!(arg.value >= lo && arg.value <= hi)) {
      report(arg, "outOfRange", { what, lo, hi, value: arg.raw });
      return undefined;
    }
    return arg.value;
  };
  switch (fn) {
    case "pad":
      if (kind !== "integer" && kind !== "unknown") report(inner, "padType", { got: describe(inner, ctx.props) });
      int(args[1], "the pad width", 1, 64);
      break;
    case "hash":
      int(args[1], "the number of hex characters", 1, 32);
      break;
    case "bucket":
      int(args[1], "the number of buckets", 1, 2 ** 32);
      break;
    case "reverse": {
      const name = soleRef(inner);
      const info = name ? ctx.props.get(name) : undefined;
      if (kind !== "unknown" && (!info || !(info.type === "int" || info.type === "int64" || info.type === "datetime"))) {
        report(inner, "reverseType", { got: describe(inner, ctx.props) });
      }
      break;
    }
    case "date": {
      if (kind !== "datetime" && kind !== "unknown") report(inner, "dateType", { got: describe(inner, ctx.props) });
      const fmt = args[1];
      if (!isStringLit(fmt)) {
        report(fmt, "dateFormatString");
        break;
      }
      const parts = dateFormatParts(fmt.value);
      if (!parts || !parts.some((p) => /^[A-Za-z]/.test(p))) {
        report(fmt, "dateFormatWidth", { format: fmt.value });
      }
      break;
    }
    case "lower":
    case "upper":
      break;
  }
}

function describe(expr: Expr, props: ReadonlyMap<string, PropertyInfo>): string {
  const name = soleRef(expr);
  if (name) {
    const t = props.get(name)?.type;
    return t ? `${t} property '${name}'` : `'${name}'`;
  }
  return "a composite expression";
}

function checkEstimatesAndPatterns(ctx: TableContext, report: Report): void {
  const positive = (n: NumberLit | undefined, what: string) => {
    if (n && !(n.value >= 1)) report(n, "atLeastOne", { what, value: n.raw });
  };
  positive(ctx.table.rows?.value, "rows");
  positive(ctx.table.entitySize?.value, "entitySize");
  const retention = ctx.table.retention?.value;
  if (retention && !Number.isNaN(retention.value) && !(retention.value > 0)) report(retention, "retention", { value: retention.raw });
  for (const a of ctx.table.accesses) {
    if (a.rate && !(a.rate.perSecond > 0)) report(a.rate, "rate", { value: a.rate.raw });
    if (a.kind === "write") positive(a.batch, "batch");
    if (a.kind === "transaction") positive(a.entities, "entities");
    if (a.kind === "query") {
      positive(a.returns, "returns");
      for (const c of a.where ?? []) {
        const t = ctx.props.get(c.property.text)?.type;
        if (c.value.kind === "number" && (t === "string" || t === "guid" || t === "datetime")) {
          report(c.value, "compareNumber", { property: c.property.text, type: t });
        } else if (c.value.kind === "string" && (t === "int" || t === "int64" || t === "double")) {
          report(c.value, "compareString", { property: c.property.text, type: t });
        }
        if (c.op === "prefix" && t && t !== "string" && t !== "enum") {
          report(c.property, "prefixType", { property: c.property.text, type: t });
        }
      }
    }
  }
}
