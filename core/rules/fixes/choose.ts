/**
 * Which property a fix spreads or splits a partition with, and into how
 * many buckets. The queries decide first: a property that every query
 * pinning today's partition key also pins with `=` keeps those queries
 * addressable (a leaderboard keyed by game splits by player, not by score).
 * Values that change (what an update `sets`; without `sets`, a numeric
 * property of a table that is updated) and
 * free text (a string with neither `distinct` nor `charset`) never key a
 * partition: an update would move the entity, and nobody queries by text.
 */
import { Table } from "../../tdl/ast";
import { PropertyInfo } from "../../model/properties";
import { declaresUpdates, updatedProperties } from "../../model/updates";

/** The most buckets a fix offers: past 64, reads of a range fan out too far for the writes they spread. */
export const MAX_BUCKETS = 64;

/** Buckets when no written load sizes them (the partitioning guide's example). */
const DEFAULT_BUCKETS = 16;

/** Why a property was chosen, best first. */
export type SpreadReason = "pinned" | "identity" | "other";

export interface SpreadChoice {
  prop: PropertyInfo;
  why: SpreadReason;
}

/** The table updates its entities in place (update, upsert or merge): their numeric values change. */
function updatesInPlace(table: Table): boolean {
  return table.accesses.some((a) => a.kind === "write" && (a.op === "update" || a.op === "upsert" || a.op === "merge"));
}

/** Properties that every query pinning all of `keyProps` with `=` also pins with `=` (none when no query does). */
export function pinnedByQueries(table: Table, keyProps: ReadonlySet<string>): Set<string> {
  let common: Set<string> | undefined;
  for (const a of table.accesses) {
    if (a.kind !== "query" || !a.where) continue;
    const eq = new Set(a.where.filter((c) => c.op === "=").map((c) => c.property.text));
    if (![...keyProps].every((p) => eq.has(p))) continue;
    common = common ? new Set([...common].filter((p) => eq.has(p))) : eq;
  }
  return new Set([...(common ?? [])].filter((p) => !keyProps.has(p)));
}

/**
 * The properties a partition may be spread or split with, best first:
 * pinned by the queries, then by how many values they have (unknown counts
 * as many; the first declared on a tie). Identities (`guid`, `unique`, the
 * row key's) are named so in the fix's title. Never one in `exclude`, one that moves with time, a double, binary
 * or bool, a mutable number, free text, or one with a single value.
 */
export function spreadChoices(
  table: Table,
  props: ReadonlyMap<string, PropertyInfo>,
  keyProps: ReadonlySet<string>,
  rowKeyProps: ReadonlySet<string> = new Set(),
): SpreadChoice[] {
  // What updates change: as the design states it (`sets`), else every number of a table updated in place.
  const stated = declaresUpdates(table) ? updatedProperties(table) : undefined;
  const mutable = updatesInPlace(table);
  const changes = (p: PropertyInfo) =>
    stated ? stated.has(p.name) : mutable && (p.type === "int" || p.type === "int64") && !rowKeyProps.has(p.name);
  const eligible = [...props.values()].filter(
    (p) =>
      !keyProps.has(p.name) &&
      !changes(p) &&
      !p.increasing &&
      !p.decreasing &&
      !p.decl.type.invalid &&
      !["double", "binary", "bool"].includes(p.type) &&
      !(p.type === "string" && p.distinct === undefined && !p.charset) &&
      (p.distinct === undefined || p.distinct > 1),
  );
  const pinned = pinnedByQueries(table, keyProps);
  const why = (p: PropertyInfo): SpreadReason =>
    pinned.has(p.name) ? "pinned" : p.type === "guid" || p.unique || rowKeyProps.has(p.name) ? "identity" : "other";
  // The queries' choice first; then, as the partitioning guide chooses, the most values (unknown counts as many).
  return eligible
    .map((p, i) => ({ prop: p, why: why(p), i }))
    .sort(
      (a, b) =>
        Number(b.why === "pinned") - Number(a.why === "pinned") ||
        (b.prop.distinct ?? Infinity) - (a.prop.distinct ?? Infinity) ||
        a.i - b.i,
    )
    .map(({ prop, why }) => ({ prop, why }));
}

/**
 * Bucket counts to offer for spreading `load` entities/s under `target`:
 * the smallest power of two that halves the load below the target (at least
 * 2), then its double (room for the reads that come with the writes) — never more than the property's values
 * or `MAX_BUCKETS`, and each once; 16 when no written load is declared.
 */
export function bucketSizes(load: number, target: number, distinct: number | undefined): number[] {
  const cap = Math.min(MAX_BUCKETS, distinct ?? MAX_BUCKETS);
  if (cap < 2) return [];
  // Without a write rate (or a target) there is nothing to size from: the guide's 16.
  if (!(load > 0) || !(target > 0) || !Number.isFinite(load)) return [Math.min(DEFAULT_BUCKETS, cap)];
  const need = (2 * load) / target;
  const first = 2 ** Math.max(1, Math.ceil(Math.log2(Math.max(2, need))));
  const sizes = [first, first * 2].map((n) => Math.min(n, cap));
  // A cap below a power of two still spreads: `bucket(Q, 4)` of an enum of 4 is 4 partitions.
  return [...new Set(sizes)];
}
