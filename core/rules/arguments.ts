/**
 * `invalid-argument`: arguments that cannot mean anything — type bounds,
 * modifiers, key-function arguments, estimates and pattern counts.
 */
import { CallArg, Expr, forEachPart, isExpr, isNumberLit, isStringLit, NumberLit, Part, Span, Table } from "../tdl/ast";
import { INT32, INT64, PropertyInfo } from "../model/properties";
import { isCharsetError, parseCharset } from "../model/charset";
import { dateFormatParts } from "../model/key-functions";
import { soleRef } from "../model/keys";
import { stringValueOffset } from "../tdl/lexer";
import { Rule, TableContext } from "./rule";
import { plural } from "../text/words";

type Report = (span: Span, message: string) => void;

export const invalidArgument: Rule = {
  code: "invalid-argument",
  severity: "error",
  family: "Syntax and meaning",
  docs: {
    summary:
      "a wrong argument: `pad` of a non-integer, a width below 1, `hash` n outside 1..32, a date format that is not fixed-width, bounds out of order…",
    why: "The key could not be rendered as written, so every estimate and rule that depends on it would be wrong.",
  },
  checkTable(ctx) {
    const report: Report = (span, message) => ctx.report(span, message);
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
};

function checkProperties(table: Table, report: Report): void {
  for (const p of table.properties) {
    const t = p.type;
    if (t.name === "string") {
      if (t.max && t.max.value < 1) report(t.max, `string length must be at least 1, not ${t.max.raw}`);
      if (t.min && t.max && t.min.value > t.max.value)
        report(t, `string(${t.min.raw}..${t.max.raw}): the minimum length exceeds the maximum`);
    }
    if ((t.name === "int" || t.name === "int64") && t.min && t.max) {
      const b = t.name === "int" ? INT32 : INT64;
      if (t.min.value > t.max.value) report(t, `${t.name}(${t.min.raw}..${t.max.raw}): the lower bound exceeds the upper bound`);
      for (const n of [t.min, t.max]) {
        if (n.value < b.min || n.value > b.max)
          report(n, `${n.raw} does not fit ${t.name} (${b.min}..${b.max})${t.name === "int" ? ": use int64" : ""}`);
      }
    }
    if (t.name === "binary" && t.size && !(t.size.value > 0)) report(t.size, "binary size must be positive");
    if (t.values) {
      const seen = new Set<string>();
      for (const v of t.values) {
        if (seen.has(v.text)) report(v, `enum value '${v.text}' is listed twice`);
        seen.add(v.text);
      }
    }
    for (const m of p.modifiers) {
      if (m.kind === "distinct" && !(m.count.value >= 1)) report(m.count, "distinct needs at least 1 value");
      if (m.kind === "distinct" && t.values && m.count.value > new Set(t.values.map((v) => v.text)).size) {
        report(m.count, `distinct ${m.count.raw} exceeds the enum's ${t.values.length} values`);
      }
      if (m.kind === "hot" && !(m.percent.value > 0 && m.percent.value <= 100))
        report(m.percent, `hot takes a share between 0% and 100%, not ${m.percent.raw}%`);
      if (m.kind === "charset") {
        if (t.name !== "string") {
          report(m, `charset applies to string properties, not ${t.name}`);
          continue;
        }
        const cs = parseCharset(m.chars.value);
        if (isCharsetError(cs)) {
          const at = stringValueOffset(m.chars, cs.index);
          report({ start: at, end: Math.min(at + 1, m.chars.end) }, cs.message);
        }
      }
      if (m.kind === "increasing" || m.kind === "decreasing") {
        if (t.name === "bool" || t.name === "enum") report(m, `a ${t.name} cannot be ${m.kind}: it has too few values`);
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
    report(part, `${fn} takes ${plural(ARITY[fn], "argument")}: ${USAGE[fn]}`);
    return;
  }
  const inner = args[0];
  if (!isExpr(inner)) {
    report(inner, `the first argument of ${fn} is a key expression: ${USAGE[fn]}`);
    return;
  }
  // An undeclared property is reported once, by unknown-property; its type is unknown here.
  const unknownRef = inner.parts.some((p) => p.kind === "ref" && !ctx.props.has(p.name.text));
  const kind = unknownRef ? "unknown" : exprKind(inner, ctx.props);
  const int = (arg: CallArg, what: string, lo: number, hi: number): number | undefined => {
    if (!isNumberLit(arg)) {
      report(arg, `${what} must be an integer: ${USAGE[fn]}`);
      return undefined;
    }
    if (!(arg.value >= lo && arg.value <= hi)) {
      report(arg, `${what} must be between ${lo} and ${hi}, not ${arg.raw}`);
      return undefined;
    }
    return arg.value;
  };
  switch (fn) {
    case "pad":
      if (kind !== "integer" && kind !== "unknown")
        report(inner, `pad left-pads decimal digits: its argument must be an int or int64 property, not ${describe(inner, ctx.props)}`);
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
        report(
          inner,
          `reverse needs one int, int64 or datetime property (it subtracts the value from the range's maximum), not ${describe(inner, ctx.props)}`,
        );
      }
      break;
    }
    case "date": {
      if (kind !== "datetime" && kind !== "unknown") report(inner, `date formats a datetime property, not ${describe(inner, ctx.props)}`);
      const fmt = args[1];
      if (!isStringLit(fmt)) {
        report(fmt, 'the date format must be a string such as "yyyyMMddHH"');
        break;
      }
      const parts = dateFormatParts(fmt.value);
      if (!parts || !parts.some((p) => /^[A-Za-z]/.test(p))) {
        report(fmt, `date format "${fmt.value}" is not fixed-width: use only the tokens yyyy MM dd HH mm ss fff and separators`);
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
    if (n && !(n.value >= 1)) report(n, `${what} must be at least 1, not ${n.raw}`);
  };
  positive(ctx.table.rows?.value, "rows");
  positive(ctx.table.entitySize?.value, "entitySize");
  const retention = ctx.table.retention?.value;
  if (retention && !Number.isNaN(retention.value) && !(retention.value > 0))
    report(retention, `retention must be longer than zero, not ${retention.raw}`);
  for (const a of ctx.table.accesses) {
    if (a.rate && !(a.rate.perSecond > 0)) report(a.rate, `the rate must be positive, not ${a.rate.raw}`);
    if (a.kind === "write") positive(a.batch, "batch");
    if (a.kind === "transaction") positive(a.entities, "entities");
    if (a.kind === "query") {
      positive(a.returns, "returns");
      for (const c of a.where ?? []) {
        const t = ctx.props.get(c.property.text)?.type;
        if (c.value.kind === "number" && (t === "string" || t === "guid" || t === "datetime")) {
          report(c.value, `'${c.property.text}' is a ${t}: compare it with a "string" or ?, not a number`);
        } else if (c.value.kind === "string" && (t === "int" || t === "int64" || t === "double")) {
          report(c.value, `'${c.property.text}' is a ${t}: compare it with a number or ?, not a string`);
        }
        if (c.op === "prefix" && t && t !== "string" && t !== "enum") {
          report(c.property, `prefix matches the start of a string; '${c.property.text}' is a ${t}`);
        }
      }
    }
  }
}
