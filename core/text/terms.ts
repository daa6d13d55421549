/**
 * The terms the product's figures use, each explained in a sentence and
 * documented under a heading of docs/language.md's "Terms" section (issue
 * #32: "range partition is never explained"). Hovers add the explanation of
 * every term their text uses, with a link to its heading; a test checks
 * that each anchor is a heading there.
 */

/** One term: how a text says it, what it means, and its heading's anchor in docs/language.md. */
export interface Term {
  /** The term as the explanation names it. */
  term: string;
  /** Matches where a text uses the term (a class name in a summary, a phrase in a sentence). */
  used: RegExp;
  /** One sentence a newcomer can picture. */
  means: string;
  /** The GitHub-style anchor of the term's heading in docs/language.md. */
  anchor: string;
}

/** The file that documents every term, relative to docs/. */
export const TERMS_DOC = "language.md";

/** Every term, in the order a hover lists them. */
export const TERMS: readonly Term[] = [
  {
    term: "point",
    used: /`point\b|\bpoint read/,
    means: "a query that names one PartitionKey and one RowKey exactly: the service reads one entity.",
    anchor: "point",
  },
  {
    term: "row-range",
    used: /\brow-range\b/,
    means:
      "a query inside one partition (its PartitionKey is exact) over a range or prefix of RowKeys: one request, pages of 1,000 entities.",
    anchor: "row-range",
  },
  {
    term: "partition-range",
    used: /\bpartition-range\b/,
    means: "a query over a range or prefix of PartitionKeys: several partitions, read one after another with continuation tokens.",
    anchor: "partition-range",
  },
  {
    term: "table-scan",
    used: /\btable-scan\b|\btable scans?\b/,
    means: "a query that pins no PartitionKey: the service reads every partition of the table, page by page, to find what matches.",
    anchor: "table-scan",
  },
  {
    term: "fan-out",
    used: /\bfan(?:s)?[- ]out\b|\d+ × ≈/,
    means: "one query sent as several requests, one per value of a bucket or hash prefix no condition pins; the client merges the answers.",
    anchor: "fan-out",
  },
  {
    term: "range partition",
    used: /\brange partitions?\b/,
    means:
      "Table Storage keeps a table's keys in order and splits them into ranges, each served by one server; keys that always land at the end go to one range.",
    anchor: "range-partition",
  },
  {
    term: "hot partition",
    used: /\bhot(?:test)? partitions?\b|\bhottest\b/,
    means:
      "the partition that takes the largest share of requests: its own target (2,000 entities/s on Table Storage) caps the whole table's throughput.",
    anchor: "hot-partition",
  },
  {
    term: "logical partition",
    used: /\blogical partitions?\b/,
    means:
      "Cosmos DB's set of entities that share a PartitionKey: placed by hash, so key order makes no hot spot, but one logical partition lives on one physical partition.",
    anchor: "logical-partition",
  },
  {
    term: "write amplification",
    used: /\bwrite amplification\b|\bwrites each entity\b|\bentities written per\b/,
    means:
      "entities stored per logical write: an index row or a second table writes each entity twice, which costs transactions, storage and a moment where the copies differ.",
    anchor: "write-amplification",
  },
  {
    term: "index row",
    used: /\bindex rows?\b/,
    means:
      "a second entity in the same partition with another RowKey, written in the same transaction, so a query by another property is a row-range.",
    anchor: "index-row",
  },
  {
    term: "selectivity",
    used: /\bselectivity\b/,
    means: "entities returned over entities scanned: 1 reads nothing it throws away; 0.01 reads a hundred entities for each it returns.",
    anchor: "selectivity",
  },
  {
    term: "continuation token",
    used: /\bcontinuation tokens?\b/,
    means:
      "what the service returns after 1,000 entities or 5 seconds of a query, or at a partition boundary: the client sends it back to read on, one request more each time.",
    anchor: "continuation-token",
  },
  {
    term: "mutable key",
    used: /\bchanges with\b|\bmove the entity\b|\bmust move\b/,
    means:
      "a key that renders a property an update changes: the service never changes a key, so each such update deletes the entity and inserts it again.",
    anchor: "mutable-key",
  },
];

/** The terms a text uses, in the registry's order. */
export function termsUsed(text: string): Term[] {
  return TERMS.filter((t) => t.used.test(text));
}
