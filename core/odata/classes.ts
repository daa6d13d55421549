/**
 * The query classes of the partitioning guide and the estimates that go
 * with them — one result shape for `.tdl` queries, OData filters,
 * TypeScript calls and the webview.
 */
import { formatCount, plural } from "../text/words";

export type QueryClass = "point" | "row-range" | "partition-range" | "table-scan";

export interface Classification {
  class: QueryClass;
  /** Partitions touched; null when it cannot be estimated. */
  partitions: number | null;
  /** Entities scanned (index rows included). */
  scanned: number | null;
  /** Entities returned. */
  returned: number | null;
  /** returned / scanned. */
  selectivity: number | null;
  /** Why the query has this class, in words, for messages and hovers. */
  reasons: string[];
  /** An `or` across PartitionKeys made it a table scan: issue the branches separately. */
  orAcrossPartitions?: boolean;
  /** The row family that serves it: "rowKey" or an index's name. */
  via?: string;
  /**
   * A fan-out: the query is issued once per value of a bucket (or hash)
   * that no condition pins, each request of the class above; `partitions`
   * counts them all. Absent for one request.
   */
  fanOut?: number;
  /**
   * Partitions each request of a fan-out reads: `partitions / fanOut` when
   * the buckets lead the PartitionKey, all of `partitions` when they are in
   * the RowKey (every request reads the same partitions, one bucket of each).
   * Absent: `partitions / fanOut`.
   */
  partitionsPerRequest?: number;
  /** Requests one call issues (continuation pages aside): the fan-out, 1 when absent. */
  requests?: number;
}

/** Sizes the classifier uses when a design is known; all optional. */
export interface FilterContext {
  /** Entities in the table (main rows). */
  rows?: number;
  /** Rows per entity (1 + indexes). */
  rowsPerEntity?: number;
  partitions?: number;
  /** The caller's `returns N`. */
  returns?: number;
  /** Distinct values of a property of the design (undefined when unknown): `Status eq 'x'` keeps 1/N of what is scanned. */
  distinct?: (property: string) => number | undefined;
}

/** Values a bucket or hash key part may be enumerated over at most: a fan-out issues one request for each. */
export const FANOUT_MAX_PARTS = 256;

/** "row-range · 1 partition": the class and its reach, for badges. */
export function badge(c: Classification): string {
  const fan = c.fanOut && c.fanOut > 1 ? `${formatCount(c.fanOut)} × ` : "";
  switch (c.class) {
    case "point":
      return fan ? `point · ${fan}1 partition` : "point";
    case "row-range":
      return `row-range · ${fan}1 partition`;
    case "partition-range":
      return c.partitions !== null
        ? `partition-range · ${fan}≈ ${plural(Math.max(1, c.partitionsPerRequest ?? c.partitions / (c.fanOut ?? 1)), "partition")}`
        : "partition-range · several partitions";
    case "table-scan":
      return "table-scan · every partition";
  }
}

/** "row-range · 1 partition · scans ≈ 10,000 to return ≈ 100". */
export function summary(c: Classification): string {
  const parts = [badge(c)];
  if (c.class !== "point" && c.scanned !== null) {
    parts.push(
      c.returned !== null
        ? `scans ≈ ${formatCount(c.scanned)} to return ≈ ${formatCount(c.returned)}`
        : `scans ≈ ${formatCount(c.scanned)}`,
    );
  }
  return parts.join(" · ");
}

/** Fills `selectivity` from scanned and returned. */
export function withSelectivity(c: Omit<Classification, "selectivity">): Classification {
  const selectivity = c.scanned !== null && c.returned !== null && c.scanned > 0 ? Math.min(1, c.returned / c.scanned) : null;
  return { ...c, selectivity };
}
