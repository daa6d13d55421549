/**
 * Candidate fixes for a partition key that piles up, runs hot or has one
 * value: every plausible edit, not one guess. Each is checked before it is
 * offered (`core/fixes/vet.ts`), which keeps those that remove their finding
 * without making a query or another finding worse, and orders them by what
 * they leave behind. Separators come from `chooseSeparator`; the property from
 * `spreadChoices` (the queries first); bucket counts from the written load.
 */
import { KeyInfo, KeyPartInfo } from "../../model/key-parts";
import { PropertyInfo } from "../../model/properties";
import { formatCount, plural } from "../../text/words";
import { Fix, TextEdit } from "../../findings";
import { Query } from "../../tdl/ast";
import { secondTable } from "./second-table";
import { appendToKey, chooseSeparator, keyPartText, prefixKey, tdlString } from "../fix-helpers";
import { TableContext } from "../rule";
import { bucketSizes, SpreadChoice, spreadChoices } from "./choose";

/** Properties tried per finding: enough for the queries' choice and an identity, few enough to check in a keystroke's time. */
const CHOICES = 2;

/** What a new key part looks like to `chooseSeparator`. */
type Neighbour = Pick<KeyPartInfo, "charset" | "fixedWidth">;

/** A property rendered into a key as `keyPartText` renders it: padded numbers and GUIDs have one width. */
function asPart(q: PropertyInfo): Neighbour {
  const fixed = q.type === "int" || q.type === "int64" || q.type === "guid";
  return { charset: q.charset, fixedWidth: fixed };
}

const BUCKET_PART: Neighbour = { fixedWidth: true };

/**
 * The integer property a key is made of alone where the service sorts such
 * a key numerically (Tablestore's integer primary-key column): once the key
 * is a concatenation it sorts as text, so a fix that adds a part pads it.
 */
function loneInteger(ctx: TableContext, pk: KeyInfo): PropertyInfo | undefined {
  if (!ctx.profile.integerKeysSortNumerically || pk.expr.parts.length !== 1 || pk.expr.parts[0].kind !== "ref") return undefined;
  const prop = pk.parts[0]?.prop;
  return prop && (prop.type === "int" || prop.type === "int64") ? prop : undefined;
}

/** What a fix's title adds when it pads a lone integer column. */
function padNote(ctx: TableContext, pk: KeyInfo): string {
  const lone = loneInteger(ctx, pk);
  return lone ? ` and pad ${lone.name}: ${keyPartText(lone)} (a composite key sorts as text)` : "";
}

/** `prefix + sep +` in front of the key (a lone integer column padded with it). */
function prefixEdit(ctx: TableContext, pk: KeyInfo, prefixText: string, sep: string): TextEdit {
  const lone = loneInteger(ctx, pk);
  if (!lone) return prefixKey(pk.expr, prefixText, sep);
  return { start: pk.expr.start, end: pk.expr.end, newText: `${prefixText} + ${tdlString(sep)} + ${keyPartText(lone)}` };
}

/** `+ sep + part` after the key (a lone integer column padded with it). */
function appendEdit(ctx: TableContext, pk: KeyInfo, sep: string, partText: string): TextEdit {
  const lone = loneInteger(ctx, pk);
  if (!lone) return appendToKey(pk.expr, sep, partText);
  return { start: pk.expr.start, end: pk.expr.end, newText: `${keyPartText(lone)} + ${tdlString(sep)} + ${partText}` };
}

function separator(ctx: TableContext, left: Neighbour | undefined, right: Neighbour | undefined): string {
  return chooseSeparator([left, right], ctx.profile) ?? "_";
}

/** The properties to spread `pk` with, best first, at most `CHOICES`. */
export function choicesFor(ctx: TableContext, pk: KeyInfo, rk: KeyInfo | undefined, prefer?: ReadonlySet<string>): SpreadChoice[] {
  const all = spreadChoices(ctx.table, ctx.props, pk.props, rk?.props);
  const preferred = prefer ? all.filter((c) => prefer.has(c.prop.name)) : [];
  return (preferred.length ? preferred : all).slice(0, CHOICES);
}

/**
 * `bucket(Q, n) + sep +` in front of a key that moves with time: the
 * moment's writes spread over n partitions, and reads over a time range
 * fan out to n. Also the moving property's own bucket (`bucket(At, n)`),
 * which scatters the writes of one moment whatever else the entity holds.
 */
export function prefixBuckets(ctx: TableContext, pk: KeyInfo, rk: KeyInfo | undefined, writes: number, target: number): Fix[] {
  const lead = pk.parts.find((p) => p.props.length);
  const sep = separator(ctx, BUCKET_PART, pk.parts[0]);
  const fixes: Fix[] = [];
  const add = (name: string, n: number, why: string) =>
    fixes.push({
      title: `Prefix bucket(${name}, ${n}) + ${JSON.stringify(sep)}${padNote(ctx, pk)}: spreads the moment's writes over ${plural(n, "partition")} (${why})`,
      edits: [prefixEdit(ctx, pk, `bucket(${name}, ${n})`, sep)],
    });
  for (const c of choicesFor(ctx, pk, rk)) {
    for (const n of bucketSizes(writes, target, c.prop.distinct)) add(c.prop.name, n, reasonText(c));
  }
  const moving = lead?.timeBucket?.prop ?? (lead?.monotonic && lead.prop ? lead.prop.name : undefined);
  const movingProp = moving !== undefined ? ctx.props.get(moving) : undefined;
  if (movingProp && (movingProp.increasing || movingProp.decreasing) && movingProp.type !== "bool") {
    for (const n of bucketSizes(writes, target, undefined)) add(movingProp.name, n, `by the time itself, which differs for each write`);
  }
  return fixes;
}

