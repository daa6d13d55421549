/**
 * Regression tests of issue 10 over JSON-RPC with the real server: the
 * documents and requests that made the server exit or hang. Each test has
 * a server of its own, so that one hang cannot take the next test with it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Diagnostic, Hover } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";
import { marked } from "../helpers/markers";

/** Generous bounds for a shared 2-core machine; the failures they catch take seconds to forever. */
const ANSWER_MS = 5000;

const MARATHON = readFileSync("examples/marathon.tdl", "utf8");
const NO_SERVICE = MARATHON.replace(/^service azure-table\n/m, "");

async function withServer(fn: (client: LspClient) => Promise<void>): Promise<void> {
  const client = new LspClient();
  try {
    await client.within("initialize", ANSWER_MS, client.initialize());
    await fn(client);
    assert.ok(client.alive, "the server is still running");
  } finally {
    await client.close();
  }
}

const design = (filter: string) =>
  `table Orders {\n  A: int(0..9)\n  B: bool\n  partitionKey = pad(A, 1)\n  rowKey = "x"\n  query Q filter "${filter}"\n}\n`;
const codes = (ds: Diagnostic[]) => ds.map((d) => `${d.code}@${d.range.start.line}`);

test("pressing Enter 30 times at the top of a design without a service line: every keystroke's diagnostics arrive within a second", async () => {
  await withServer(async (client) => {
    const uri = "file:///work/typing.tdl";
    await client.open(uri, NO_SERVICE);
    const before = (await client.diagnosticsOf(uri, 1, ANSWER_MS)).diagnostics;
    let worst = 0;
    for (let n = 1; n <= 30; n++) {
      const started = performance.now();
      const v = await client.changeRange(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, "\n");
      const after = await client.diagnosticsOf(uri, v, 1000);
      worst = Math.max(worst, performance.now() - started);
      if (n === 30) {
        // The same findings, 30 lines lower.
        assert.deepEqual(
          codes(after.diagnostics),
          before.map((d) => `${d.code}@${d.range.start.line + 30}`),
        );
      }
    }
    assert.ok(worst < 1000, `worst keystroke ${worst.toFixed(0)} ms`);
  });
});

test("'-.' in a filter (typed on the way to '-.5'): the server stays up and answers requests on the document", async () => {
  await withServer(async (client) => {
    const uri = "file:///work/minus-dot.tdl";
    const text = design("A eq -.");
    await client.open(uri, text);
    const d = await client.diagnosticsOf(uri, 1, ANSWER_MS);
    assert.ok(
      d.diagnostics.some((x) => x.severity === 1),
      "an error is shown on the document",
    );
    const hover = (await client.request(
      "textDocument/hover",
      { textDocument: { uri }, position: { line: 1, character: 3 } },
      ANSWER_MS,
    )) as Hover | null;
    assert.ok(hover === null || typeof hover === "object");
    // The next keystroke completes the number; the document then analyses normally.
    const typing = marked(design("A eq -.‸"));
    const at = TextDocument.create(uri, "tdl", 1, typing.text).positionAt(typing.carets[0]);
    const v = await client.changeRange(uri, { start: at, end: at }, "5");
    const fixed = await client.diagnosticsOf(uri, v, ANSWER_MS);
    assert.deepEqual(
      fixed.diagnostics.filter((x) => x.code === "internal" || x.code === "syntax"),
      [],
    );
  });
});

test("'-.' in a filter is a syntax error at its position, not an internal failure", async () => {
  await withServer(async (client) => {
    const uri = "file:///work/minus-dot-syntax.tdl";
    await client.open(uri, design("A eq -."));
    const { diagnostics } = await client.diagnosticsOf(uri, 1, ANSWER_MS);
    assert.deepEqual(
      diagnostics.filter((x) => x.code === "internal"),
      [],
    );
    const syntax = diagnostics.filter((x) => x.code === "syntax");
    assert.equal(syntax.length, 1, JSON.stringify(diagnostics));
    // It starts on the '-.' (or right after it, where the number should go on).
    const { text, ranges } = marked(design("A eq «-.»"));
    const doc = TextDocument.create(uri, "tdl", 1, text);
    const start = doc.offsetAt(syntax[0].range.start);
    assert.ok(start >= ranges[0].start && start <= ranges[0].end, JSON.stringify(syntax[0].range));
  });
});

const NESTED_PARENS = `${"(".repeat(3000)}A eq 1${")".repeat(3000)}`;
const MANY_NOTS = `${"not ".repeat(7500)}B`;
const NESTED_KEY = `${"pad(".repeat(2200)}A${", 1)".repeat(2200)}`;

test("3,000 nested parentheses, 7,500 nots, 2,200 nested key functions: the server stays up and each version gets diagnostics", async () => {
  await withServer(async (client) => {
    const uri = "file:///work/deep.tdl";
    const texts = [design(NESTED_PARENS), design(MANY_NOTS), design("A eq 1").replace("pad(A, 1)", NESTED_KEY)];
    await client.open(uri, texts[0]);
    await client.diagnosticsOf(uri, 1, ANSWER_MS);
    for (const text of texts.slice(1)) {
      const v = await client.change(uri, text);
      await client.diagnosticsOf(uri, v, ANSWER_MS);
      const symbols = await client.request("textDocument/documentSymbol", { textDocument: { uri } }, ANSWER_MS);
      assert.ok(Array.isArray(symbols));
    }
    // The server is as good as new on an ordinary document.
    const v = await client.change(uri, design("A eq 1"));
    assert.deepEqual(
      (await client.diagnosticsOf(uri, v, ANSWER_MS)).diagnostics.filter((x) => x.severity === 1),
      [],
    );
  });
});

test("deep nesting is analysed or refused with a clear diagnostic, never an internal failure", async () => {
  await withServer(async (client) => {
    const uri = "file:///work/deep-clear.tdl";
    const cases = [design(NESTED_PARENS), design(MANY_NOTS), design("A eq 1").replace("pad(A, 1)", NESTED_KEY)];
    for (const [i, text] of cases.entries()) {
      const version = i ? await client.change(uri, text) : (await client.open(uri, text), 1);
      const { diagnostics } = await client.diagnosticsOf(uri, version, ANSWER_MS);
      assert.deepEqual(
        diagnostics.filter((x) => x.code === "internal").map((x) => x.message),
        [],
        `case ${i}`,
      );
    }
  });
});
