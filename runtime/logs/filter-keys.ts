/**
 * What a query page's `$filter` says of the partition it reads: the
 * PartitionKey it pins exactly, or the range of PartitionKeys it bounds
 * (the core's reading of the filter, the classifier's own), and its class. Logs repeat the same few filters a
 * million times, so readings are kept (a bounded cache); a filter the
 * parser cannot read, or one too long to be worth reading, pins nothing.
 */
import { classifyFilter, keyConstraint, normalize, parseFilter } from "@core";

export interface FilterReading {
  partitionKey?: string;
  /** `PartitionKey ge 'a' and PartitionKey lt 'b'`: the bounds (either may be open). */
  range?: { from?: string; to?: string };
  /** point, row-range, partition-range or table-scan; undefined when the filter does not parse. */
  queryClass?: string;
}

/** Longer filters are not read: real filters that pin a partition are short (the fidelity layer's bound too). */
const MAX_FILTER = 4096;
/** Readings kept; the cache starts over when full (distinct filters beyond this are real work anyway). */
const CACHE_SIZE = 10_000;

const cache = new Map<string, FilterReading>();

/** The partition and class of `filter`; `+` read as a space when the filter does not parse otherwise (form-encoded URIs). */
export function readFilter(filter: string): FilterReading {
  let r = cache.get(filter);
  if (r) return r;
  r = read(filter);
  if (r.queryClass === undefined && filter.includes("+")) r = read(filter.replace(/\+/g, " "));
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(filter, r);
  return r;
}

function read(filter: string): FilterReading {
  if (filter.length > MAX_FILTER) return {};
  try {
    const p = parseFilter(filter);
    if (!p.ok) return {};
    const c = keyConstraint(normalize(p.expr), "PartitionKey");
    const queryClass = classifyFilter(p.expr).class;
    if (c.kind === "exact") return { partitionKey: c.value, queryClass };
    if (c.kind === "range")
      return { range: { ...(c.lo !== undefined ? { from: c.lo } : {}), ...(c.hi !== undefined ? { to: c.hi } : {}) }, queryClass };
    return { queryClass };
  } catch {
    // Whatever the parser does with a hostile filter (a stack overflow on deep nesting), it pins nothing.
    return {};
  }
}
