/**
 * The properties every offered fix must have on any design (issue #32),
 * in one place for `npm test` (test/unit/core/fixes/properties.test.ts,
 * figures.test.ts, a fixed seed and a small budget), `npm run fuzz` (the
 * same files, long) and `npm run bench fixes` (scripts/bench-fixes.ts, over
 * 10,000 generated designs). Each check throws an AssertionError that
 * names the design, the fix and the text it gives.
 */
import assert from "node:assert/strict";
import { analyzeTdl, applyFixEdits, FANOUT_MAX, Finding, Fix, tableFacts, TdlAnalysis, vetFixes } from "@core";
import { SEVERITY_RANK } from "@core/fixes/check";
import { repeatedKeyProperties } from "./key-equivalence";

const RANK = { point: 0, "row-range": 1, "partition-range": 2, "table-scan": 3 } as const;
const BROKEN = new Set(["syntax", "unknown-property", "duplicate-name", "missing-key", "invalid-argument", "internal"]);

/** Fixes a design may take, one after another, before it must be clean or out of fixes. */
export const MAX_STEPS = 12;

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

/** The findings that say a design does not stand, in words. */
export const broken = (a: TdlAnalysis): string[] => a.findings.filter((f) => BROKEN.has(f.code)).map((f) => `${f.code}: ${f.message}`);

/** Every offered fix of every finding. */
export function offeredFixes(a: TdlAnalysis): Array<{ finding: Finding; fix: Fix }> {
  return a.findings.flatMap((finding) => vetFixes(a, finding).offered.map((fix) => ({ finding, fix })));
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * Every way an analysis' figures contradict each other, in words: partitions
 * × entities per partition ≠ rows, more partitions than rows, a query that
 * returns more than it scans, touches more partitions than the table has,
 * scans more than it stores, a point or row-range over several partitions,
 * a table scan that reads less than the table.
 */
export function contradictions(a: TdlAnalysis): string[] {
  const out: string[] = [];
  for (const tm of a.tables) {
    if (!tm.checked) continue;
    const { est, queries: qs } = tableFacts(tm.table, tm.props);
    const t = tm.table.name.text;
    const { rows, partitions, entitiesPerPartition: per } = est;
    if (rows !== undefined && partitions !== undefined) {
      if (partitions > rows * (1 + 1e-9)) out.push(`${t}: ${partitions} partitions for ${rows} rows`);
      if (per !== undefined && !close(partitions * per, rows)) out.push(`${t}: ${partitions} partitions × ${per} entities ≠ ${rows} rows`);
    }
    const stored = rows === undefined ? undefined : rows * est.rowsPerEntity;
    for (const { query, classification: c } of qs) {
      if (!c) continue;
      const q = `${t}/${query.name.text} (${c.class})`;
      if (c.returned !== null && c.scanned !== null && c.returned > c.scanned * (1 + 1e-9))
        out.push(`${q} returns ${c.returned}, more than it scans (${c.scanned})`);
      if (c.partitions !== null && partitions !== undefined && c.partitions > partitions * (1 + 1e-9))
        out.push(`${q} touches ${c.partitions} partitions of ${partitions}`);
      if (c.scanned !== null && stored !== undefined && c.scanned > stored * (1 + 1e-9))
        out.push(`${q} scans ${c.scanned} of ${stored} stored`);
      if ((c.class === "point" || c.class === "row-range") && c.partitions !== null && c.partitions > (c.requests ?? 1))
        out.push(`${q} reads ${c.partitions} partitions`);
      if (c.class === "table-scan" && !c.via && rows !== undefined && c.scanned !== null && !close(c.scanned, rows))
        out.push(`${q} scans ${c.scanned}, not the table's ${rows} rows`);
    }
  }
  return out;
}

/**
 * One offered fix: the fixed design parses and keeps every declared query,
 * no key repeats a property, no query gets worse, no key gains a property
 * an update changes, the title names any write amplification, and the
 * figures agree with each other.
 */
export function checkFix(text: string, before: TdlAnalysis, { finding, fix }: { finding: Finding; fix: Fix }): void {
  const after = applyFixEdits(text, fix.edits);
  const a = analyzeTdl(after);
  const where = `fix "${fix.title}" of ${finding.code} on\n${text}\n--- gives ---\n${after}`;
  assert.deepEqual(broken(a), [], `the fixed design parses: ${where}`);
  assert.deepEqual(a.tables.flatMap(repeatedKeyProperties), [], `no key repeats a property: ${where}`);
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
  assert.deepEqual(contradictions(a), [], `the figures agree after the fix: ${where}`);
}

/** The first offered fix: of the most severe finding (then the first in the text) that has a checked fix. */
export function firstOffered(a: TdlAnalysis): Fix | undefined {
  const ranked = a.findings
    .filter((f) => f.fixes?.length && f.severity !== "hint")
    .sort((x, y) => SEVERITY_RANK[y.severity] - SEVERITY_RANK[x.severity] || x.start - y.start);
  for (const finding of ranked) {
    const fix = vetFixes(a, finding).offered[0];
    if (fix) return fix;
  }
  return undefined;
}

/** Every offered fix of a design has the properties of `checkFix`; returns how many were checked. */
export function checkOfferedFixes(text: string): number {
  const before = analyzeTdl(text);
  if (broken(before).length) return 0; // the generator writes valid designs; a broken one is the parser's fuzzers' business
  assert.deepEqual(contradictions(before), [], `the figures agree on\n${text}`);
  const offered = offeredFixes(before);
  for (const o of offered) checkFix(text, before, o);
  return offered.length;
}

/** The first offered fix, applied again and again, ends within `MAX_STEPS` and never comes back to a text; returns the steps. */
export function checkConvergence(text: string): number {
  const seen = new Set([text]);
  let a = analyzeTdl(text);
  for (let step = 1; ; step++) {
    const fix = firstOffered(a);
    if (!fix) return step - 1;
    assert.ok(step <= MAX_STEPS, `still a fix after ${MAX_STEPS} steps (${fix.title}) on\n${text}`);
    text = applyFixEdits(text, fix.edits);
    assert.ok(!seen.has(text), `the text of an earlier step came back after "${fix.title}"`);
    seen.add(text);
    a = analyzeTdl(text);
  }
}
