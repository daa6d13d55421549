/**
 * One part of a key expression, planned for code: the expression that
 * renders it (exactly as the analyzer's `renderKey`), its width when every
 * value has the same one, and — where the text determines the value — the
 * reader that recovers its property. `hash` and `bucket` never give their
 * value back; `date` does only when its format holds every field.
 */
import { bucketWidth, DATE_TOKENS, dateFormatParts, Expr, isDateToken, isNumberLit, isStringLit, Part, TICKS_DIGITS } from "@core";
import { checkCall, declared, fixedWidth, PropertyPlan, readValue, renderChecked, rendersAscii } from "./properties";
import { CodegenError } from "./problems";
import { Runtime } from "./runtime";
import { regexUnit, str } from "./source";

/** Where the generated code reads a property's value: `e.Bib`, `p.Age.from`, a constant. */
export type Access = (prop: string) => string;

export interface PartPlan {
  part: Part;
  /** The text of a literal part. */
  literal?: string;
  /** Properties the part depends on, in order of appearance. */
  props: string[];
  /** Characters of every rendering, when they all have the same number. */
  width?: number;
  /** Renders ASCII only (lower() and upper() keep its length). */
  ascii: boolean;
  /** The part as the design writes it, for messages: `pad(Bib, 5)`. */
  desc: string;
  /** The expression rendering the part. */
  render(access: Access): string;
  /** How the part's text gives back its one property, when it does. */
  read?: { prop: string; expr(text: string): string };
  /** A regular expression every rendering matches, for parts that give nothing back. */
  shape?: string;
  /**
   * How the text's order follows its one property's, where that is certain
   * for every value: ranges on the property become ranges of the key only then.
   */
  order?: "preserving" | "reversing";
}

export interface PlanContext {
  props: ReadonlyMap<string, PropertyPlan>;
  rt: Runtime;
}

export function planExpr(expr: Expr, ctx: PlanContext): PartPlan[] {
  return expr.parts.map((p) => planPart(p, ctx));
}

/** The expression rendering a sequence of parts. */
export function renderParts(parts: PartPlan[], access: Access): string {
  return parts.length ? parts.map((p) => p.render(access)).join(" + ") : '""';
}

function describeParts(parts: PartPlan[]): string {
  return parts.map((p) => p.desc).join(" + ");
}

function propsOf(parts: PartPlan[]): string[] {
  return [...new Set(parts.flatMap((p) => p.props))];
}

function sumWidths(parts: PartPlan[]): number | undefined {
  let total = 0;
  for (const p of parts) {
    if (p.width === undefined) return undefined;
    total += p.width;
  }
  return total;
}

