/**
 * Issue 20, item 5: diagnostics for the whole workspace, over JSON-RPC with
 * the real server. The designs of the workspace folder are in the Problems
 * panel without being opened (each code a link to its row of
 * docs/rules.md); a design changed, created or deleted on disk (the client's
 * watcher of `**∕*.tdl`, which the server registers) follows; an open design
 * shows its editor text and, closed unsaved, its saved text again; with
 * `tableDesign.workspaceDiagnostics: "off"` only open files get any.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";
import { marked } from "../helpers/markers";

const MS = 10_000;
const dir = mkdtempSync(path.join(tmpdir(), "tdl-workspace-"));
const uriOf = (rel: string) => pathToFileURL(path.join(dir, rel)).href;
const RULES = readFileSync("docs/rules.md", "utf8");
const RULES_URI = pathToFileURL(path.resolve("docs/rules.md")).href;

/** The designs on disk, with «» around what their diagnostic underlines. */
const ORDERS = marked('table Orders {\n  Customer: string(10)\n  partitionKey = «Custmer»\n  rowKey = "x"\n}\n');
const KEYLESS = marked("table «Keyless» {\n  B: int\n}\n");
const FIXED_ORDERS = ORDERS.text.replace("Custmer", "Customer");

/** What the user reads in the Problems panel: code, the underlined text's offsets, severity, message, and where the code links. */
function problems(p: PublishDiagnosticsParams, text: string) {
  const doc = TextDocument.create(p.uri, "tdl", 1, text);
  return p.diagnostics.map((d) => ({
    code: d.code,
    start: doc.offsetAt(d.range.start),
    end: doc.offsetAt(d.range.end),
    severity: d.severity,
    message: d.message,
    link: d.codeDescription?.href,
  }));
}