/**
 * `+ sep + Q` and `+ sep + bucket(Q, n)` after a key that does not move with
 * time: each hot value splits into one partition per value of Q (the
 * guide's composite key), or into n.
 */
export function appendSplits(
  ctx: TableContext,
  pk: KeyInfo,
  rk: KeyInfo | undefined,
  load: number,
  target: number,
  prefer?: ReadonlySet<string>,
): Fix[] {
  // `+ sep + bucket(Q, n)`: each partition splits into n, whatever Q holds.
  const sep = separator(ctx, pk.parts[pk.parts.length - 1], BUCKET_PART);
  const buckets = choicesFor(ctx, pk, rk, prefer).flatMap((c) =>
    bucketSizes(load, target, c.prop.distinct).map((n) => ({
      title: `Append ${JSON.stringify(sep)} + bucket(${c.prop.name}, ${n})${padNote(ctx, pk)}: splits each partition into ${n} (${reasonText(c)})`,
      edits: [appendEdit(ctx, pk, sep, `bucket(${c.prop.name}, ${n})`)],
    })),
  );
  return [...appendComposites(ctx, pk, rk, prefer), ...buckets, ...compositesWithSecondTable(ctx, pk, rk, prefer)];
}

/**
 * The composite key of `appendComposites`, where it strands one query —
 * a query that named one partition by today's key and does not pin the
 * added property — together with a second table keyed for that query
 * (`second-table.ts`): the guide's answer when one key cannot serve both.
 */
function compositesWithSecondTable(ctx: TableContext, pk: KeyInfo, rk: KeyInfo | undefined, prefer?: ReadonlySet<string>): Fix[] {
  const out: Fix[] = [];
  for (const { fix, prop } of composites(ctx, pk, rk, prefer)) {
    const stranded = ctx.table.accesses.filter((a): a is Query => {
      if (a.kind !== "query" || !a.where) return false;
      const eq = new Set(a.where.filter((c) => c.op === "=").map((c) => c.property.text));
      return [...pk.props].every((p) => eq.has(p)) && !eq.has(prop.name);
    });
    if (stranded.length !== 1) continue;
    const both = secondTable(ctx, stranded[0], { edits: fix.edits, title: fix.title });
    if (both) out.push(both);
  }
  return out;
}

/** `+ sep + Q`: one partition per value of Q (behind a time bucket, the current one splits by Q). */
export function appendComposites(ctx: TableContext, pk: KeyInfo, rk: KeyInfo | undefined, prefer?: ReadonlySet<string>): Fix[] {
  return composites(ctx, pk, rk, prefer).map((c) => c.fix);
}

function composites(
  ctx: TableContext,
  pk: KeyInfo,
  rk: KeyInfo | undefined,
  prefer?: ReadonlySet<string>,
): Array<{ fix: Fix; prop: PropertyInfo }> {
  const last = pk.parts[pk.parts.length - 1];
  return choicesFor(ctx, pk, rk, prefer).map((c) => {
    const q = c.prop;
    const sep = separator(ctx, last, asPart(q));
    const part = keyPartText(q);
    const fix: Fix = {
      title: `Make the partition key composite: append ${JSON.stringify(sep)} + ${part}${padNote(ctx, pk)} (${q.distinct !== undefined ? `${formatCount(q.distinct)} values` : "many values"}${c.why === "other" ? "" : `; ${reasonText(c)}`})`,
      edits: [appendEdit(ctx, pk, sep, part)],
    };
    return { fix, prop: q };
  });
}

/** `hash(P, 4) + sep +` in front of a key led by an increasing value that has many values itself (an order number). */
export function hashPrefix(ctx: TableContext, pk: KeyInfo, lead: KeyPartInfo): Fix | undefined {
  if (!lead.prop) return undefined;
  const sep = separator(ctx, BUCKET_PART, pk.parts[0]);
  return {
    title: `Prefix hash(${lead.prop.name}, 4) + ${JSON.stringify(sep)}${padNote(ctx, pk)}: scatters consecutive values over 65,536 prefixes (range reads over ${lead.prop.name} then scan)`,
    edits: [prefixEdit(ctx, pk, `hash(${lead.prop.name}, 4)`, sep)],
  };
}

function reasonText(c: SpreadChoice): string {
  return c.why === "pinned"
    ? `the queries pin ${c.prop.name}, so they still name one partition`
    : c.why === "identity"
      ? c.prop.type === "guid" || c.prop.unique
        ? `${c.prop.name} identifies the entity and never changes`
        : // A row key part (a device id beside a time) names the entity only with the rest of the key.
          `${c.prop.name} is part of the row key, so it never changes`
      : `${c.prop.name} has ${c.prop.distinct !== undefined ? formatCount(c.prop.distinct) : "many"} values`;
}

/** Marks the first fix preferred (the order before checking); the check reorders them. */
export function preferFirst(fixes: Fix[]): Fix[] | undefined {
  if (!fixes.length) return undefined;
  return fixes.map((f, i) => (i === 0 ? { ...f, preferred: true } : f));
}
