/**
 * The code-action side of checked fixes: within the time budget the fixes
 * come checked and best first; what the budget leaves no time for comes as
 * published, marked "(not checked)" and never preferred; a complete check
 * is kept for the document's version, one cut short is not.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyzeTdl, LineIndex } from "@core";
import { toDiagnostic } from "@server/lsp/convert";
import { vettedCodeActions } from "@server/lsp/vetted-fixes";

function designDoc(uri: string, text: string, version = 1) {
  const analysis = analyzeTdl(text);
  const lines = new LineIndex(text);
  return { uri, doc: TextDocument.create(uri, "tdl", version, text), analysis, lines };
}

/** A clock that moves `step` ms each time it is read. */
function ticking(step: number): () => number {
  let now = 0;
  return () => (now += step);
}

test("past the budget the rest of the fixes come unchecked, marked so; asked again with time, all come checked", () => {
  const text = readFileSync("test/fixtures/newcomer/date-keys.tdl", "utf8");
  const design = designDoc("file:///w/budget.tdl", text);
  const hot = design.analysis.findings.find((f) => f.code === "partition/hot")!;
  const diagnostic = toDiagnostic(design.lines, hot);
  // 100 ms a read against 150 ms: one fix is checked, the others are not.
  const rushed = vettedCodeActions(design, [diagnostic], 150, ticking(100));
  const unchecked = rushed.filter((a) => a.title.endsWith(" (not checked)"));
  assert.equal(unchecked.length, hot.fixes!.length - 1);
  assert.deepEqual(
    unchecked.map((a) => a.title),
    hot.fixes!.slice(1).map((f) => `${f.title} (not checked)`),
  );
  assert.ok(unchecked.every((a) => !a.isPreferred));
  // With time (the cut-short answer was not kept), every fix is checked: the refused ones are not offered at all.
  const calm = vettedCodeActions(design, [diagnostic], 150, ticking(0));
  assert.ok(calm.length > 0 && calm.length < hot.fixes!.length);
  assert.ok(calm.every((a) => !a.title.includes("(not checked)")));
  assert.equal(calm[0].isPreferred, true);
  // The complete answer is kept for this version: no time at all now still gives it.
  assert.deepEqual(
    vettedCodeActions(design, [diagnostic], 0, ticking(1000)).map((a) => a.title),
    calm.map((a) => a.title),
  );
});

test("a diagnostic the design no longer has falls back to the fixes it carries", () => {
  const text = readFileSync("test/fixtures/newcomer/counters.tdl", "utf8");
  const design = designDoc("file:///w/stale.tdl", text);
  const hot = design.analysis.findings.find((f) => f.code === "partition/hot")!;
  const stale = { ...toDiagnostic(design.lines, hot), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } };
  const actions = vettedCodeActions(design, [stale]);
  assert.deepEqual(
    actions.map((a) => a.title),
    hot.fixes!.map((f) => f.title),
  );
});
