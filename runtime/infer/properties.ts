/**
 * What the sample says about each property: its type (from the service's
 * Edm annotations), length bounds, alphabet, numeric range, distinct
 * values (estimated for the table), a dominant value (`hot`), monotonic
 * growth against the entities' Timestamps (`increasing`), enums for small
 * value sets — each with how sure the sample makes it.
 */
import type { EdmType, TypedValue } from "@protocol/entities";
import { CharsetCollector } from "./charset";
import { DistinctCounter } from "./distinct";
import { spearman } from "./monotonic";
import { millisOf, Row } from "./values";

export interface PropertyFacts {
  name: string;
  edm: EdmType;
  /** Rows that hold the property. */
  present: number;
  /** Smallest and largest value of a number or date (ms); string lengths. */
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  charset?: string;
  distinct: DistinctCounter;
  /** Estimated distinct values in the table. */
  distinctEstimate: number;
  unique: boolean;
  enumValues?: string[];
  /** Share (0..1) of rows holding the most frequent value, when it dominates. */
  hot?: number;
  monotonic?: { direction: "increasing" | "decreasing"; rho: number };
  /** Distinct and hot come from counting every partition (the property alone makes the PartitionKey). */
  fromPartitionCounts?: boolean;
  /** Average size of the property in an entity, by Azure's formula (name and value). */
  averageBytes: number;
  /** Types other than the dominant one, with their counts. */
  otherTypes: Map<EdmType, number>;
}

/** A value set this small (at least two values, each seen at least twice, each short) is an enum. */
const MAX_ENUM_VALUES = 12;
const MAX_ENUM_LENGTH = 32;
const ENUM_VALUE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Rank correlation with Timestamp from which a property counts as monotonic. */
const MONOTONIC_RHO = 0.9;

/** Bytes of a value by Azure's entity-size formula (service-facts.md). */
export function valueBytes(v: TypedValue): number {
  switch (v.type) {
    case "String":
      return 4 + 2 * v.value.length;
    case "Binary":
      return 4 + Math.floor((v.value.length * 3) / 4);
    case "Boolean":
      return 1;
    case "Int32":
      return 4;
    case "Guid":
      return 16;
    default:
      return 8;
  }
}

/** Facts of every property of `rows` in a table of about `tableRows` entities; names in first-seen order. */
export function inferProperties(rows: readonly Row[], tableRows: number): PropertyFacts[] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const r of rows)
    for (const k of r.props.keys())
      if (!seen.has(k)) {
        seen.add(k);
        names.push(k);
      }
  return names.map((name) => factsOf(name, rows, tableRows));
}

