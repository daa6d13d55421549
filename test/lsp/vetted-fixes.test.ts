/**
 * Checked quick fixes over JSON-RPC (issue #20): a newcomer's design taken
 * to a clean one by applying the preferred code action again and again,
 * each one checked when the lightbulb opens — and the query it serves
 * stays a point read on the way.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CodeAction, CodeActionRequest, DiagnosticSeverity } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";

let client: LspClient;
before(async () => {
  client = new LspClient();
  await client.initialize();
});
after(async () => client.close());

test("the leaderboard reaches a clean design through textDocument/codeAction; ByPlayer stays a point read", async () => {
  const uri = "file:///work/leaderboard.tdl";
  let text = readFileSync("test/fixtures/newcomer/leaderboard.tdl", "utf8");
  await client.open(uri, text);
  let published = await client.diagnostics(uri);
  const titles: string[] = [];
  for (let step = 0; ; step++) {
    const warnings = published.diagnostics.filter((d) => d.severity! <= DiagnosticSeverity.Warning);
    const lens = published.diagnostics.find((d) => d.code === "query/class");
    assert.equal(lens?.message, "point", `step ${step}: ByPlayer's class`);
    if (!warnings.length) break;
    assert.ok(step < 8, `still warnings after 8 fixes: ${warnings.map((w) => w.code).join(", ")}`);
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: warnings[0].range,
      context: { diagnostics: [warnings[0]] },
    })) as CodeAction[];
    const preferred = actions.filter((a) => a.isPreferred);
    assert.equal(preferred.length, 1, "one preferred action");
    assert.equal(preferred[0], actions[0], "the preferred action comes first");
    assert.doesNotMatch(preferred[0].title, /not checked/);
    titles.push(preferred[0].title);
    text = TextDocument.applyEdits(TextDocument.create(uri, "tdl", 1, text), preferred[0].edit!.changes![uri]);
    const v = await client.change(uri, text);
    published = await client.diagnostics(uri, (p) => p.version === v);
  }
  assert.deepEqual(titles, [
    'Make the partition key composite: append "," + PlayerId (1,000,000 values; the queries pin PlayerId, so they still name one partition); leaves nothing to fix',
  ]);
  assert.match(text, /partitionKey = GameId \+ "," \+ PlayerId/);
});

test("the raw fixes still travel with the published diagnostics; only the code action checks them", async () => {
  const uri = "file:///work/counters.tdl";
  await client.open(uri, readFileSync("test/fixtures/newcomer/counters.tdl", "utf8"));
  const { diagnostics } = await client.diagnostics(uri);
  const hot = diagnostics.find((d) => d.code === "partition/hot")!;
  const raw = (hot.data as { fixes: Array<{ title: string }> }).fixes.map((f) => f.title);
  assert.ok(
    raw.every((t) => !t.includes("leaves")),
    "published unchecked",
  );
  const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: hot.range,
    context: { diagnostics: [hot] },
  })) as CodeAction[];
  // The checked fixes, then the one that silences the finding on its line (never preferred).
  const ignore = actions.pop()!;
  assert.equal(ignore.title, "Ignore partition/hot on this line (// tdl-ignore-next-line partition/hot)");
  assert.ok(actions.length > 0 && actions.every((a) => / leaves nothing to fix$/.test(a.title)), actions.map((a) => a.title).join(" | "));
});