export function planPart(part: Part, ctx: PlanContext): PartPlan {
  if (part.kind === "string") {
    return {
      part,
      literal: part.value,
      props: [],
      width: part.value.length,
      ascii: /^[\u0000-\u007f]*$/.test(part.value),
      desc: str(part.value),
      render: () => str(part.value),
    };
  }
  if (part.kind === "ref") {
    const p = property(ctx, part.name.text, part);
    return {
      part,
      props: [p.name],
      width: fixedWidth(p),
      ascii: rendersAscii(p),
      desc: p.name,
      render: (access) => renderChecked(p, checkCall(p, access(p.name), ctx.rt), ctx.rt),
      read: { prop: p.name, expr: (t) => readValue(p, t, ctx.rt) },
      // Numbers render unpadded ("111" < "2") and bytes as hex of any length: neither keeps order.
      order: ["int", "int64", "double", "binary"].includes(p.info.type) ? undefined : "preserving",
    };
  }
  const inner = part.args[0];
  if (!inner || !("kind" in inner) || inner.kind !== "expr")
    throw new CodegenError(`${part.fn.text}(…) needs a key expression`, part.start, part.end);
  const innerParts = planExpr(inner, ctx);
  const n = isNumberLit(part.args[1]) ? part.args[1].value : undefined;
  const innerText = (access: Access) => renderParts(innerParts, access);
  const base = { part, props: propsOf(innerParts), ascii: true };
  const sole = innerParts.length === 1 ? innerParts[0] : undefined;
  const rt = ctx.rt;
  switch (part.fnName) {
    case "pad": {
      const desc = `pad(${describeParts(innerParts)}, ${n})`;
      // The inner reader takes digits with leading zeros (an integer, or reverse's count).
      const reversed = sole?.part.kind === "call" && sole.part.fnName === "reverse";
      const read = sole && (sole.part.kind === "ref" || reversed) ? sole.read : undefined;
      const nonNegative = sole?.part.kind === "ref" && !(ctx.props.get(sole.part.name.text)?.min ?? "0").startsWith("-");
      const order = reversed ? "reversing" : nonNegative ? "preserving" : undefined;
      return {
        ...base,
        desc,
        width: n,
        render: (a) => `${rt.use("keyPad")}(${innerText(a)}, ${n}, ${str(desc)})`,
        read,
        shape: `^-?[0-9]+$`,
        order,
      };
    }
    case "hash":
      return {
        ...base,
        desc: `hash(${describeParts(innerParts)}, ${n})`,
        width: n,
        render: (a) => `${rt.use("keyHash")}(${innerText(a)}, ${n})`,
        shape: `^[0-9a-f]{${n}}$`,
      };
    case "bucket": {
      const width = bucketWidth(n ?? 1);
      return {
        ...base,
        desc: `bucket(${describeParts(innerParts)}, ${n})`,
        width,
        render: (a) => `${rt.use("keyBucket")}(${innerText(a)}, ${n})`,
        shape: `^[0-9]{${width}}$`,
      };
    }
    case "reverse":
      return planReverse(part, sole, ctx);
    case "date":
      return planDate(part, sole, ctx);
    case "lower":
    case "upper":
      return planCase(part, part.fnName, innerParts, ctx);
    default:
      throw new CodegenError(`unknown key function '${part.fn.text}'`, part.start, part.end);
  }
}

function property(ctx: PlanContext, name: string, at: Part): PropertyPlan {
  const p = ctx.props.get(name);
  if (!p) throw new CodegenError(`'${name}' is not a property of the table`, at.start, at.end);
  return p;
}

function soleProperty(part: Extract<Part, { kind: "call" }>, sole: PartPlan | undefined, ctx: PlanContext): PropertyPlan {
  if (sole?.part.kind !== "ref") throw new CodegenError(`${part.fn.text}() takes one property`, part.start, part.end);
  return property(ctx, sole.part.name.text, sole.part);
}

function planReverse(part: Extract<Part, { kind: "call" }>, sole: PartPlan | undefined, ctx: PlanContext): PartPlan {
  const p = soleProperty(part, sole, ctx);
  const rt = ctx.rt;
  const desc = `reverse(${p.name})`;
  const base = { part, props: [p.name], ascii: true, desc, order: "reversing" as const };
  const checked = (a: Access) => checkCall(p, a(p.name), rt);
  if (p.info.type === "datetime") {
    return {
      ...base,
      width: TICKS_DIGITS,
      render: (a) => `${rt.use("keyReverseDate")}(${checked(a)})`,
      read: { prop: p.name, expr: (t) => `${rt.use("keyReadReverseDate")}(${t})` },
    };
  }
  if (p.info.type === "int") {
    const width = p.max!.length;
    return {
      ...base,
      width,
      render: (a) => `${rt.use("keyReverseInteger")}(${checked(a)}, ${p.max}, ${width}, ${str(desc)})`,
      read: { prop: p.name, expr: (t) => `${p.max} - ${rt.use("keyReadInteger")}(${t})` },
    };
  }
  if (p.info.type === "int64") {
    const width = p.max!.length;
    return {
      ...base,
      width,
      render: (a) => `${rt.use("keyReverseInteger64")}(${checked(a)}, range${p.name}[1], ${width}, ${str(desc)})`,
      read: { prop: p.name, expr: (t) => `${declared(p, `range${p.name}`, rt)}[1] - ${rt.use("keyReadInteger64")}(${t})` },
    };
  }
  throw new CodegenError(`reverse() takes an int, int64 or datetime property, not ${p.info.type} '${p.name}'`, part.start, part.end);
}

