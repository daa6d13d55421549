/**
 * Issue 23, item 1: what a table costs a month, where the design is written
 * — a CodeLens line above the table and a hover on its name — over JSON-RPC
 * with the real server. The figures are docs/cost.md's worked example,
 * worked out by hand there: the design and the expected figures are read
 * from the document, so the editor and the hand calculation cannot drift.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { CodeLens } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { formatCount, SNAPSHOT } from "@core";
import { LspClient } from "../helpers/lsp-client";
import { expectHover, overLsp } from "../helpers/ide";

const MS = 10_000;
const DOC = readFileSync("docs/cost.md", "utf8");
/** The worked example's design, as docs/cost.md writes it. */
const EVENTS = /```tdl\n(table Events \{[\s\S]*?\n\})\n```/.exec(DOC)![1] + "\n";
/** A figure of docs/cost.md's table as the product writes it (ten digits and more in words: "5.2 billion"). */
const asWritten = (figure: string) => formatCount(Number(figure.replace(/,/g, "")));

/** Its figures: access → [transactions, Table Storage's month, Cosmos DB's RU/s, Cosmos DB's month]. */
const FIGURES = new Map(
  [...DOC.matchAll(/^\| `(insert [^`]+)` \| ([\d,]+) \| (\$[\d,.]+) \| ([\d,]+) \| (\$[\d,.]+) \|$/gm)].map((m) => [m[1], m.slice(2)]),
);

let client: LspClient;
before(async () => {
  client = new LspClient();
  await client.initialize();
});
after(async () => client.close());

let opened = 0;
async function lensesOf(text: string): Promise<{ uri: string; lenses: CodeLens[] }> {
  const uri = `file:///work/cost-${++opened}.tdl`;
  await client.open(uri, text);
  await client.within("diagnostics", MS, client.diagnosticsOf(uri, 1, MS));
  return { uri, lenses: (await client.request("textDocument/codeLens", { textDocument: { uri } }, MS)) as CodeLens[] };
}

test("the worked example: a lens above the table with each service's month, as docs/cost.md works it out", async () => {
  assert.equal(FIGURES.size, 2, "docs/cost.md's table of figures");
  for (const [access, [transactions, tableUsd, , cosmosUsd]] of FIGURES) {
    const text = EVENTS.replace(/insert Add [^\n]+/, access);
    const { uri, lenses } = await lensesOf(text);
    const doc = TextDocument.create(uri, "tdl", 1, text);
    const first = lenses[0];
    assert.equal(first.command?.title, `≈ ${tableUsd}/month on Table Storage · ${cosmosUsd} on Cosmos DB`, access);
    assert.equal(doc.getText(first.range), "Events", "the lens sits on the table's name");
    assert.equal(lenses[1].command?.title, "Stress test", "then the table's commands");

    await expectHover(overLsp(client), text.replace("table Events", "table «Ev‸ents»"), {
      lines: [
        "**Events** — a month at the declared peak rates",
        `| Azure Table Storage | ${tableUsd} | requests (a batch or a query page is one): ${asWritten(transactions)} transactions |`,
        `- prices of ${SNAPSHOT.region} on ${SNAPSHOT.date}, in US dollars: the snapshot shipped with the extension (\`tdl cost --refresh-prices --region R\` reads current ones)`,
      ],
      includes: [`| Azure Cosmos DB for Table | ${cosmosUsd} | throughput, provisioned (10,000 RU/s)`],
    });
  }
});

test("a design for another service leads with that service; Tablestore's capacity units, which the sheet does not price", async () => {
  const [transactions, tableUsd, , cosmosUsd] = FIGURES.get("insert Add 2000/s")!;
  const cosmos = await lensesOf(`service cosmos-table\n\n${EVENTS}`);
  assert.equal(cosmos.lenses[0].command?.title, `≈ ${cosmosUsd}/month on Cosmos DB · ${tableUsd} on Table Storage`);
  // 1 KB entities: one capacity unit (4 KiB) per write, as many as Table Storage's single-insert transactions.
  const tablestore = await lensesOf(`service tablestore\n\n${EVENTS}`);
  assert.equal(
    tablestore.lenses[0].command?.title,
    `≈ ${asWritten(transactions)} CU/month on Tablestore (not priced) · ${tableUsd} on Table Storage · ${cosmosUsd} on Cosmos DB`,
  );
});

test("a table without rates or rows: no cost lens, and the hover says what to declare", async () => {
  const bare = "table Events {\n  Id: guid\n  partitionKey = Id\n  rowKey = Id\n}\n";
  const { lenses } = await lensesOf(bare);
  assert.deepEqual(
    lenses.map((l) => l.command?.title),
    ["Stress test", "Check against live data", "Generate key builders"],
  );
  await expectHover(overLsp(client), bare.replace("table Events", "table «Even‸ts»"), {
    lines: [
      "**Events** — nothing to price yet: declare peak rates (`insert Add 100/s`, `query ByX 50/s …`) and `rows`, and the hover gives the monthly cost per service",
    ],
  });
});
