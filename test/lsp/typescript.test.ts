import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
  const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: unpadded.range,
    context: { diagnostics: [unpadded] },
  })) as CodeAction[];
  const fixed = TextDocument.applyEdits(doc, actions[0].edit!.changes![uri]);
  assert.match(fixed, /rowKey: `BIB:\$\{String\(r\.bib\)\.padStart\(10, "0"\)\}__\$\{r\.name\}__\$\{r\.gender\}__\$\{age\}`/);
  const v = await client.change(uri, fixed);
  const again = await client.diagnostics(uri, (p) => p.version === v);
  assert.deepEqual(
    again.diagnostics.filter((d) => d.code === "ts/unpadded-number"),
    [],
  );
  const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as CodeLens[];
  assert.deepEqual(
    lenses.map((l) => l.command?.title),
    ["row-range · 1 partition", "row-range · 1 partition", "table-scan · scans every partition"],
  );
});

test("ordinary TypeScript gets no diagnostics, and a broken file does not stop the others", async () => {
  const plain = pathToFileURL(path.resolve("test/fixtures/ts/plain.ts")).href;
  await client.open(plain, "export const n: number = 1;\nexport const key = `${n}:${Date.now()}`;\n", "typescript");
  assert.deepEqual((await client.diagnostics(plain)).diagnostics, []);
  const broken = pathToFileURL(path.resolve("test/fixtures/ts/broken.ts")).href;
  await client.open(
    broken,
    'import { TableClient } from "@azure/data-tables";\nconst c = new TableClient(\nexport async function f( {\n',
    "typescript",
  );
  await client.diagnostics(broken);
  const good = pathToFileURL(path.resolve("test/fixtures/ts/orders.ts")).href;
  await client.open(good, readFileSync("test/fixtures/ts/orders.ts", "utf8"), "typescript");
  const d = await client.diagnostics(good);
  assert.ok(d.diagnostics.some((x) => x.code === "ts/append-only-key"));
});

test("JavaScript documents and TypeScript that gets its client from a helper are analysed over JSON-RPC", async () => {
  const dir = path.resolve("test/fixtures/ts");
  const helper = pathToFileURL(path.join(dir, "lsp-helper.ts")).href;
  await client.open(
    helper,
    `import { TableClient } from "@azure/data-tables";\nexport const getTableClient = (name: string) => TableClient.fromConnectionString(process.env.CONN ?? "", name);\n`,
    "typescript",
  );
  await client.diagnostics(helper);
  const uses = pathToFileURL(path.join(dir, "lsp-uses.ts")).href;
  const usesText = `import { getTableClient } from "./lsp-helper";\nexport const hit = (page: string) => getTableClient("Hits").upsertEntity({ partitionKey: "hits", rowKey: page });\n`;
  await client.open(uses, usesText, "typescript");
  const d = await client.diagnostics(uses, (p) => p.diagnostics.length > 0);
  assert.deepEqual(
    d.diagnostics.map((x) => [x.code, TextDocument.create(uses, "typescript", 1, usesText).getText(x.range)]),
    [["ts/constant-partition-key", '"hits"']],
  );
  const js = pathToFileURL(path.join(dir, "lsp-script.js")).href;
  const jsText = `const { TableClient } = require("@azure/data-tables");\nconst t = TableClient.fromConnectionString(process.env.CONN || "", "Jobs");\nexports.run = () => t.listEntities();\n`;
  await client.open(js, jsText, "javascript");
  const jd = await client.diagnostics(js, (p) => p.diagnostics.length > 0);
  assert.deepEqual(
    jd.diagnostics.map((x) => x.code).filter((c) => c !== "ts/query-class"),
    ["ts/table-scan"],
  );
});

test("when the SDK's types do not resolve, the server says so once (log and notification)", async () => {
  const warnings: string[] = [];
  client.connection.onNotification("tableDesign/analysisWarning", (p: { message: string }) => {
    warnings.push(p.message);
  });
  // A folder with no node_modules above it: the SDK cannot resolve there.
  const dir = path.join(tmpdir(), `tdl-lsp-unresolved-${process.pid}`);
  const text = `import { TableClient } from "@azure/data-tables";\nconst c = new TableClient("https://x.table.core.windows.net", "T");\nexport const f = (id: string) => c.createEntity({ partitionKey: String(Date.now()), rowKey: id });\n`;
  let uri = "";
  for (const name of ["a.ts", "b.ts"]) {
    uri = pathToFileURL(path.join(dir, name)).href;
    await client.open(uri, text, "typescript");
    const d = await client.diagnostics(uri, (p) => p.diagnostics.length > 0);
    assert.deepEqual(
      d.diagnostics.map((x) => x.code),
      ["ts/append-only-key"],
    );
  }
  // One more round trip: every notification sent before its answer has arrived.
  await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  assert.equal(warnings.length, 1, warnings.join(" | "));
  assert.match(warnings[0], /@azure\/data-tables's types do not resolve from .*tdl-lsp-unresolved-/);
  assert.equal(client.logs.filter((l) => l.includes("types do not resolve")).length, 1);
});
