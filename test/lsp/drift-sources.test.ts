/**
 * Issue 20, items 4c and 5: which design drift compares code with, over
 * JSON-RPC with the real server and a workspace folder. The saved design, or
 * the open editor's text of that same file — never an Untitled buffer that
 * happens to declare the same table (before, such a scratch buffer silenced
 * the drift of the saved design). When two design files declare the table,
 * the user is told once which one is used.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";
import { marked } from "../helpers/markers";

/** The first TypeScript program takes seconds on a shared machine. */
const ANALYSIS_MS = 60_000;

const base = path.resolve("test/fixtures/ts");
mkdirSync(base, { recursive: true });
// Inside the repository, so that the code resolves @azure/data-tables as in a user's project.
const dir = mkdtempSync(path.join(base, ".tmp-lsp-drift-sources-"));
const uriOf = (rel: string) => pathToFileURL(path.join(dir, rel)).href;

const design = (separator: string) => `table Visits {
  Site: string(20)
  Page: string(100)
  partitionKey = Site + "${separator}" + Page
  rowKey       = Page
}
`;
/** The code, with «» around the key that drifts from a design whose separator is not "__". */
const MARKED = marked(`import { TableClient } from "@azure/data-tables";
const visits = TableClient.fromConnectionString(process.env.CONN ?? "", "Visits");
export async function visit(site: string, page: string) {
  await visits.upsertEntity({ partitionKey: «\`\${site}__\${page}\`», rowKey: page });
}
`);
const CODE = uriOf("visit.ts");
const drift = (p: PublishDiagnosticsParams) => p.diagnostics.filter((d) => d.code === "ts/design-drift-key");
/** The drift findings of the code as the user sees them: the underlined offsets and the message. */
const seen = (p: PublishDiagnosticsParams) => {
  const doc = TextDocument.create(CODE, "typescript", 1, MARKED.text);
  return drift(p).map((d) => ({ start: doc.offsetAt(d.range.start), end: doc.offsetAt(d.range.end), message: String(d.message) }));
};
/** The next diagnostics of the code after something else changed (its own version stays 1). */
const next = (what: string, pred: (p: PublishDiagnosticsParams) => boolean) =>
  client.within(what, ANALYSIS_MS, client.diagnostics(CODE, pred));

let client: LspClient;
const warnings: string[] = [];
before(async () => {
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
  writeFileSync(path.join(dir, "visits.tdl"), design("|"));
  client = new LspClient();
  client.connection.onNotification("tableDesign/analysisWarning", (p: { message: string }) => {
    warnings.push(p.message);
  });
  await client.within("initialize", 10_000, client.initialize(dir));
});
after(async () => {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

test("an Untitled buffer declaring the same table does not stand in for the saved design; the open editor of that file does", async () => {
  // A scratch design that agrees with the code, opened first.
  const untitled = "untitled:Untitled-1";
  await client.open(untitled, design("__"));
  await client.within("the Untitled design's diagnostics", 10_000, client.diagnostics(untitled));
  await client.open(CODE, MARKED.text, "typescript");
  const first = seen(await next("the code's diagnostics", () => true));
  assert.deepEqual(
    first.map(({ start, end }) => ({ start, end })),
    MARKED.ranges,
  );
  assert.match(first[0].message, /it has "__" between its parts where the design has "\|"/);

  // The saved design's own editor, with an unsaved edit that agrees with the code: that text counts.
  const saved = uriOf("visits.tdl");
  await client.open(saved, design("__"));
  assert.deepEqual(seen(await next("no drift against the open editor's text", (p) => drift(p).length === 0)), []);

  // Closed without saving: the saved text counts again.
  await client.closeDocument(saved);
  assert.equal(seen(await next("drift against the saved text again", (p) => drift(p).length === 1)).length, 1);
});

test("two designs declare the table: the user is told once which one the code is compared with", async () => {
  mkdirSync(path.join(dir, "old"));
  writeFileSync(path.join(dir, "old", "visits.tdl"), design("__"));
  const before = warnings.length;
  await client.filesChanged([{ uri: uriOf("old/visits.tdl"), type: 1 }]);
  // The older copy (in the folder "old") comes first in path order: its "__" agrees with the code.
  await next("the code compared with old/visits.tdl", (p) => drift(p).length === 0);
  // Edits of the code analyse it again and again: the sentence is not repeated.
  for (let i = 0; i < 2; i++) {
    const v = await client.change(CODE, `${MARKED.text}// edit ${i}\n`);
    await client.within("the edited code's diagnostics", ANALYSIS_MS, client.diagnosticsOf(CODE, v, ANALYSIS_MS));
  }
  assert.deepEqual(warnings.slice(before), [
    `table Visits is declared by 2 designs (${path.join("old", "visits.tdl")}, visits.tdl): code is compared with the one in ${path.join("old", "visits.tdl")}`,
  ]);
});
