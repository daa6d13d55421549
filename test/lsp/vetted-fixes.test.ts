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
  // The rule's fixes, checked; the action that silences the finding instead comes last (ignore-fix.test.ts).
  const fixes = actions.filter((a) => !a.title.startsWith("Ignore "));
  assert.ok(fixes.length > 0 && fixes.every((a) => / leaves nothing to fix$/.test(a.title)), actions.map((a) => a.title).join(" | "));
  assert.match(actions[actions.length - 1].title, /^Ignore partition\/hot on this line/);
});

test("two findings on one key that offer the same fix list it once, fixing both", async () => {
  const uri = "file:///work/date-keys.tdl";
  const text = readFileSync("test/fixtures/newcomer/date-keys.tdl", "utf8");
  await client.open(uri, text);
  const published = await client.diagnostics(uri);
  const onKey = published.diagnostics.filter((d) => d.code === "partition/append-only" || d.code === "partition/hot");
  assert.equal(onKey.length, 2, JSON.stringify(published.diagnostics.map((d) => d.code)));
  const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: onKey[0].range,
    context: { diagnostics: onKey },
  })) as CodeAction[];
  const titles = actions.map((a) => a.title);
  assert.deepEqual(titles, [...new Set(titles)], "no title twice");
  const shared = actions.filter((a) => (a.diagnostics ?? []).length === 2);
  assert.ok(shared.length >= 1, "a fix offered by both findings names both");
});
