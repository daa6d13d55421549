/**
 * The defects of issue #20 ("Advice a newcomer can follow"), items 1 and 4,
 * one test each: what the user is offered (the checked fixes, first
 * preferred) and the figures the messages print.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeTdl, applyFixEdits, tableFacts } from "@core";
import { checkedFixes } from "../../../helpers/analysis";

const design = (name: string) => readFileSync(`test/fixtures/newcomer/${name}.tdl`, "utf8");
const classOf = (text: string, query: string) => {
  for (const t of analyzeTdl(text).tables)
    for (const q of tableFacts(t.table, t.props).queries) if (q.query.name.text === query) return q.classification;
  return undefined;
};

test("1. date keys: the first fix keeps ByDay a partition range fanned out over the buckets — no table scan of 50,000,000", () => {
  const text = design("date-keys");
  const [fix] = checkedFixes(text, "partition/append-only");
  assert.match(fix.title, /^Prefix bucket\(OrderId, 4\) \+ ",": .*ByDay then fans out to 4 requests; leaves nothing to fix$/);
  const after = applyFixEdits(text, fix.edits);
  const byDay = classOf(after, "ByDay")!;
  assert.deepEqual([byDay.class, byDay.requests, byDay.scanned], ["partition-range", 4, 1500]);
  // The account is nowhere near 250,001,050 entities/s, and nothing is left: append-only does not come back.
  assert.deepEqual(
    analyzeTdl(after).findings.filter((f) => f.severity !== "hint"),
    [],
  );
});

test("1. date keys: a part after the date is never the preferred fix, and its title says it leaves append-only (no cycle)", () => {
  const text = design("date-keys");
  for (const fix of checkedFixes(text, "partition/append-only"))
    assert.ok(
      fix.edits.every((e) => !e.newText.startsWith(" + ")),
      fix.title,
    );
  const hot = checkedFixes(text, "partition/hot");
  assert.match(hot[0].title, /^Prefix /);
  const behind = hot.filter((f) => f.edits.some((e) => e.newText.startsWith(" + ")));
  assert.ok(behind.length > 0);
  for (const f of behind) assert.match(f.title, /leaves partition\/append-only \(partitionKey\)$/);
});

test("1. leaderboard: the hot fix splits by the player the query pins, never by the score, and the point read stays a point", () => {
  const text = design("leaderboard");
  const offered = checkedFixes(text, "partition/hot");
  assert.ok(offered.length > 0);
  assert.ok(!offered.some((f) => /Score/.test(f.title)), offered.map((f) => f.title).join(" | "));
  assert.match(offered[0].title, /^Make the partition key composite: append "," \+ PlayerId \(1,000,000 values; the queries pin PlayerId/);
  assert.ok(offered.some((f) => f.title.startsWith('Append "," + bucket(PlayerId, 4)')));
  for (const f of offered) assert.equal(classOf(applyFixEdits(text, f.edits), "ByPlayer")!.class, "point", f.title);
});

test("1. counters: the fix splits by the page the query pins, never by the counter's own value", () => {
  const text = design("counters");
  for (const code of ["partition/single-value", "partition/hot"]) {
    const offered = checkedFixes(text, code);
    assert.match(offered[0].title, /^Make the partition key composite: append "," \+ PageId \(20,000 values; the queries pin PageId/, code);
    assert.ok(
      offered.some((f) => f.title.startsWith('Append "," + bucket(PageId, 4)')),
      code,
    );
    assert.ok(!offered.some((f) => /Views/.test(f.title)), code);
  }
});

test("1. transfers: keying by the transfer strands the statement, so the offered fix adds a table keyed by account", () => {
  const text = design("transfers");
  const [fix] = checkedFixes(text, "transaction/cross-partition");
  assert.match(fix.title, /^Key by TransferId: .*, and add table LedgerByAccountNumber keyed by AccountNumber for 'Statement'/);
  const after = applyFixEdits(text, fix.edits);
  assert.equal(classOf(after, "Statement")!.class, "row-range");
  assert.deepEqual(
    analyzeTdl(after).findings.filter((f) => f.severity !== "hint"),
    [],
  );
});

test("4. a hot-partition fix never offers bucket(CustomerId, 2097152): counts come from the written load, at most 64", () => {
  const text = design("order-history").replace('date(OrderDate, "yyyyMMdd")', 'date(OrderDate, "yyyyMMddHH")').replace("500/s", "20K/s");
  const titles = analyzeTdl(text).findings.flatMap((f) => (f.fixes ?? []).map((x) => x.title));
  const counts = titles.flatMap((t) => [...t.matchAll(/bucket\(\w+, (\d+)\)/g)].map((m) => Number(m[1])));
  assert.ok(counts.length > 0);
  assert.ok(
    counts.every((n) => n <= 64),
    counts.join(", "),
  );
  // 20,000 writes a second over 2,000: 32 buckets at least halve it.
  assert.ok(counts.includes(32));
});
