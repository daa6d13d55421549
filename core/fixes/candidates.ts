/**
 * Candidate fixes for a partition key that piles up, runs hot or has one
 * value: every plausible edit, not one guess. Each is checked before it is
 * offered (`vet.ts`), which keeps those that remove their finding without
 * making a query or another finding worse, and orders them by what they
 * leave behind. Separators come from `chooseSeparator`; the property from
 * `spreadChoices` (the queries first); bucket counts from the written load.
 */
import { KeyInfo, KeyPartInfo } from "../model/key-parts";
import { PropertyInfo } from "../model/properties";
import { formatCount, plural } from "../text/words";
import { Fix } from "../findings";
import { appendToKey, chooseSeparator, keyPartText, prefixKey } from "../rules/fix-helpers";
import { TableContext } from "../rules/rule";
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
      title: `Prefix bucket(${name}, ${n}) + ${JSON.stringify(sep)}: spreads the moment's writes over ${plural(n, "partition")} (${why})`,
      edits: [prefixKey(pk.expr, `bucket(${name}, ${n})`, sep)],
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
  return [...appendComposites(ctx, pk, rk, prefer), ...appendBuckets(ctx, pk, rk, load, target, prefer)];
}

/** `+ sep + bucket(Q, n)`: each partition splits into n, whatever Q holds. */
function appendBuckets(
  ctx: TableContext,
  pk: KeyInfo,
  rk: KeyInfo | undefined,
  load: number,
  target: number,
  prefer?: ReadonlySet<string>,
): Fix[] {
  const sep = separator(ctx, pk.parts[pk.parts.length - 1], BUCKET_PART);
  return choicesFor(ctx, pk, rk, prefer).flatMap((c) =>
    bucketSizes(load, target, c.prop.distinct).map((n) => ({
      title: `Append ${JSON.stringify(sep)} + bucket(${c.prop.name}, ${n}): splits each partition into ${n} (${reasonText(c)})`,
      edits: [appendToKey(pk.expr, sep, `bucket(${c.prop.name}, ${n})`)],
    })),
  );
}

/** `+ sep + Q`: one partition per value of Q (behind a time bucket, the current one splits by Q). */
export function appendComposites(ctx: TableContext, pk: KeyInfo, rk: KeyInfo | undefined, prefer?: ReadonlySet<string>): Fix[] {
  const last = pk.parts[pk.parts.length - 1];
  return choicesFor(ctx, pk, rk, prefer).map((c) => {
    const q = c.prop;
    const sep = separator(ctx, last, asPart(q));
    const part = keyPartText(q);
    return {
      title: `Make the partition key composite: append ${JSON.stringify(sep)} + ${part} (${q.distinct !== undefined ? `${formatCount(q.distinct)} values` : "many values"}${c.why === "other" ? "" : `; ${reasonText(c)}`})`,
      edits: [appendToKey(pk.expr, sep, part)],
    };
  });
}

/** `hash(P, 4) + sep +` in front of a key led by an increasing value that has many values itself (an order number). */
export function hashPrefix(ctx: TableContext, pk: KeyInfo, lead: KeyPartInfo): Fix | undefined {
  if (!lead.prop) return undefined;
  const sep = separator(ctx, BUCKET_PART, pk.parts[0]);
  return {
    title: `Prefix hash(${lead.prop.name}, 4) + ${JSON.stringify(sep)}: scatters consecutive values over 65,536 prefixes (range reads over ${lead.prop.name} then scan)`,
    edits: [prefixKey(pk.expr, `hash(${lead.prop.name}, 4)`, sep)],
  };
}

function reasonText(c: SpreadChoice): string {
  return c.why === "pinned"
    ? `the queries pin ${c.prop.name}, so they still name one partition`
    : c.why === "identity"
      ? `${c.prop.name} identifies the entity and never changes`
      : `${c.prop.name} has ${c.prop.distinct !== undefined ? formatCount(c.prop.distinct) : "many"} values`;
}

/** Marks the first fix preferred (the order before checking); the check reorders them. */
export function preferFirst(fixes: Fix[]): Fix[] | undefined {
  if (!fixes.length) return undefined;
  return fixes.map((f, i) => (i === 0 ? { ...f, preferred: true } : f));
}
