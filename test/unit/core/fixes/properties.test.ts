/**
 * Properties of every offered fix on generated designs (issue #32), not on
 * the examples: for any design of the generator (test/helpers/
 * design-arbitraries.ts) and any finding with a checked fix,
 *
 * - the fixed design parses and keeps every declared query;
 * - no key repeats a property (a hash or bucket prefix of a property that
 *   the key then renders is the guide's pattern, not a repeat);
 * - no declared query gets worse (class rank, or requests beyond a fan-out);
 * - no fix puts a property an update changes (`sets`) into a key;
 * - the title names what the fix writes more: a fix that adds rows per
 *   logical write (an index row, a mirrored table) says so;
 * - applying the first offered fix again and again ends within a bounded
 *   number of steps, never in a cycle.
 *
 * A fixed seed and a small budget in `npm test`; `npm run fuzz` runs long.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, applyFixEdits, FANOUT_MAX, Finding, Fix, tableFacts, TdlAnalysis, vetFixes } from "@core";
import { SEVERITY_RANK } from "@core/fixes/check";
import { fuzz } from "../../../helpers/fuzz";
import { designTextArb } from "../../../helpers/design-arbitraries";
import { repeatedKeyProperties } from "../../../helpers/key-equivalence";

const RANK = { point: 0, "row-range": 1, "partition-range": 2, "table-scan": 3 } as const;
const BROKEN = new Set(["syntax", "unknown-property", "duplicate-name", "missing-key", "invalid-argument", "internal"]);
const MAX_STEPS = 12;

interface QueryState {
  class: keyof typeof RANK;
  requests: number;
}

function queries(a: TdlAnalysis): Map<string, QueryState> {
  const out = new Map<string, QueryState>();
  for (const t of a.tables)
    for (const q of tableFacts(t.table, t.props).queries)
      if (q.classification) out.set(q.query.name.text, { class: q.classification.class, requests: q.classification.requests ?? 1 });
  return out;
}

/** Entities each logical write stores: a table's main row and index rows, over every table that mirrors the writes. */
function rowsPerWrite(a: TdlAnalysis): number {
  return a.tables.reduce((sum, t) => sum + tableFacts(t.table, t.props).est.rowsPerEntity, 0);
}

function repeats(a: TdlAnalysis): string[] {
  return a.tables.flatMap(repeatedKeyProperties);
}

const broken = (a: TdlAnalysis) => a.findings.filter((f) => BROKEN.has(f.code)).map((f) => `${f.code}: ${f.message}`);

/** Every offered fix of every finding, with the text it leaves. */
function offeredFixes(a: TdlAnalysis): Array<{ finding: Finding; fix: Fix }> {
  return a.findings.flatMap((finding) => vetFixes(a, finding).offered.map((fix) => ({ finding, fix })));
}

function checkFix(text: string, before: TdlAnalysis, { finding, fix }: { finding: Finding; fix: Fix }): void {
  const after = applyFixEdits(text, fix.edits);
  const a = analyzeTdl(after);
  const where = `fix "${fix.title}" of ${finding.code} on\n${text}\n--- gives ---\n${after}`;
  assert.deepEqual(broken(a), [], `the fixed design parses: ${where}`);
  assert.deepEqual(repeats(a), [], `no key repeats a property: ${where}`);
  const start = queries(before);
  const now = queries(a);
  for (const [q, was] of start) {
    const is = now.get(q);
    assert.ok(is, `query ${q} is still declared: ${where}`);
    assert.ok(RANK[is.class] <= RANK[was.class], `${q} went from ${was.class} to ${is.class}: ${where}`);
    if (is.requests > was.requests) assert.ok(is.requests <= FANOUT_MAX, `${q} needs ${is.requests} requests: ${where}`);
  }
  const moving = (x: TdlAnalysis) => x.findings.filter((f) => f.code === "key/mutable-property").length;
  assert.ok(moving(a) <= moving(before), `no fix puts a property an update changes into a key: ${where}`);
  if (!fix.fact && rowsPerWrite(a) > rowsPerWrite(before))
    assert.match(fix.title, /writes each entity (twice|\d+ times)/, `the title names the write amplification: ${where}`);
}

/** The first offered fix: of the most severe finding (then the first in the text) that has a checked fix. */
function firstOffered(a: TdlAnalysis): Fix | undefined {
  const ranked = a.findings
    .filter((f) => f.fixes?.length && f.severity !== "hint")
    .sort((x, y) => SEVERITY_RANK[y.severity] - SEVERITY_RANK[x.severity] || x.start - y.start);
  for (const finding of ranked) {
    const fix = vetFixes(a, finding).offered[0];
    if (fix) return fix;
  }
  return undefined;
}

test("every offered fix of a generated design parses, repeats no property, worsens no query and names its write amplification", () => {
  fuzz(
    "fix-properties",
    designTextArb,
    (text) => {
      const before = analyzeTdl(text);
      if (broken(before).length) return; // the generator writes valid designs; a broken one is the parser's fuzzers' business
      for (const offered of offeredFixes(before)) checkFix(text, before, offered);
    },
    60,
  );
});

test("the first offered fix, applied again and again, ends within a bounded number of steps and never comes back to a text", () => {
  fuzz(
    "fix-convergence",
    designTextArb,
    (text) => {
      const seen = new Set([text]);
      let a = analyzeTdl(text);
      for (let step = 1; ; step++) {
        const fix = firstOffered(a);
        if (!fix) return;
        assert.ok(step <= MAX_STEPS, `still a fix after ${MAX_STEPS} steps (${fix.title}) on\n${text}`);
        text = applyFixEdits(text, fix.edits);
        assert.ok(!seen.has(text), `the text of an earlier step came back after "${fix.title}"`);
        seen.add(text);
        a = analyzeTdl(text);
      }
    },
    40,
  );
});