let client: LspClient;
before(async () => {
  writeFileSync(path.join(dir, "orders.tdl"), ORDERS.text);
  mkdirSync(path.join(dir, "sub"));
  writeFileSync(path.join(dir, "sub", "keyless.tdl"), KEYLESS.text);
  // Never read: dependencies and hidden folders are not the workspace's designs.
  for (const skipped of ["node_modules", ".hidden"]) {
    mkdirSync(path.join(dir, skipped));
    writeFileSync(path.join(dir, skipped, "broken.tdl"), KEYLESS.text);
  }
  client = new LspClient();
  await client.within("initialize", MS, client.initialize(dir));
});
after(async () => {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

test("designs nobody opened are in the Problems panel, each code linked to its row of docs/rules.md", async () => {
  const orders = await client.within("orders.tdl's diagnostics", MS, client.diagnostics(uriOf("orders.tdl")));
  assert.deepEqual(problems(orders, ORDERS.text), [
    {
      code: "unknown-property",
      ...ORDERS.ranges[0],
      severity: 1,
      message: "unknown property 'Custmer': table 'Orders' does not declare it (it declares Customer). Did you mean 'Customer'?",
      link: `${RULES_URI}#unknown-property`,
    },
  ]);
  const keyless = await client.within("sub/keyless.tdl's diagnostics", MS, client.diagnostics(uriOf("sub/keyless.tdl")));
  assert.deepEqual(
    problems(keyless, KEYLESS.text).map((p) => [p.code, p.start, p.end, p.link]),
    [["missing-key", KEYLESS.ranges[0].start, KEYLESS.ranges[0].end, `${RULES_URI}#missing-key`]],
  );
  // The link lands on the code's row of the catalog.
  for (const code of ["unknown-property", "missing-key"]) assert.ok(RULES.includes(`<a id="${code}"></a>\`${code}\``), code);
  assert.equal(client.latest.has(uriOf("node_modules/broken.tdl")), false, "a design under node_modules");
  assert.equal(client.latest.has(uriOf(".hidden/broken.tdl")), false, "a design in a hidden folder");
  // The server asked the client to watch the designs on disk.
  assert.deepEqual(
    client.registered.filter((r) => r.method === "workspace/didChangeWatchedFiles").map((r) => r.registerOptions),
    [{ watchers: [{ globPattern: "**/*.tdl" }] }],
  );
});

test("a design changed, created or deleted on disk: its problems follow", async () => {
  await client.within("orders.tdl's first diagnostics", MS, client.diagnostics(uriOf("orders.tdl")));
  writeFileSync(path.join(dir, "orders.tdl"), FIXED_ORDERS);
  await client.filesChanged([{ uri: uriOf("orders.tdl"), type: 2 }]);
  const fixed = await client.within(
    "orders.tdl fixed on disk",
    MS,
    client.diagnostics(uriOf("orders.tdl"), (p) => p.diagnostics.length === 0),
  );
  assert.deepEqual(fixed.diagnostics, []);

  writeFileSync(path.join(dir, "sub", "new.tdl"), ORDERS.text);
  await client.filesChanged([{ uri: uriOf("sub/new.tdl"), type: 1 }]);
  const created = await client.within("sub/new.tdl created", MS, client.diagnostics(uriOf("sub/new.tdl")));
  assert.deepEqual(
    problems(created, ORDERS.text).map((p) => [p.code, p.start, p.end]),
    [["unknown-property", ORDERS.ranges[0].start, ORDERS.ranges[0].end]],
  );

  await client.within(
    "sub/keyless.tdl's diagnostics",
    MS,
    client.diagnostics(uriOf("sub/keyless.tdl"), (p) => p.diagnostics.length > 0),
  );
  unlinkSync(path.join(dir, "sub", "keyless.tdl"));
  await client.filesChanged([{ uri: uriOf("sub/keyless.tdl"), type: 3 }]);
  const deleted = await client.within(
    "sub/keyless.tdl deleted",
    MS,
    client.diagnostics(uriOf("sub/keyless.tdl"), (p) => p.diagnostics.length === 0),
  );
  assert.deepEqual(deleted.diagnostics, []);
});

test("an open design shows its editor text; closed without saving, its saved text again", async () => {
  const uri = uriOf("editing.tdl");
  writeFileSync(path.join(dir, "editing.tdl"), ORDERS.text);
  await client.filesChanged([{ uri, type: 1 }]);
  await client.within(
    "editing.tdl from disk",
    MS,
    client.diagnostics(uri, (p) => p.diagnostics.length === 1),
  );

  // The editor fixes the typo but does not save.
  await client.open(uri, FIXED_ORDERS);
  const open = await client.within("editing.tdl open", MS, client.diagnosticsOf(uri, 1, MS));
  assert.deepEqual(open.diagnostics, []);

  await client.closeDocument(uri);
  const closed = await client.within(
    "editing.tdl closed unsaved",
    MS,
    client.diagnostics(uri, (p) => p.diagnostics.length === 1),
  );
  assert.deepEqual(
    problems(closed, ORDERS.text).map((p) => [p.code, p.start, p.end]),
    [["unknown-property", ORDERS.ranges[0].start, ORDERS.ranges[0].end]],
  );
});

test('with workspaceDiagnostics "off", only open files get diagnostics', async () => {
  // The rule level shows when the settings were applied: the scan would have published by then.
  const off = new LspClient({ workspaceDiagnostics: "off", rules: { "unknown-property": "warning" } });
  try {
    await off.within("initialize", MS, off.initialize(dir));
    const uri = uriOf("scratch.tdl");
    await off.open(uri, ORDERS.text);
    const opened = await off.within(
      "scratch.tdl with the settings applied",
      MS,
      off.diagnostics(uri, (p) => p.diagnostics.some((d) => d.severity === 2)),
    );
    assert.deepEqual(
      problems(opened, ORDERS.text).map((p) => [p.code, p.severity]),
      [["unknown-property", 2]],
    );
    assert.deepEqual([...off.latest.keys()], [uri], "diagnostics of files nobody opened");
    await off.closeDocument(uri);
    const closed = await off.within(
      "scratch.tdl closed",
      MS,
      off.diagnostics(uri, (p) => p.diagnostics.length === 0),
    );
    assert.deepEqual(closed.diagnostics, []);
  } finally {
    await off.close();
  }
});
