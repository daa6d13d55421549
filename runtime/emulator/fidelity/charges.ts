/**
 * What a request costs against the service's targets, in entities, and
 * where: the service counts inserted, updated, deleted and scanned
 * entities alike (a batch of 100 is 100; a query the entities it scans).
 */
import { keyConstraint, normalize, odataNames, parseFilter } from "@core";
import type { BatchOperation } from "./batch";
import type { TableRequest } from "./requests";
import type { Throttle } from "./throttle";

export interface Charge {
  table: string;
  partitionKey?: string;
  cost: number;
  what: "reads" | "writes";
  /** Entities added to (or removed from) the partition when the request succeeds. */
  delta: number;
}

/**
 * Filters longer than this are not read for a pinned partition: they are
 * charged as whole-table scans, the cautious reading. Real filters that pin
 * a partition are short; a long one only costs the layer time.
 */
export const PINNED_FILTER_MAX = 4096;

/** What `r` costs (`operations`: a batch's, already read). */
export function chargeOf(r: TableRequest, operations: BatchOperation[] | undefined, throttle: Throttle): Charge | undefined {
  switch (r.kind) {
    case "insert":
    case "update":
      return r.table
        ? {
            table: r.table,
            partitionKey: r.partitionKey,
            cost: 1,
            what: "writes",
            delta: r.kind === "insert" || r.method === "PUT" ? 1 : 0,
          }
        : undefined;
    case "delete":
      return r.table ? { table: r.table, partitionKey: r.partitionKey, cost: 1, what: "writes", delta: -1 } : undefined;
    case "read":
      return r.table ? { table: r.table, partitionKey: r.partitionKey, cost: 1, what: "reads", delta: 0 } : undefined;
    case "batch": {
      const ops = operations ?? [];
      const first = ops.find((o) => o.table);
      if (!first?.table) return undefined;
      const delta = ops.reduce((d, o) => d + (o.kind === "insert" ? 1 : o.kind === "delete" ? -1 : 0), 0);
      return { table: first.table, partitionKey: first.partitionKey, cost: ops.length, what: "writes", delta };
    }
    case "query": {
      if (!r.table) return undefined;
      const pk = pinnedPartition(r.filter);
      const scanned = throttle.scanned(r.table, pk);
      // On the keys alone the scan ends with the page: the service reads what it returns, at most $top (a page of 1,000).
      const cost = keysOnly(r.filter) ? Math.min(scanned, Math.max(1, Number.isFinite(r.top) ? r.top! : PAGE_MAX)) : scanned;
      return { table: r.table, partitionKey: pk, cost, what: "reads", delta: 0 };
    }
    default:
      return undefined;
  }
}

/** Entities a page of a query holds at most. */
const PAGE_MAX = 1000;

/** Whether a filter (or none) names no property but the keys: its scan walks the key order and stops with the page. */
export function keysOnly(filter: string | undefined): boolean {
  if (!filter) return true;
  if (filter.length > PINNED_FILTER_MAX) return false;
  try {
    return odataNames(filter).every((t) => t.text === "PartitionKey" || t.text === "RowKey");
  } catch {
    return false;
  }
}

/**
 * The PartitionKey a filter pins exactly, if any (the classifier's reading
 * of the filter). Whatever the parser does with a hostile filter — a throw,
 * a stack overflow on deep nesting — the answer is "none pinned": the
 * filter is then Azurite's to accept or refuse.
 */
export function pinnedPartition(filter: string | undefined): string | undefined {
  if (!filter || filter.length > PINNED_FILTER_MAX) return undefined;
  try {
    const p = parseFilter(filter);
    if (!p.ok) return undefined;
    const c = keyConstraint(normalize(p.expr), "PartitionKey");
    return c.kind === "exact" ? c.value : undefined;
  } catch {
    return undefined;
  }
}
