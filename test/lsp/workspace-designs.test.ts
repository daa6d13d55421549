/**
 * Issue 25, item 1, over JSON-RPC with the real server: the workspace's
 * design scan (run when code is analysed, to find the design of the table
 * the code writes) meets a FIFO named `fifo.tdl`, a `zero.tdl` link to
 * /dev/zero and a 10 MB `big.tdl` beside the real design. Before the fix the
 * FIFO hung the server for good and the link grew it until it was killed.
 * Now it reads the real design (the drift finding proves it), says once
 * which files it left out and why, stays small, and answers.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";
import { marked } from "../helpers/markers";

/** The first TypeScript program takes seconds on a shared machine; a hang takes for ever. */
const FIRST_ANALYSIS_MS = 60_000;
const ANSWER_MS = 5000;
/** The server's peak memory (255 MB measured, the TypeScript program included): the 10 MB design is never read, /dev/zero never grows it. */
const MAX_PEAK_BYTES = 600 * 1024 * 1024;

const base = path.resolve("test/fixtures/ts");
mkdirSync(base, { recursive: true });
// Inside the repository, so that the code resolves @azure/data-tables as in a user's project.
const dir = mkdtempSync(path.join(base, ".tmp-lsp-workspace-"));
let client: LspClient;
const warnings: string[] = [];

const DESIGN = `table Visits {
  Site: string(20)
  Page: string(100)
  partitionKey = Site + "|" + Page
  rowKey       = Page
}
`;
/** The code, with «» around the key that drifts from the design on disk. */
const MARKED = marked(`import { TableClient } from "@azure/data-tables";
const visits = TableClient.fromConnectionString(process.env.CONN ?? "", "Visits");
export async function visit(site: string, page: string) {
  await visits.upsertEntity({ partitionKey: «\`\${site}__\${page}\`», rowKey: page });
}
`);
const CODE = MARKED.text;

before(async () => {
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
  writeFileSync(path.join(dir, "visits.tdl"), DESIGN);
  const fifo = spawnSync("mkfifo", [path.join(dir, "fifo.tdl")]);
  assert.equal(fifo.status, 0, `mkfifo: ${fifo.stderr}`);
  symlinkSync("/dev/zero", path.join(dir, "zero.tdl"));
  writeFileSync(path.join(dir, "big.tdl"), `// ${"x".repeat(10 * 1024 * 1024)}\n${DESIGN.replace("Visits", "Big")}`);
  client = new LspClient();
  client.connection.onNotification("tableDesign/analysisWarning", (p: { message: string }) => {
    warnings.push(p.message);
  });
  await client.within("initialize", ANSWER_MS, client.initialize(dir));
});
after(async () => {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a FIFO, a link to /dev/zero and a 10 MB file among the designs: the scan reads the real design, says what it skipped, and the server answers", async () => {
  const uri = pathToFileURL(path.join(dir, "visit.ts")).href;
  await client.open(uri, CODE, "typescript");
  const d = await client.diagnosticsOf(uri, 1, FIRST_ANALYSIS_MS);
  // The design on disk was read: the code's "__" drifts from its "|".
  const doc = TextDocument.create(uri, "typescript", 1, CODE);
  assert.deepEqual(
    d.diagnostics
      .filter((x) => x.code === "ts/design-drift-key")
      .map((x) => ({ start: doc.offsetAt(x.range.start), end: doc.offsetAt(x.range.end) })),
    MARKED.ranges,
  );
  // Said once, with each file and its reason.
  assert.equal(warnings.length, 1, warnings.join("\n"));
  const said = warnings[0];
  assert.match(said, /^Table Design left 3 design files of the workspace unread: /);
  assert.ok(said.includes(`${path.join(dir, "fifo.tdl")} is not a regular file (a FIFO)`), said);
  assert.ok(said.includes(`${path.join(dir, "zero.tdl")} is not a regular file (a character device)`), said);
  assert.match(said, /big\.tdl has 10,485,8\d\d bytes; designs of up to 1,048,576 bytes are read/);

  // An edit of the code: analysed again within the bound (the scan is not repeated), and the server still answers requests.
  const v = await client.change(uri, CODE.replace("__", "|"));
  assert.equal((await client.diagnosticsOf(uri, v, FIRST_ANALYSIS_MS)).version, v);
  assert.deepEqual(await client.request("textDocument/codeLens", { textDocument: { uri: "file:///nowhere.tdl" } }, ANSWER_MS), []);
  assert.equal(warnings.length, 1);
  assert.ok(client.alive);
  const peak = client.peakMemory();
  if (peak !== undefined) assert.ok(peak < MAX_PEAK_BYTES, `peak memory ${(peak / 2 ** 20).toFixed(0)} MB`);
});
