/**
 * Issue 24, item 6, over JSON-RPC with the real server: on a 10 MB design
 * (7,700 tables) every request is bounded by the request budget, not only
 * the diagnostics. The outline took 3–4 s and answered 29 MB, formatting
 * 2 s with a 10 MB edit, code lenses 8 MB, completion lexed the whole text;
 * now each answers within its bound and says what it left out.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CodeLens, CompletionItem, DocumentSymbol, SymbolKind, TextEdit } from "vscode-languageserver-protocol/node";
import { LspClient } from "../helpers/lsp-client";
import { REQUEST_BUDGET } from "@server/lsp/budget";
import { formatCount } from "@core/text/words";

/** Diagnostics of 10 MB: the analysis's own budget, seconds on a shared machine. */
const OPEN_MS = 120_000;
/** What the requests may add to the server's peak memory (they added 300 MB: a 29 MB outline, a 10 MB edit). */
const REQUESTS_BYTES = 64 * 1024 * 1024;
/** Each request on it: a few hundred milliseconds measured, bounded generously for a shared 2-core machine. */
const ANSWER_MS = 2000;

const TABLE = readFileSync("examples/marathon.tdl", "utf8").replace(/^service.*\n/m, "");
/** `TABLE` again and again, each table renamed, up to 10 MB. */
function tenMegabytes(): { text: string; tables: number } {
  const parts = ["service azure-table\n"];
  let size = parts[0].length;
  let n = 0;
  while (size < 10 * 1024 * 1024) {
    const copy = TABLE.replace(/table (\w+)/g, (_, name: string) => `table ${name}${n++}`);
    parts.push(copy);
    size += copy.length;
  }
  return { text: parts.join(""), tables: n };
}

const uri = "file:///work/ten-megabytes.tdl";
const { text, tables } = tenMegabytes();
let client: LspClient;
/** The server's peak memory once the design is analysed: what the analysis needs (its own budget). */
let analysed: number | undefined;
before(async () => {
  client = new LspClient();
  await client.initialize();
  await client.open(uri, text);
  await client.diagnosticsOf(uri, 1, OPEN_MS);
  analysed = client.peakMemory();
});
after(async () => client.close());

/** A request's answer and how long it took. */
async function timed<T>(method: string, params: unknown): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = (await client.request(method, params, ANSWER_MS * 5)) as T;
  return { answer, ms: performance.now() - started };
}

test("the outline lists what fits in its budget and its last entry says what it left out", async () => {
  const { answer, ms } = await timed<DocumentSymbol[]>("textDocument/documentSymbol", { textDocument: { uri } });
  assert.ok(ms < ANSWER_MS, `${ms.toFixed(0)} ms`);
  const entries = answer.reduce((n, s) => n + 1 + (s.children?.length ?? 0), 0);
  assert.ok(entries <= REQUEST_BUDGET.outlineSymbols + 1, `${entries} entries`);
  const last = answer[answer.length - 1];
  const listed = answer.length - 1;
  assert.equal(last.kind, SymbolKind.Null);
  assert.equal(last.name, "… not listed");
  assert.equal(
    last.detail,
    `${formatCount(tables - listed)} of ${formatCount(tables)} tables not listed, from 'Registrations${listed}' on: the outline lists 5,000 entries at most`,
  );
  assert.ok(client.logs.some((l) => l.includes(`document symbols of ${uri} (version 1): ${last.detail}`)));
});

test("formatting leaves a design over its budget as it is and tells the user why", async () => {
  const { answer, ms } = await timed<TextEdit[]>("textDocument/formatting", {
    textDocument: { uri },
    options: { tabSize: 2, insertSpaces: true },
  });
  assert.ok(ms < ANSWER_MS, `${ms.toFixed(0)} ms`);
  assert.deepEqual(answer, []);
  assert.deepEqual(client.shown, [
    `Table Design: the design was not formatted: it has ${formatCount(text.length)} characters, and the formatter takes designs of up to 1,000,000`,
  ]);
});

test("code lenses stop at their budget, the last one saying so; completion and hover answer at once", async () => {
  const lenses = await timed<CodeLens[]>("textDocument/codeLens", { textDocument: { uri } });
  assert.ok(lenses.ms < ANSWER_MS, `${lenses.ms.toFixed(0)} ms`);
  assert.equal(lenses.answer.length, REQUEST_BUDGET.lenses);
  assert.equal(lenses.answer[lenses.answer.length - 1].command?.title, "code lenses stop here: this document shows 1,000 at most");
  // In the last table: completion lexes its table, not the 10 MB before it.
  const lastLine = text.split("\n").length - 3;
  const completion = await timed<CompletionItem[]>("textDocument/completion", {
    textDocument: { uri },
    position: { line: lastLine, character: 2 },
  });
  assert.ok(completion.ms < ANSWER_MS, `${completion.ms.toFixed(0)} ms`);
  assert.ok(completion.answer.some((c) => c.label === "partitionKey"));
  const hover = await timed("textDocument/hover", { textDocument: { uri }, position: { line: 3, character: 3 } });
  assert.ok(hover.ms < ANSWER_MS, `${hover.ms.toFixed(0)} ms`);
  assert.ok(client.alive);
});

test("the requests add little to the server's peak memory: their answers are bounded", () => {
  const peak = client.peakMemory();
  if (analysed === undefined || peak === undefined) return; // no /proc here
  assert.ok(peak - analysed < REQUESTS_BYTES, `the requests added ${((peak - analysed) / 2 ** 20).toFixed(0)} MB`);
});
