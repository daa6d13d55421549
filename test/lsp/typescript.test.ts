import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { CodeAction, CodeActionRequest, CodeLens, CodeLensRequest } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";

let client: LspClient;
before(async () => {
  client = new LspClient();
  await client.initialize();
});
after(async () => client.close());

const EXAMPLE = path.resolve("examples/typescript/registrations.ts");

test("a TypeScript file that uses the SDK gets its diagnostics, fixes and lenses over JSON-RPC", async () => {
  const uri = pathToFileURL(EXAMPLE).href;
  const text = readFileSync(EXAMPLE, "utf8");
  await client.open(uri, text, "typescript");
  const { diagnostics } = await client.diagnostics(uri);
  const doc = TextDocument.create(uri, "typescript", 1, text);
  const unpadded = diagnostics.find((d) => d.code === "ts/unpadded-number")!;
  assert.equal(doc.getText(unpadded.range), "r.bib");
  assert.ok(diagnostics.some((d) => d.code === "ts/table-scan"));
  const actions = (await client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: unpadded.range, context: { diagnostics: [unpadded] } })) as CodeAction[];
  const fixed = TextDocument.applyEdits(doc, actions[0].edit!.changes![uri]);
  assert.match(fixed, /rowKey: `BIB:\$\{String\(r\.bib\)\.padStart\(10, "0"\)\}__\$\{r\.name\}__\$\{r\.gender\}__\$\{age\}`/);
  const v = await client.change(uri, fixed);
  const again = await client.diagnostics(uri, (p) => p.version === v);
  assert.deepEqual(again.diagnostics.filter((d) => d.code === "ts/unpadded-number"), []);
  const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as CodeLens[];
  assert.deepEqual(lenses.map((l) => l.command?.title), ["row-range · 1 partition", "row-range · 1 partition", "table-scan · scans every partition"]);
});

test("ordinary TypeScript gets no diagnostics, and a broken file does not stop the others", async () => {
  const plain = pathToFileURL(path.resolve("test/fixtures/ts/plain.ts")).href;
  await client.open(plain, "export const n: number = 1;\nexport const key = `${n}:${Date.now()}`;\n", "typescript");
  assert.deepEqual((await client.diagnostics(plain)).diagnostics, []);
  const broken = pathToFileURL(path.resolve("test/fixtures/ts/broken.ts")).href;
  await client.open(broken, "import { TableClient } from \"@azure/data-tables\";\nconst c = new TableClient(\nexport async function f( {\n", "typescript");
  await client.diagnostics(broken);
  const good = pathToFileURL(path.resolve("test/fixtures/ts/orders.ts")).href;
  await client.open(good, readFileSync("test/fixtures/ts/orders.ts", "utf8"), "typescript");
  const d = await client.diagnostics(good);
  assert.ok(d.diagnostics.some((x) => x.code === "ts/append-only-key"));
});
