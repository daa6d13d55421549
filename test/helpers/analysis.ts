/**
 * Assertions over the analysis of marked fixture text: the codes, message
 * ids and exact ranges of diagnostics, the parameters of their messages, and
 * the text after applying a fix.
 */
import assert from "node:assert/strict";
import { analyzeTdl, AnalysisOptions, Finding, Fix, Severity } from "@core";
import { vetFixes } from "@core/fixes/vet";
import { annotated, applyEdits, marked } from "./markers";

/**
 * Asserts that exactly the marked ranges carry `code` (other codes are ignored), and that a range annotated
 * `«…»‹messageId›` carries that message.
 */
export function expectFindings(source: string, code: string, options: AnalysisOptions = {}): Finding[] {
  const m = marked(source);
  const found = analyzeTdl(m.text, options).findings.filter((f) => f.code === code);
  assert.deepEqual(
    found.map((f) => ({ start: f.start, end: f.end, text: m.text.slice(f.start, f.end) })),
    m.ranges.map((r) => ({ start: r.start, end: r.end, text: m.text.slice(r.start, r.end) })),
    `ranges of ${code}: ${found.map((f) => f.message).join(" | ")}`,
  );
  const notes = annotated(m, found);
  assert.deepEqual(notes.actual, notes.expected, `messages of ${code}: ${found.map((f) => f.message).join(" | ")}`);
  return found;
}

/**
 * Asserts a finding's message id and the parameters listed in `data` (others it carries are not compared):
 * what the message says, without holding the test to its wording.
 */
export function expectSaid(finding: Finding | undefined, messageId: string, data: Record<string, unknown> = {}): void {
  assert.ok(finding, `no finding to say ${messageId}`);
  const picked = Object.fromEntries(Object.keys(data).map((k) => [k, finding.data?.[k]]));
  assert.deepEqual({ messageId: finding.messageId, data: picked }, { messageId, data }, finding.message);
}

/** Applies the fix titled like `title` (or the preferred one) of the first `code` finding; returns the new text. */
export function applyFix(text: string, code: string, title?: RegExp, options: AnalysisOptions = {}): string {
  const finding = analyzeTdl(text, options).findings.find((f) => f.code === code);
  assert.ok(finding, `no ${code} finding`);
  const fix = title ? finding.fixes?.find((f) => title.test(f.title)) : (finding.fixes?.find((f) => f.preferred) ?? finding.fixes?.[0]);
  assert.ok(fix, `no fix on ${code}: ${finding.message}`);
  return applyEdits(text, fix.edits);
}

/** Codes of all findings at or above `min` severity. */
export function codes(text: string, options: AnalysisOptions = {}, min: Severity = "hint"): string[] {
  const rank = { hint: 0, info: 1, warning: 2, error: 3 };
  return analyzeTdl(text, options)
    .findings.filter((f) => rank[f.severity] >= rank[min])
    .map((f) => f.code);
}

/**
 * Applies the fix (the preferred one, or the one whose title matches) of the
 * finding with `code` at the marked range, asserts the exact text after it,
 * that it still parses, and that no `code` finding is left at that spot.
 */
export function expectFix(before: string, code: string, after: string, title?: RegExp, options: AnalysisOptions = {}): void {
  const m = marked(before);
  const finding = analyzeTdl(m.text, options).findings.find(
    (f) => f.code === code && (!m.ranges.length || (f.start === m.ranges[0].start && f.end === m.ranges[0].end)),
  );
  assert.ok(finding, `no ${code} finding at the marked range`);
  const fix = title ? finding.fixes?.find((f) => title.test(f.title)) : finding.fixes?.find((f) => f.preferred);
  assert.ok(fix, `no ${title ? `fix matching ${title}` : "preferred fix"} on ${code}: ${finding.message}`);
  const text = applyEdits(m.text, fix.edits);
  assert.equal(text, after);
  const again = analyzeTdl(text, options).findings;
  assert.deepEqual(
    again.filter((f) => f.code === "syntax"),
    [],
    "the fixed text parses",
  );
  assert.deepEqual(
    again.filter((f) => f.code === code && f.start === finding.start).map((f) => f.message),
    [],
    `${code} is gone at that spot`,
  );
}

/**
 * The fixes of the `code` finding at the marked range (or the first) as
 * they are offered: checked on a copy, best first (`core/fixes/vet.ts`).
 */
export function checkedFixes(source: string, code: string, options: AnalysisOptions = {}): Fix[] {
  const m = marked(source);
  const a = analyzeTdl(m.text, options);
  const finding = a.findings.find(
    (f) => f.code === code && (!m.ranges.length || (f.start === m.ranges[0].start && f.end === m.ranges[0].end)),
  );
  assert.ok(finding, `no ${code} finding at the marked range`);
  return vetFixes(a, finding).offered;
}

/**
 * As `expectFix`, with the fix the user is offered first (the checked,
 * preferred one) or the checked one whose title matches.
 */
export function expectCheckedFix(before: string, code: string, after: string, title?: RegExp, options: AnalysisOptions = {}): Fix {
  const offered = checkedFixes(before, code, options);
  const fix = title ? offered.find((f) => title.test(f.title)) : offered[0];
  assert.ok(fix, `no checked ${title ? `fix matching ${title}` : "fix"} on ${code}; offered: ${offered.map((f) => f.title).join(" | ")}`);
  if (!title) assert.equal(fix.preferred, true, "the first checked fix is preferred");
  const text = applyEdits(marked(before).text, fix.edits);
  assert.equal(text, after);
  return fix;
}
