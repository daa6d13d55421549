/**
 * Issue #20's "Done when": designs written the way a newcomer writes them
 * (test/fixtures/newcomer/), each taken from its first version to a clean
 * one by applying the first offered fix again and again — the most severe
 * finding that has a checked fix, its first (preferred) fix — on
 * azure-table and on cosmos-table. Every one converges within 8 fixes, no
 * text comes back, every step parses and removes its finding, no declared
 * query gets worse than in the first version (a fan-out of at most 16
 * requests of the same class is allowed, and the fix's title names it),
 * and no message or fix title shows a figure of ten digits or more. What
 * each design keeps is in a checked-in snapshot beside it
 * (`<design>.<service>.snap`, rewritten with UPDATE_SNAPSHOTS=1), so a
 * change of advice shows as a diff.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { analyzeTdl, applyFixEdits, FANOUT_MAX, Finding, Fix, tableFacts, TdlAnalysis, vetFixes } from "@core";
import { anchorOf } from "@core/fixes/anchors";
import { SEVERITY_RANK } from "@core/fixes/check";

const DIR = "test/fixtures/newcomer";
const SERVICES = ["azure-table", "cosmos-table"] as const;
const MAX_FIXES = 8;
const RANK = { point: 0, "row-range": 1, "partition-range": 2, "table-scan": 3 } as const;
/** Ten digits or more, grouped or not; quoted key examples ('2026010203') are keys, not figures, and are taken out first. */
const BIG = /\d{1,3}(?:,\d{3}){3,}|\d{10,}/;
const BROKEN = new Set(["syntax", "unknown-property", "duplicate-name", "missing-key", "invalid-argument", "internal"]);

interface QueryState {
  class: keyof typeof RANK;
  requests: number;
}

/** Every declared query by name (a query moved to a second table keeps its name). */
function queries(a: TdlAnalysis): Map<string, QueryState> {
  const out = new Map<string, QueryState>();
  for (const t of a.tables)
    for (const q of tableFacts(t.table, t.props).queries)
      if (q.classification) out.set(q.query.name.text, { class: q.classification.class, requests: q.classification.requests ?? 1 });
  return out;
}

function bigFigures(a: TdlAnalysis): string[] {
  const texts = a.findings.flatMap((f) => [f.message, ...(f.fixes ?? []).map((x) => x.title)]);
  return texts.filter((t) => BIG.test(t.replace(/'[^']*'/g, "''")));
}

/** The first offered fix: of the most severe finding (then the first in the text) that has a checked fix. */
function firstOffered(a: TdlAnalysis): { finding: Finding; fix: Fix } | undefined {
  const ranked = a.findings
    .filter((f) => f.fixes?.length && f.severity !== "hint")
    .sort((x, y) => SEVERITY_RANK[y.severity] - SEVERITY_RANK[x.severity] || x.start - y.start);
  for (const finding of ranked) {
    const fix = vetFixes(a, finding).offered[0];
    if (fix) return { finding, fix };
  }
  return undefined;
}

/** Runs the loop, asserting each step; returns the snapshot text. */
function converge(name: string, text: string): string {
  const start = queries(analyzeTdl(text));
  const seen = new Set([text]);
  const steps: string[] = [];
  let a = analyzeTdl(text);
  let previous = start;
  for (let n = 1; ; n++) {
    assert.deepEqual(bigFigures(a), [], `${name}, step ${n - 1}: a figure of ten digits`);
    const next = firstOffered(a);
    if (!next) break;
    assert.ok(n <= MAX_FIXES, `${name}: still a fix to offer after ${MAX_FIXES}: ${next.fix.title}`);
    const anchor = anchorOf(a, next.finding);
    text = applyFixEdits(text, next.fix.edits);
    assert.ok(!seen.has(text), `${name}, step ${n}: the text of an earlier step came back`);
    seen.add(text);
    a = analyzeTdl(text);
    assert.deepEqual(
      a.findings.filter((f) => BROKEN.has(f.code)).map((f) => f.message),
      [],
      `${name}, step ${n}: the design parses`,
    );
    assert.ok(
      !a.findings.some((f) => f.code === next.finding.code && anchorOf(a, f) === anchor),
      `${name}, step ${n}: ${next.finding.code} is gone from ${anchor}`,
    );
    const now = queries(a);
    for (const [q, was] of start) {
      const is = now.get(q);
      assert.ok(is, `${name}, step ${n}: query ${q} is still declared`);
      assert.ok(RANK[is.class] <= RANK[was.class], `${name}, step ${n}: ${q} went from ${was.class} to ${is.class}`);
      if (is.requests > was.requests)
        assert.ok(was.class !== "point" && is.requests <= FANOUT_MAX, `${name}, step ${n}: ${q} needs ${is.requests} requests`);
      // The step that widens a fan-out names it (a later step that keeps it need not).
      if (is.requests > (previous.get(q)?.requests ?? was.requests)) {
        assert.match(
          next.fix.title,
          new RegExp(`${q} then fans out to ${is.requests} requests`),
          `${name}, step ${n}: the title names the fan-out`,
        );
      }
    }
    previous = now;
    steps.push(`${n}. ${next.finding.code} at ${anchor}: ${next.fix.title}`);
  }
  const left = a.findings.filter((f) => f.severity !== "hint").map((f) => `${f.severity} ${f.code} at ${anchorOf(a, f)}: ${f.message}`);
  const classes = [...queries(a)].map(([q, s]) => `${q}: ${s.class}${s.requests > 1 ? ` · ${s.requests} requests` : ""}`);
  return [`fixes applied (${steps.length}):`, ...steps, `left (${left.length}):`, ...left, "queries:", ...classes, ""].join("\n");
}

const designs = readdirSync(DIR).filter((f) => f.endsWith(".tdl"));

test("the newcomer corpus holds the designs the issue names", () => {
  for (const kind of ["date-keys", "day-events", "counters", "leaderboard", "per-user", "logs", "transfers"])
    assert.ok(designs.includes(`${kind}.tdl`), kind);
});

for (const file of designs) {
  const source = readFileSync(path.join(DIR, file), "utf8");
  // A design written for another profile (Tablestore) runs on that profile alone.
  const own = /^service (\S+)$/m.exec(source)?.[1];
  for (const service of own && own !== "azure-table" ? [own] : SERVICES) {
    test(`${file} on ${service}: the first offered fix, again and again, converges within ${MAX_FIXES} and makes nothing worse`, () => {
      const text = source.replace(/^service azure-table$/m, `service ${service}`);
      const snapshot = converge(`${file} (${service})`, text);
      const snap = path.join(DIR, `${file.replace(/\.tdl$/, "")}.${service}.snap`);
      if (process.env.UPDATE_SNAPSHOTS || !existsSync(snap)) writeFileSync(snap, snapshot);
      assert.equal(snapshot, readFileSync(snap, "utf8"), `${snap} (UPDATE_SNAPSHOTS=1 rewrites it)`);
    });
  }
}
