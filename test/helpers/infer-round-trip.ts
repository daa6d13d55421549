/**
 * The round trip of `tdl infer`'s acceptance: designs to generate tables
 * from (every example table and a few more for inverted ticks, hash
 * prefixes, time buckets, GUIDs and index rows), and the two comparisons —
 * key expressions equal as written, and the same load findings once the
 * inferred design carries what data cannot tell (the original's access
 * patterns and its production scale).
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { analyzeTdl, TableModel } from "@core";

const ROOT = path.join(__dirname, "..", "..");

/** Designs written for the round trip, beside the examples: shapes the examples lack. */
export const EXTRA_DESIGNS = `service azure-table

// Orders newest first: milliseconds counted down (9999999999999 - t, inverted ticks).
table OrdersByCustomer {
  CustomerId: string(8..8) charset "0-9a-f" distinct 300
  CreatedMs:  int64(0..9999999999999) increasing
  OrderId:    guid
  Total:      double
  partitionKey = CustomerId
  rowKey       = reverse(CreatedMs)
  rows 1M
  insert Place 50/s
}

// A day's readings spread over 16 buckets of the device.
table ReadingsByDay {
  DeviceId: string(10..10) charset "0-9a-z" distinct 2K
  At:       datetime increasing
  Level:    int(0..100)
  partitionKey = bucket(DeviceId, 16) + "_" + date(At, "yyyyMMdd")
  rowKey       = DeviceId + "_" + date(At, "HHmmssfff")
  retention 90d
  insert Read 800/s
}

// Sessions under a tenant, keyed by GUID, with a second row per session by user.
table Sessions {
  Tenant: string(2..6) charset "A-Z" distinct 40
  SessionId: guid
  UserId: int(1..999999)
  partitionKey = "T:" + lower(Tenant)
  rowKey       = "S:" + SessionId
  index ByUser rowKey = "U:" + pad(UserId, 6) + ":" + SessionId
  rows 5M
  insert Open 100/s
  query ByUser 20/s where Tenant = ? and UserId = ?
}
`;

export interface Design {
  /** Where the design came from (a file under examples/ or "extra"). */
  source: string;
  text: string;
  model: TableModel;
}

/** Every table of every example design and of the extra designs. */
export function roundTripDesigns(): Design[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else if (e.name.endsWith(".tdl")) files.push(path.join(dir, e.name));
    }
  };
  walk("examples");
  const sources = files.sort().map((f) => ({ source: f, text: readFileSync(path.join(ROOT, f), "utf8") }));
  sources.push({ source: "extra", text: EXTRA_DESIGNS });
  // Each table on its own, as inference sees it: account-wide findings then belong to that table alone.
  return sources.flatMap(({ source, text }) => {
    const a = analyzeTdl(text);
    const service = a.service ? text.slice(a.service.start, a.service.end) + "\n\n" : "";
    return a.tables.map((tm) => {
      const alone = service + text.slice(tm.base + tm.table.start, tm.base + tm.table.end) + "\n";
      return { source, text: alone, model: analyzeTdl(alone).tables[0] };
    });
  });
}

/** A key expression as written, without the spaces outside string literals. */
export function normalizedExpr(text: string, span: { start: number; end: number }, base = 0): string {
  let out = "";
  let quoted = false;
  for (const c of text.slice(base + span.start, base + span.end)) {
    if (c === '"') quoted = !quoted;
    if (quoted || !/\s/.test(c)) out += c;
  }
  return out;
}

/** PartitionKey, RowKey and the sorted index RowKeys of a table, normalised. */
export function keyExpressions(text: string, tm: TableModel): string[] {
  const t = tm.table;
  const at = (span: { start: number; end: number }) => normalizedExpr(text, span, tm.base);
  const ix = t.indexes.map((i) => at(i.expr)).sort();
  return [t.partitionKey ? at(t.partitionKey.expr) : "", t.rowKey ? at(t.rowKey.expr) : "", ...ix];
}

/**
 * The inferred design with the original's access patterns and retention
 * added: data cannot tell rates or how long entities are kept. Its own
 * `rows`, `entitySize` and property facts stay as inferred.
 */
export function withOriginalLoad(inferred: string, original: Design): string {
  const o = original.model.table;
  const at = (m: { start: number; end: number }) => "  " + original.text.slice(original.model.base + m.start, original.model.base + m.end);
  const carried = [o.retention, ...o.accesses]
    .filter((m) => m !== undefined)
    .map(at)
    .join("\n");
  const it = analyzeTdl(inferred).tables[0];
  const close = it.base + it.table.close;
  return inferred.slice(0, close) + carried + "\n" + inferred.slice(close);
}

/** The load findings ("Partitions and load" codes) of a table, sorted. */
export function loadFindings(text: string, table: string): string[] {
  const a = analyzeTdl(text);
  const tm = a.tables.find((t) => t.table.name.text === table);
  if (!tm) return ["<no table>"];
  const inTable = a.findings.filter((d) => d.start >= tm.base + tm.table.start && d.end <= tm.base + tm.table.end);
  return inTable
    .map((d) => d.code)
    .filter((c) => c.startsWith("partition/") || c.startsWith("throughput/"))
    .sort();
}
