/**
 * Builders and parsers of one key (the PartitionKey, the RowKey or an index
 * row's RowKey). A builder renders the parts, refuses a value a part cannot
 * hold, and checks the whole key against the profile (forbidden characters,
 * size). A parser cuts the key into its parts in one pass — fixed-width parts
 * by width, a part of variable length up to the literal after it, or up to a
 * fixed-width tail — reads back what the parts give back, and accepts the
 * text only if the builder makes exactly it of those values.
 */
import { Expr, ServiceProfile } from "@core";
import { Access, PartPlan, PlanContext, planExpr, renderParts } from "./parts";
import { commentText, objectKey, Source, str } from "./source";
import { agree } from "@core/text/words";

export type Segment = { literal: string } | { width: number } | { until: string } | { tail: number };

export interface KeyPlan {
  /** `PartitionKey` or `RowKey`: the key's name in the service. */
  which: "PartitionKey" | "RowKey";
  /** `RowKey of index ByAge`, for documentation and messages. */
  label: string;
  /** The builder's name: `partitionKey`, `rowKey`, `rowKeyByAge`. */
  fn: string;
  expr: Expr;
  /** Top-level parts, adjacent literals joined and empty ones dropped. */
  parts: PartPlan[];
  props: string[];
  /** How a parser cuts it; undefined when it cannot (`unsplittable` says why). */
  segments?: Segment[];
  unsplittable?: string;
  /** Indexes of parts whose text may not hold the literal after them (`until` segments). */
  untilChecked: Map<number, string>;
  /** Properties the parser gives back, in order of appearance. */
  recovered: string[];
  maxBytes: number;
  /** Most characters any key of this kind holds (the parser refuses longer texts before reading them). */
  maxLength: number;
}

export function planKey(
  which: KeyPlan["which"],
  label: string,
  fn: string,
  expr: Expr,
  ctx: PlanContext,
  profile: ServiceProfile,
): KeyPlan {
  const parts = mergeLiterals(planExpr(expr, ctx));
  const maxBytes = which === "PartitionKey" ? profile.partitionKeyMaxBytes : profile.rowKeyMaxBytes;
  const plan: KeyPlan = {
    which,
    label,
    fn,
    expr,
    parts,
    props: [...new Set(parts.flatMap((p) => p.props))],
    untilChecked: new Map(),
    recovered: [],
    maxBytes,
    maxLength: profile.keyEncoding === "utf16" ? Math.floor(maxBytes / 2) : maxBytes,
  };
  const segments: Segment[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.literal !== undefined) {
      segments.push({ literal: part.literal });
      continue;
    }
    if (part.width !== undefined) {
      segments.push({ width: part.width });
      continue;
    }
    const rest = parts.slice(i + 1);
    const tail = rest.every((p) => p.width !== undefined) ? rest.reduce((s, p) => s + p.width!, 0) : undefined;
    const next = parts[i + 1];
    if (tail !== undefined) segments.push({ tail });
    else if (next?.literal !== undefined) {
      segments.push({ until: next.literal });
      plan.untilChecked.set(i, next.literal);
    } else {
      plan.unsplittable = `${part.desc} and ${next?.desc ?? "what follows"} meet with no separator and no fixed width, so no parser can tell where one ends`;
      break;
    }
  }
  if (!plan.unsplittable) {
    plan.segments = segments;
    const seen = new Set<string>();
    for (const p of parts)
      if (p.read && !seen.has(p.read.prop)) {
        seen.add(p.read.prop);
        plan.recovered.push(p.read.prop);
      }
  }
  return plan;
}

/** Joins adjacent literals (the parser reads them as one) and drops empty ones. */
function mergeLiterals(parts: PartPlan[]): PartPlan[] {
  const out: PartPlan[] = [];
  for (const p of parts) {
    if (p.literal === "") continue;
    const last = out[out.length - 1];
    if (p.literal !== undefined && last?.literal !== undefined) {
      const text = last.literal + p.literal;
      out[out.length - 1] = {
        ...last,
        literal: text,
        width: text.length,
        ascii: last.ascii && p.ascii,
        desc: str(text),
        render: () => str(text),
      };
    } else {
      out.push(p);
    }
  }
  return out;
}

/** The key's builder expression: its parts, each part of variable length checked against the separator after it. */
export function renderKey(key: KeyPlan, access: Access, ctx: PlanContext): string {
  if (!key.parts.length) return '""';
  return key.parts
    .map((p, i) => {
      const sep = key.untilChecked.get(i);
      return sep === undefined ? p.render(access) : `${ctx.rt.use("keyUntil")}(${p.render(access)}, ${str(sep)}, ${str(p.desc)})`;
    })
    .join(" + ");
}

