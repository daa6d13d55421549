/**
 * Figures that hold (issue #20, item 4): a query scans at least what it
 * returns, one that pins every condition with `=` returns what can match,
 * a bucket fix never offers more buckets than the property has values (nor
 * more than 64), and no message or fix title prints ten digits.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl } from "@core";

const hints = (text: string) =>
  Object.fromEntries(
    analyzeTdl(text)
      .findings.filter((f) => f.code === "query/class")
      .map((f) => [text.slice(f.start, f.end), f.message]),
  );

test("a declared 'returns 20' is never more than the query scans ('scans ≈ 1 to return ≈ 20' was)", () => {
  const q = hints(`table UserSettings {
  UserId:  string(20) charset "a-z0-9" unique
  Setting: string(30) charset "a-z"
  partitionKey = UserId
  rowKey       = Setting
  rows 1M
  query AllSettings 500/s where UserId = ? returns 20
}
`);
  assert.equal(q.AllSettings, "row-range · 1 partition · scans ≈ 20 to return ≈ 20");
});

test("a query whose conditions are all '=' returns the entities that can match them, not what it scans", () => {
  const q = hints(`table Leaderboard {
  GameId:   string(20) charset "a-z0-9" distinct 50
  PlayerId: string(20) charset "a-z0-9" distinct 1M
  Score:    int(0..9999999)
  partitionKey = GameId + "," + pad(Score, 7)
  rowKey       = PlayerId
  rows 5M
  query ByPlayer 2K/s where GameId = ? and PlayerId = ?
}
`);
  // 5M rows over 50 games × 1M players: at most one entity, though the query reads every score's partition (it returned 100,000).
  assert.match(q.ByPlayer, /^partition-range · .* to return ≈ 1$/);
});

test("bucket fixes never offer more buckets than the property has values, nor more than 64, and say their count in figures", () => {
  const text = `service azure-table
table AppLogs {
  At:      datetime increasing
  Service: enum(api, web, worker, billing)
  Level:   enum(debug, info, warn, error)
  partitionKey = date(At, "yyyyMMddHH")
  rowKey       = reverse(At)
  rows 2B
  entitySize 700B
  retention 30d
  insert Log 400K/s
}
`;
  const titles = analyzeTdl(text).findings.flatMap((f) => (f.fixes ?? []).map((x) => x.title));
  const counts = titles.flatMap((t) => [...t.matchAll(/bucket\((\w+), (\d+)\)/g)].map((m) => [m[1], Number(m[2])] as const));
  assert.ok(counts.length > 0);
  for (const [prop, n] of counts) assert.ok(n <= (prop === "At" ? 64 : 4), `bucket(${prop}, ${n})`);
});

test("no message or fix title prints a figure of ten digits or more", () => {
  const text = `service azure-table
table Orders {
  OrderId:    guid
  OrderDate:  datetime increasing
  CustomerId: string(20) charset "a-z0-9" distinct 100K
  partitionKey = date(OrderDate, "yyyyMMddHH")
  rowKey       = OrderId
  rows 50B
  entitySize 1KB
  insert PlaceOrder 500K/s
  query ByCustomer 50/s where CustomerId = ? returns 20
}
`;
  const big = /\d{1,3}(?:,\d{3}){3,}|\d{10,}/;
  for (const f of analyzeTdl(text).findings) {
    // Quoted key examples ('2026010203') are keys, not figures.
    assert.doesNotMatch(f.message.replace(/'[^']*'/g, "''"), big, f.message);
    for (const x of f.fixes ?? []) assert.doesNotMatch(x.title, big, x.title);
  }
});
