/**
 * Entities of a generated design with the values real tables hold (issue
 * #32): counters that count from 1, numbers with zeros among them, times on
 * whole minutes or whole hours, GUIDs, enum values, strings from the
 * declared alphabet — each row's keys rendered by the core's own evaluator,
 * each index row written beside its main row. Seeded: the same design gives
 * the same table every run.
 */
import type { TableEntity } from "@azure/data-tables";
import { renderKey, Scalar, TableModel } from "@core";
import type { PropertyInfo } from "@core";
import type { EntityRow, TypedValue } from "@protocol/entities";
import { seeded } from "./generated-tables";

const START = Date.UTC(2026, 2, 1);
const STEPS = [60_000, 3_600_000, 1_234, 86_400_000];

function valueOf(p: PropertyInfo, i: number, rnd: () => number, step: number): Scalar {
  const pick = (n: number) => Math.floor(rnd() * n);
  switch (p.type) {
    case "int":
    case "int64": {
      const lo = Math.max(p.min ?? 0, 0);
      const hi = Math.min(p.max ?? 1_000_000, 9_000_000_000_000);
      if (p.increasing || p.unique) return Math.min(hi, lo + i + 1); // a counter
      if (rnd() < 0.1) return Math.max(lo, 0); // zeros happen
      return lo + pick(Math.max(1, Math.min(hi - lo, p.distinct ?? hi - lo)));
    }
    case "double":
      return Math.round(rnd() * 100_000) / 100;
    case "bool":
      return rnd() < 0.5;
    case "datetime":
      // Times of writing follow each other; other dates (a due date, a birthday) spread over a year, on the same grain.
      return new Date(START + (p.increasing ? i * step : Math.floor((pick(365) * 86_400_000) / step) * step));
    case "guid":
      return Array.from({ length: 32 }, () => "0123456789abcdef"[pick(16)])
        .join("")
        .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
    case "enum":
      return p.enumValues![pick(p.enumValues!.length)];
    default: {
      const alphabet = charsOf(p);
      const width = Math.min(Number.isFinite(p.maxChars) ? p.maxChars : 10, 10);
      const distinct = p.unique ? Infinity : (p.distinct ?? 500);
      const n = Number.isFinite(distinct) ? pick(distinct) : i * 7919 + pick(7919);
      // The nth value of the domain: its digits in the alphabet, at least four characters.
      let s = "";
      for (let v = n; s.length < Math.max(4, width - 2); v = Math.floor(v / alphabet.length)) s = alphabet[v % alphabet.length] + s;
      return s;
    }
  }
}

function charsOf(p: PropertyInfo): string {
  let out = "";
  for (const [lo, hi] of p.charset?.ranges ?? [[0x61, 0x7a]])
    for (let c = Math.max(lo, 0x30); c <= hi && out.length < 40; c++)
      if (/[A-Za-z0-9]/.test(String.fromCharCode(c))) out += String.fromCharCode(c);
  return out || "abcdefghij";
}

function typed(p: PropertyInfo, v: Scalar): TypedValue {
  switch (p.type) {
    case "int":
      return { type: "Int32", value: String(v) };
    case "int64":
      return { type: "Int64", value: String(v) };
    case "double":
      return { type: "Double", value: String(v) };
    case "bool":
      return { type: "Boolean", value: String(v) };
    case "datetime":
      return { type: "DateTime", value: (v as Date).toISOString() };
    case "guid":
      return { type: "Guid", value: String(v) };
    default:
      return { type: "String", value: String(v) };
  }
}

/** `n` entities of the table (with their index rows), in write order, as many as their keys tell apart. */
export function realisticRows(tm: TableModel, n: number, seed = 1): EntityRow[] {
  // As the table holds them: a later entity with the same keys replaces the earlier (an upsert), in its place.
  const last = new Map<string, EntityRow>();
  for (const row of realisticGroups(tm, n, seed).flat()) {
    const key = JSON.stringify([row.partitionKey, row.rowKey]);
    last.delete(key);
    last.set(key, row);
  }
  return [...last.values()];
}

/** The same entities, each with its index rows (one partition, one transaction). */
export function realisticGroups(tm: TableModel, n: number, seed = 1): EntityRow[][] {
  const rnd = seeded(seed);
  const step = STEPS[seed % STEPS.length];
  const groups: EntityRow[][] = [];
  for (let i = 0; i < n; i++) {
    const rows: EntityRow[] = [];
    const values = new Map<string, Scalar>();
    for (const p of tm.props.values()) values.set(p.name, valueOf(p, i, rnd, step));
    const ctx = { props: tm.props, values };
    const properties = Object.fromEntries([...tm.props.values()].map((p) => [p.name, typed(p, values.get(p.name)!)]));
    const base = {
      partitionKey: renderKey(tm.table.partitionKey!.expr, ctx),
      timestamp: new Date(START + i * 1000).toISOString(),
      etag: "",
    };
    rows.push({ ...base, rowKey: renderKey(tm.table.rowKey!.expr, ctx), properties } as EntityRow);
    for (const ix of tm.table.indexes) rows.push({ ...base, rowKey: renderKey(ix.expr, ctx), properties } as EntityRow);
    groups.push(rows);
  }
  return groups;
}

/** A row as the Tables SDK writes it: each value with its Edm type (a whole Double stays a Double). */
export function asEntity(row: EntityRow): TableEntity<Record<string, unknown>> {
  const out: TableEntity<Record<string, unknown>> = { partitionKey: row.partitionKey, rowKey: row.rowKey };
  for (const [name, v] of Object.entries(row.properties)) {
    if (v.type === "String") out[name] = v.value;
    else if (v.type === "Boolean") out[name] = v.value === "true";
    else if (v.type === "Int32") out[name] = Number(v.value);
    else out[name] = { value: v.value, type: v.type };
  }
  return out;
}
