/**
 * The query classes of the partitioning guide and the estimates that go
 * with them — one result shape for `.tdl` queries, OData filters,
 * TypeScript calls and the webview.
 */
import { formatCount } from "../text/words";

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
}

/** "row-range · 1 partition": the class and its reach, for badges. */
export function badge(c: Classification): string {
  switch (c.class) {
    case "point":
      return "point";
    case "row-range":
      return "row-range · 1 partition";
    case "partition-range":
      return c.partitions !== null ? `partition-range · ≈ ${formatCount(c.partitions)} partitions` : "partition-range · several partitions";
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