function planDate(part: Extract<Part, { kind: "call" }>, sole: PartPlan | undefined, ctx: PlanContext): PartPlan {
  const p = soleProperty(part, sole, ctx);
  const fmtArg = part.args[1];
  if (p.info.type !== "datetime" || !isStringLit(fmtArg))
    throw new CodegenError("date() formats a datetime property with a format string", part.start, part.end);
  const format = fmtArg.value;
  // The analysis reports a format that is not fixed-width, and a table with an error gets no module.
  const tokens = dateFormatParts(format);
  if (!tokens) throw new CodegenError(`date format ${str(format)} is not fixed-width`, fmtArg.start, fmtArg.end);
  const width = tokens.reduce((s, t) => s + t.length, 0);
  const full = DATE_TOKENS.every((t) => tokens.includes(t));
  const fields = tokens.filter(isDateToken);
  const ordered = fields.length > 0 && fields.every((t, i) => t === DATE_TOKENS[i]);
  const rt = ctx.rt;
  const shape = "^" + tokens.map((t) => (isDateToken(t) ? `[0-9]{${t.length}}` : regexUnit(t.charCodeAt(0)))).join("") + "$";
  return {
    part,
    props: [p.name],
    width,
    ascii: true,
    desc: `date(${p.name}, ${str(format)})`,
    shape,
    order: ordered ? "preserving" : undefined,
    render: (a) => `${rt.use("keyDateText")}(${checkCall(p, a(p.name), rt)}, ${str(format)})`,
    read: full ? { prop: p.name, expr: (t) => `${rt.use("keyReadDateText")}(${t}, ${str(format)})` } : undefined,
  };
}

function planCase(part: Extract<Part, { kind: "call" }>, fn: "lower" | "upper", innerParts: PartPlan[], ctx: PlanContext): PartPlan {
  const method = fn === "lower" ? "toLowerCase" : "toUpperCase";
  const ascii = innerParts.every((p) => p.ascii);
  const width = ascii ? sumWidths(innerParts) : undefined;
  const sole = innerParts.length === 1 && innerParts[0].part.kind === "ref" ? ctx.props.get(innerParts[0].part.name.text) : undefined;
  return {
    part,
    props: propsOf(innerParts),
    width,
    ascii,
    desc: `${fn}(${describeParts(innerParts)})`,
    render: (a) => `(${renderParts(innerParts, a)}).${method}()`,
    read: sole ? caseReader(sole, method, ctx.rt) : undefined,
  };
}

/** A case-mapped property gives its value back when the mapping loses nothing on its values. */
function caseReader(p: PropertyPlan, method: "toLowerCase" | "toUpperCase", rt: Runtime): PartPlan["read"] {
  if (p.info.type === "enum") {
    const values = p.info.enumValues ?? [];
    if (new Set(values.map((v) => v[method]())).size !== new Set(values).size) return undefined;
    return {
      prop: p.name,
      expr: (t) => `${rt.use("keyMember")}(${t}, ${declared(p, `values${p.name}`, rt)}, ${str(p.name)}, (v) => v.${method}())`,
    };
  }
  const cs = p.info.charset;
  if (!cs) return undefined;
  for (const [lo, hi] of cs.ranges) {
    for (let c = lo; c <= hi; c++) {
      const ch = String.fromCharCode(c);
      if (ch[method]() !== ch) return undefined;
    }
  }
  return { prop: p.name, expr: (t) => readValue(p, t, rt) };
}
