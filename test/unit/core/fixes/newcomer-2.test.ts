/**
 * Twelve designs written from scratch the way a newcomer writes them
 * (test/fixtures/newcomer-2/: chat, orders, telemetry, leaderboards, audit,
 * SaaS usage, tickets, a ledger, a feed, a URL shortener, bookings, a job
 * scheduler), each with an update that changes a status, a last-seen time, a
 * score or a next run — and each keyed, at first, by that value. `tdl fix`'s
 * run (`applyCheckedFixes`) on each must end
 *
 * - clean, or with every leftover warning explained (why no fix applies);
 * - with no key that repeats a property;
 * - with no key that renders a property an update changes (`sets`);
 * - with no declared query worse than it was (class rank, or requests past a fan-out of 16);
 * - with the write amplification named by each step that writes more.
 *
 * What each run applies and leaves is in `<design>.snap` beside it
 * (UPDATE_SNAPSHOTS=1 rewrites it), so a change of advice shows as a diff.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { analyzeTdl, applyCheckedFixes, FANOUT_MAX, tableFacts, TdlAnalysis } from "@core";
import { updatedProperties } from "@core/model/updates";
import { repeatedKeyProperties } from "../../../helpers/key-equivalence";

const DIR = "test/fixtures/newcomer-2";
const RANK = { point: 0, "row-range": 1, "partition-range": 2, "table-scan": 3 } as const;

function queries(a: TdlAnalysis): Map<string, { class: keyof typeof RANK; requests: number }> {
  const out = new Map<string, { class: keyof typeof RANK; requests: number }>();
  for (const t of a.tables)
    for (const q of tableFacts(t.table, t.props).queries)
      if (q.classification) out.set(q.query.name.text, { class: q.classification.class, requests: q.classification.requests ?? 1 });
  return out;
}

/** "Jobs.partitionKey renders NextRunAt, which Reschedule sets" for every key that holds a value an update changes. */
function movingKeys(a: TdlAnalysis): string[] {
  return a.tables.flatMap((tm) => {
    const { est } = tableFacts(tm.table, tm.props);
    const changing = updatedProperties(tm.table);
    const keys: Array<[string, Set<string> | undefined]> = [
      ["partitionKey", est.pk?.props],
      ["rowKey", est.rk?.props],
      ...est.indexKeys.map((k, i): [string, Set<string>] => [`index ${tm.table.indexes[i].name.text}`, k.props]),
    ];
    return keys.flatMap(([which, props]) =>
      [...(props ?? [])].filter((p) => changing.has(p)).map((p) => `${tm.table.name.text}.${which} renders ${p}, which an update sets`),
    );
  });
}

const designs = readdirSync(DIR).filter((f) => f.endsWith(".tdl"));

test("the second newcomer corpus holds the twelve designs, each keyed at first by a value an update changes", () => {
  assert.deepEqual(
    designs.map((f) => f.replace(/\.tdl$/, "")),
    [
      "audit",
      "bookings",
      "chat",
      "feed",
      "job-scheduler",
      "leaderboards",
      "ledger",
      "orders",
      "saas-usage",
      "telemetry",
      "tickets",
      "url-shortener",
    ],
  );
  for (const file of designs) assert.notDeepEqual(movingKeys(analyzeTdl(readFileSync(path.join(DIR, file), "utf8"))), [], file);
});

for (const file of designs) {
  test(`${file}: tdl fix ends with every key stable, no key repeating a property, no query worse, and every leftover explained`, () => {
    const source = readFileSync(path.join(DIR, file), "utf8");
    const before = queries(analyzeTdl(source));
    const run = applyCheckedFixes(source);
    assert.equal(run.stopped, undefined, `${file}: the run ends because no fix is left, not by ${run.stopped}`);
    const after = analyzeTdl(run.text);
    assert.deepEqual(movingKeys(after), [], `${file}: no key holds a value an update changes\n${run.text}`);
    assert.deepEqual(after.tables.flatMap(repeatedKeyProperties), [], `${file}: no key repeats a property`);
    const now = queries(after);
    for (const [q, was] of before) {
      const is = now.get(q);
      assert.ok(is, `${file}: query ${q} is still declared`);
      assert.ok(RANK[is.class] <= RANK[was.class], `${file}: ${q} went from ${was.class} to ${is.class}`);
      if (is.requests > was.requests) assert.ok(is.requests <= FANOUT_MAX, `${file}: ${q} needs ${is.requests} requests`);
    }
    // A step that adds a table or an index row writes each entity more often: its title says how often.
    for (const step of run.steps)
      if (/add table|index row/i.test(step.title)) assert.match(step.title, /writes each entity (twice|\d+ times)/, step.title);
    for (const left of run.left ?? []) assert.ok(left.why.length > 0, `${file}: ${left.code} at ${left.anchor} says why it is left`);
    const snapshot = [
      `fixes applied (${run.steps.length}):`,
      ...run.steps.map((s, i) => `${i + 1}. ${s.code} at ${s.anchor}: ${s.title}`),
      `left (${run.left?.length ?? 0}):`,
      ...(run.left ?? []).map((l) => `${l.severity} ${l.code} at ${l.anchor}: ${l.why}`),
      "queries:",
      ...[...now].map(([q, s]) => `${q}: ${s.class}${s.requests > 1 ? ` · ${s.requests} requests` : ""}`),
      "",
    ].join("\n");
    const snap = path.join(DIR, file.replace(/\.tdl$/, ".snap"));
    if (process.env.UPDATE_SNAPSHOTS || !existsSync(snap)) writeFileSync(snap, snapshot);
    assert.equal(snapshot, readFileSync(snap, "utf8"), `${snap} (UPDATE_SNAPSHOTS=1 rewrites it)`);
  });
}
