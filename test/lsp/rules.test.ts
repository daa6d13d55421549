import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CodeAction, CodeActionRequest, CodeLens, CodeLensRequest } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";
import { expectHover, overLsp } from "../helpers/ide";

let client: LspClient;
before(async () => {
  client = new LspClient();
  await client.initialize();
});
after(async () => client.close());

test("every fix of the examples removes its diagnostic through the real server", async () => {
  const files = [
    "ledger.tdl",
    "telemetry.tdl",
    "student-cards/by-order-number.tdl",
    "student-cards/composite-colon.tdl",
    "student-cards/by-seller.tdl",
  ];
  for (const file of files) {
    const uri = `file:///work/${file}`;
    let text = readFileSync(`examples/${file}`, "utf8");
    await client.open(uri, text);
    const { diagnostics } = await client.diagnostics(uri);
    const target = diagnostics.find((d) => d.severity! <= 2)!;
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: target.range,
      context: { diagnostics: [target] },
    })) as CodeAction[];
    const preferred = actions.find((a) => a.isPreferred)!;
    assert.ok(preferred, `${file}: a preferred fix for ${target.code}`);
    assert.deepEqual(preferred.diagnostics, [target]);
    text = TextDocument.applyEdits(TextDocument.create(uri, "tdl", 1, text), preferred.edit!.changes![uri]);
    const v = await client.change(uri, text);
    const afterFix = await client.diagnostics(uri, (p) => p.version === v);
    assert.deepEqual(
      afterFix.diagnostics.filter((d) => d.code === target.code && d.range.start.line === target.range.start.line),
      [],
      `${file}: ${target.code} is gone`,
    );
    assert.deepEqual(
      afterFix.diagnostics.filter((d) => d.code === "syntax"),
      [],
    );
  }
});

test("code lenses and hovers show each query's class and estimates", async () => {
  const uri = "file:///work/marathon.tdl";
  const text = readFileSync("examples/marathon.tdl", "utf8");
  await client.open(uri, text);
  await client.diagnostics(uri);
  const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as CodeLens[];
  // First the table's monthly cost (its figures are checked against docs/cost.md in cost-lens.test.ts).
  assert.match(String(lenses[0].command?.title), /^≈ \$[\d,]+\.\d\d\/month on Table Storage · \$[\d,]+\.\d\d on Cosmos DB$/);
  assert.deepEqual(
    lenses.slice(1).map((l) => l.command?.title),
    [
      "Stress test",
      "Check against live data",
      "Generate key builders",
      "row-range · 1 partition · scans ≈ 1 to return ≈ 1",
      "row-range · 1 partition · scans ≈ 333 to return ≈ 333",
    ],
  );
  assert.deepEqual(
    lenses.slice(1, 4).map((l) => [l.command?.command, l.command?.arguments]),
    [
      ["tableDesign.runStressTest", [uri, "Registrations"]],
      ["tableDesign.checkLiveData", [uri, "Registrations"]],
      ["tableDesign.generateKeyBuilders", [uri, "Registrations"]],
    ],
  );
  await expectHover(overLsp(client), text.replace("ByAge 20/s", "By‸Age 20/s"), {
    includes: [
      "**query ByAge** — `row-range · 1 partition · scans ≈ 333 to return ≈ 333`",
      "served by the index rows of `ByAge`",
      "partitions touched: ≈ 1",
    ],
  });
});

test("the partition target setting reaches the rules", async () => {
  const strict = new LspClient({ partitionTargetEntitiesPerSecond: 100 });
  try {
    await strict.initialize();
    const uri = "file:///work/by-card.tdl";
    await strict.open(uri, readFileSync("examples/student-cards/by-device.tdl", "utf8").replace("10K/s", "500K/s"));
    const d = await strict.diagnostics(uri, (p) => p.diagnostics.some((x) => x.code === "partition/hot"));
    assert.match(String(d.diagnostics.find((x) => x.code === "partition/hot")!.message), /the target is 100 entities\/s per partition/);
  } finally {
    await strict.close();
  }
});