/** The `Pick<Entity, …>` of a list of properties. */
export function pick(entity: string, props: string[]): string {
  return `Pick<${entity}, ${props.length ? props.map(str).join(" | ") : "never"}>`;
}

/** Emits the builder of a key. */
export function emitBuilder(src: Source, key: KeyPlan, entity: string, ctx: PlanContext): void {
  src.doc([
    `Builds the ${commentText(key.label)}: ${commentText(exprText(key))}.`,
    `Throws KeyError when a value is outside the design's domain or the key breaks a rule of the service.`,
  ]);
  // A constant key reads no property: `_e` keeps the signature callers use without an unused parameter (noUnusedParameters).
  src.add(`export function ${key.fn}(${key.props.length ? "e" : "_e"}: ${pick(entity, key.props)}): string {`);
  src.add(`return ${ctx.rt.use("keyChecked")}(${str(key.which)}, ${renderKey(key, (p) => `e.${p}`, ctx)}, ${key.maxBytes});`, 1);
  src.add("}");
}

/** Emits the segments table and the parser of a key, or a comment saying why there is none. */
export function emitParser(src: Source, key: KeyPlan, entity: string, table: string, ctx: PlanContext): void {
  const name = `parse${key.fn[0].toUpperCase()}${key.fn.slice(1)}`;
  if (!key.segments) {
    src.add(`// No ${name}(): ${commentText(key.unsplittable ?? "")}.`);
    return;
  }
  const rt = ctx.rt;
  const segConst = `segments${key.fn[0].toUpperCase()}${key.fn.slice(1)}`;
  src.add(`const ${segConst} = [${key.segments.map(segmentText).join(", ")}] as const;`);
  src.blank();
  const lost = key.props.filter((p) => !key.recovered.includes(p));
  src.doc([
    `Reads the ${commentText(key.label)} back${key.recovered.length ? `: ${key.recovered.join(", ")}` : ""}; throws KeyError when the text is not such a key.`,
    ...(lost.length
      ? [
          `${lost.join(", ")} cannot be read back (${commentText(lostReason(key, lost))}): the parts built of them are checked where possible.`,
        ]
      : []),
  ]);
  const type = pick(entity, key.recovered);
  src.add(`export function ${name}(key: string): ${type} {`);
  src.add(`return ${rt.use("keyParse")}(${str(`${key.label} of ${table}`)}, key, ${key.maxLength}, (k) => {`, 1);
  const reads = new Map<string, string>();
  key.parts.forEach((p, i) => {
    if (p.read && !reads.has(p.read.prop)) reads.set(p.read.prop, p.read.expr(`s[${i}]`));
  });
  const checks: string[] = [];
  if (!lost.length) {
    checks.push(`${rt.use("keyVerify")}(k, ${key.fn}(out), ${str(`the ${key.which}`)});`);
  } else {
    key.parts.forEach((p, i) => {
      if (p.literal !== undefined || !p.props.length) return;
      if (p.props.every((x) => key.recovered.includes(x)))
        checks.push(`${rt.use("keyVerify")}(s[${i}], ${p.render((x) => `out.${x}`)}, ${str(p.desc)});`);
      else if (p.shape) checks.push(`${rt.use("keyShape")}(s[${i}], /${p.shape}/, ${str(p.desc)});`);
    });
  }
  // A key no segment of which is read or checked (a constant, a hash) still has its shape checked, without an unused `s` (noUnusedLocals).
  const usesSegments = reads.size > 0 || checks.some((c) => c.includes("(s["));
  src.add(`${usesSegments ? "const s = " : ""}${rt.use("keySplit")}(k, ${segConst});`, 2);
  src.add(
    `const out: ${type} = {${[...reads].map(([prop, expr]) => ` ${objectKey(prop)}: ${expr}`).join(",")}${reads.size ? " " : ""}};`,
    2,
  );
  for (const c of checks) src.add(c, 2);
  src.add("return out;", 2);
  src.add("});", 1);
  src.add("}");
}

function segmentText(s: Segment): string {
  if ("literal" in s) return `{ literal: ${str(s.literal)} }`;
  if ("width" in s) return `{ width: ${s.width} }`;
  if ("until" in s) return `{ until: ${str(s.until)} }`;
  return `{ tail: ${s.tail} }`;
}

function lostReason(key: KeyPlan, lost: string[]): string {
  const fns = key.parts.filter((p) => p.props.some((x) => lost.includes(x))).map((p) => p.desc);
  return `${fns.join(", ")} ${agree(fns.length, "does", "do")} not determine the value`;
}

/** The key expression as the design writes it (literals quoted). */
export function exprText(key: KeyPlan): string {
  return key.parts.map((p) => p.desc).join(" + ") || '""';
}

export { renderParts };
