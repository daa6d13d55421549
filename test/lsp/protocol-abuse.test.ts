/**
 * Requests and notifications no client should send, over JSON-RPC with the
 * real server: each gets an answer (InvalidParams where the params break the
 * protocol, an empty result for an unknown document), nothing corrupts the
 * open documents, and the process stays up.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ErrorCodes, TextEdit } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";

const MS = 5000;
const MARATHON = readFileSync("examples/marathon.tdl", "utf8");
let client: LspClient;

before(async () => {
  client = new LspClient();
  await client.initialize();
});
after(async () => client.close());

/** The error code of a rejected request, or "answered" when it was answered. */
async function outcome(method: string, params: unknown): Promise<number | "answered"> {
  try {
    await client.request(method, params, MS);
    return "answered";
  } catch (e) {
    if (typeof (e as { code?: unknown }).code === "number") return (e as { code: number }).code;
    throw e;
  }
}

test("params that break the protocol are answered with InvalidParams; unknown documents with an empty result", async () => {
  const uri = "file:///work/abuse.tdl";
  await client.open(uri, MARATHON);
  await client.diagnosticsOf(uri, 1, MS);
  const at = { line: 12, character: 4 };
  const bad: Array<[string, unknown]> = [
    ["textDocument/hover", {}],
    ["textDocument/hover", { textDocument: { uri: 5 }, position: at }],
    ["textDocument/hover", { textDocument: { uri }, position: { line: -1, character: 0 } }],
    ["textDocument/hover", { textDocument: { uri }, position: { line: "3", character: 0 } }],
    ["textDocument/hover", { textDocument: { uri }, position: { line: 1.5, character: 0 } }],
    ["textDocument/completion", { textDocument: { uri } }],
    ["textDocument/definition", { textDocument: { uri }, position: null }],
    ["textDocument/rename", { textDocument: { uri }, position: at, newName: 42 }],
    ["textDocument/codeAction", { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: "all" } }],
    ["textDocument/documentSymbol", { textDocument: null }],
    ["textDocument/formatting", []],
  ];
  for (const [method, params] of bad)
    assert.equal(await outcome(method, params), ErrorCodes.InvalidParams, `${method} ${JSON.stringify(params)}`);

  const unknown = { textDocument: { uri: "file:///work/never-opened.tdl" }, position: at };
  assert.equal(await client.request("textDocument/hover", unknown, MS), null);
  assert.deepEqual(await client.request("textDocument/completion", unknown, MS), []);
  assert.deepEqual(await client.request("textDocument/references", unknown, MS), []);
  assert.deepEqual(await client.request("textDocument/codeLens", { textDocument: { uri: "untitled:nothing" } }, MS), []);

  // Positions past the end are valid LSP: clamped to the end of the document.
  const huge = { textDocument: { uri }, position: { line: 2 ** 31, character: Number.MAX_SAFE_INTEGER } };
  assert.equal(await outcome("textDocument/hover", huge), "answered");
  assert.equal(await outcome("textDocument/completion", huge), "answered");
  assert.equal(await outcome("textDocument/references", { ...huge, context: undefined }), "answered");
  assert.equal(await outcome("textDocument/unknownRequest", { anything: true }), ErrorCodes.MethodNotFound);
  assert.ok(client.alive);
});

test("code actions skip diagnostics whose data is not ours instead of failing them all", async () => {
  const uri = "file:///work/abuse-actions.tdl";
  const text = 'table Orders {\n  Customer: string(10)\n  partitionKey = Custmer\n  rowKey = "x"\n}\n';
  await client.open(uri, text);
  const { diagnostics } = await client.diagnosticsOf(uri, 1, MS);
  const range = diagnostics[0].range;
  const junk = [
    null,
    7,
    { source: "tdl", data: { fixes: 5 } },
    { source: "tdl", data: { fixes: [{ title: 1, edits: [] }] } },
    { source: "tdl", data: { fixes: [{ title: "x", edits: [{ range: { start: { line: "a" } }, newText: "" }] }] } },
  ];
  const actions = (await client.request(
    "textDocument/codeAction",
    { textDocument: { uri }, range, context: { diagnostics: [...junk, diagnostics[0]] } },
    MS,
  )) as Array<{ title: string }>;
  assert.deepEqual(
    actions.map((a) => a.title),
    ["Change to 'Customer'; leaves nothing to fix", "Ignore unknown-property on this line (// tdl-ignore-next-line unknown-property)"],
  );
});

test("didOpen without text and didChange with a broken range are refused; the document keeps its text and the server stays up", async () => {
  await client.connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri: "file:///work/no-text.tdl", languageId: "tdl", version: 1 },
  });
  const uri = "file:///work/abuse-sync.tdl";
  const text = 'table Orders {\n  A: int(0..99)\n  partitionKey = pad(B, 2)\n  rowKey = "x"\n}\n';
  await client.open(uri, text);
  const first = await client.diagnosticsOf(uri, 1, MS);
  await client.connection.sendNotification("textDocument/didChange", {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: { line: -3, character: 0 }, end: { line: 0 } }, text: "" }],
  });
  await client.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version: 3 }, contentChanges: [{ text: 17 }] });
  await client.connection.sendNotification("textDocument/didChange", {
    textDocument: { uri: "file:///work/not-open.tdl", version: 2 },
    contentChanges: [{ text: "x" }],
  });
  await client.connection.sendNotification("textDocument/didClose", { textDocument: {} });
  await client.connection.sendNotification("workspace/didChangeConfiguration", {
    settings: { tableDesign: { service: 12, partitionTargetEntitiesPerSecond: "fast" } },
  });
  // The text is intact: formatting answers for the whole original text, and the last change is analysed normally.
  const edits = (await client.request(
    "textDocument/formatting",
    { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } },
    MS,
  )) as TextEdit[];
  const doc = TextDocument.create(uri, "tdl", 1, text);
  assert.match(TextDocument.applyEdits(doc, edits), /partitionKey = pad\(B, 2\)\n {2}rowKey {7}= "x"\n}\n$/);
  const v = await client.change(uri, text.replace("pad(B", "pad(A"));
  assert.deepEqual((await client.diagnosticsOf(uri, v, MS)).diagnostics, []);
  assert.equal(first.diagnostics[0].code, "unknown-property");
  assert.ok(client.alive);
});

test("a design with CR-only line ends formats into one copy of the design, not two", async () => {
  const uri = "file:///work/cr.tdl";
  const lf = 'table Orders {\n  Customer:string(10)\n  partitionKey=Customer\n  rowKey = "x"\n}\n';
  const cr = lf.replaceAll("\n", "\r");
  await client.open(uri, cr);
  await client.diagnosticsOf(uri, 1, MS);
  const edits = (await client.request(
    "textDocument/formatting",
    { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } },
    MS,
  )) as TextEdit[];
  const formatted = TextDocument.applyEdits(TextDocument.create(uri, "tdl", 1, cr), edits);
  assert.equal(formatted.split("table Orders").length - 1, 1, JSON.stringify(formatted));
  assert.equal(formatted.replace(/\s+/g, ""), lf.replace(/\s+/g, ""));
});