function dominantType(counts: Map<EdmType, number>): EdmType {
  const has = (t: EdmType) => (counts.get(t) ?? 0) > 0;
  // Numbers written by different clients mix: an integer column with a fraction somewhere is a double.
  if (has("Double") && [...counts.keys()].every((t) => t === "Double" || t === "Int32" || t === "Int64")) return "Double";
  if (has("Int64") && [...counts.keys()].every((t) => t === "Int32" || t === "Int64")) return "Int64";
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

function factsOf(name: string, rows: readonly Row[], tableRows: number): PropertyFacts {
  const types = new Map<EdmType, number>();
  const distinct = new DistinctCounter();
  const chars = new CharsetCollector();
  let bytes = 0;
  const values: TypedValue[] = [];
  const pairs: Array<[number, number]> = [];
  for (const r of rows) {
    const v = r.props.get(name);
    if (!v) continue;
    values.push(v);
    types.set(v.type, (types.get(v.type) ?? 0) + 1);
  }
  const edm = dominantType(types);
  const f: PropertyFacts = {
    name,
    edm,
    present: values.length,
    distinct,
    distinctEstimate: 0,
    unique: false,
    averageBytes: 0,
    otherTypes: new Map([...types].filter(([t]) => t !== edm)),
  };
  for (const r of rows) {
    const v = r.props.get(name);
    if (!v) continue;
    distinct.add(v.type === "Guid" ? v.value.toLowerCase() : v.value);
    bytes += 8 + 2 * name.length + valueBytes(v);
    const n = numberOf(v);
    if (n !== undefined) {
      f.min = Math.min(f.min ?? n, n);
      f.max = Math.max(f.max ?? n, n);
      if (r.timestamp !== undefined) pairs.push([r.timestamp, n]);
    }
    if (v.type === "String") {
      chars.add(v.value);
      f.minLength = Math.min(f.minLength ?? v.value.length, v.value.length);
      f.maxLength = Math.max(f.maxLength ?? 0, v.value.length);
    }
  }
  f.averageBytes = values.length ? bytes / values.length : 0;
  f.charset = edm === "String" ? chars.charset() : undefined;
  // Extrapolate over the rows that carry the property, not the whole table: a value seen in 1 of 2,500 rows of a whole
  // table is 1 value, not √2500 (a sample of the table scales by the share of its rows that carry it).
  const carrying = rows.length ? Math.round((Math.max(tableRows, rows.length) * values.length) / rows.length) : values.length;
  f.distinctEstimate = distinct.estimate(Math.max(carrying, values.length));
  const n = values.length;
  f.unique = n >= 50 && !distinct.capped && distinct.distinct === n;
  const singles = distinct.singletons();
  if (
    edm === "String" &&
    !distinct.capped &&
    distinct.distinct >= 2 &&
    distinct.distinct <= MAX_ENUM_VALUES &&
    singles === 0 &&
    n >= 4 * distinct.distinct &&
    distinct.values().every((v) => ENUM_VALUE.test(v) && v.length <= MAX_ENUM_LENGTH)
  ) {
    f.enumValues = distinct.values().sort();
  }
  const top = distinct.top();
  if (top && !f.enumValues) f.hot = hotShare(top.count, n, distinct.distinct);
  // Numbers must mostly differ (a small range repeats: a status code is not a clock); a date may repeat, as a day does
  // when it is the time bucket of the rows written that day, and still grow with the time of writing.
  const varied = edm === "DateTime" ? distinct.distinct >= 2 : distinct.distinct >= n / 2;
  if ((edm === "Int32" || edm === "Int64" || edm === "Double" || edm === "DateTime") && varied) {
    const rho = spearman(pairs);
    if (rho !== undefined && Math.abs(rho) >= MONOTONIC_RHO) f.monotonic = { direction: rho > 0 ? "increasing" : "decreasing", rho };
  }
  return f;
}

/** The most frequent value's share when it dominates: well above an even share, and seen often enough to say so. */
export function hotShare(topCount: number, total: number, values: number): number | undefined {
  const share = topCount / total;
  return values >= 3 && share >= 0.05 && share >= 3 / values && topCount >= 10 ? share : undefined;
}

/**
 * When one property alone makes the PartitionKey (raw, padded or in
 * another case) and every partition was counted, the counts are that
 * property's exact distribution: its distinct values and hot share come
 * from them rather than from the sample.
 */
export function applyPartitionCounts(facts: PropertyFacts[], prop: string, counts: ReadonlyMap<string, number>): void {
  const f = facts.find((x) => x.name === prop);
  if (!f || f.enumValues || !counts.size) return;
  let total = 0;
  let top = 0;
  for (const n of counts.values()) {
    total += n;
    top = Math.max(top, n);
  }
  f.distinctEstimate = counts.size;
  f.unique = counts.size === total && total >= 50;
  f.hot = hotShare(top, total, counts.size);
  f.fromPartitionCounts = true;
}

function numberOf(v: TypedValue): number | undefined {
  if (v.type === "Int32" || v.type === "Int64" || v.type === "Double") {
    const n = Number(v.value);
    return Number.isFinite(n) ? n : undefined;
  }
  return millisOf(v);
}
