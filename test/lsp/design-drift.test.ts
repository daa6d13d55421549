/**
 * Drift over JSON-RPC: editing an open design updates the drift diagnostic
 * of open code that writes the design's table (the code's text does not
 * change), and the diagnostic's fix runs the command that generates the
 * key builders, with the design's URI and the table's name.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { CodeAction, CodeActionRequest, PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";
import { marked } from "../helpers/markers";

const base = path.resolve("test/fixtures/ts");
mkdirSync(base, { recursive: true });
const dir = mkdtempSync(path.join(base, ".tmp-lsp-drift-"));
writeFileSync(
  path.join(dir, "tsconfig.json"),
  JSON.stringify({ compilerOptions: { strict: true, module: "Node16", moduleResolution: "Node16", noEmit: true } }),
);
let client: LspClient;
before(async () => {
  client = new LspClient();
  await client.initialize();
});
after(async () => {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

const design = (separator: string) => `service azure-table

table Visits {
  Site: string(20)
  Page: string(100)
  Day:  int(0..99999)
  partitionKey = Site + "${separator}" + pad(Day, 5)
  rowKey       = Page
  query BySite 10/s where Site = ? and Day = ?
}
`;

/** The code, with «» around the key the drift finding must point at. */
const MARKED = marked(`import { TableClient } from "@azure/data-tables";
const visits = TableClient.fromConnectionString(process.env.CONN ?? "", "Visits");
export async function visit(site: string, day: number, page: string) {
  await visits.upsertEntity({ partitionKey: «\`\${site}__\${String(day).padStart(5, "0")}\`», rowKey: page });
}
`);
const CODE = MARKED.text;

const drift = (p: PublishDiagnosticsParams) => p.diagnostics.filter((d) => d.code === "ts/design-drift-key");

test("editing the design updates the drift diagnostic of the open code, and back", async () => {
  const tdl = pathToFileURL(path.join(dir, "visits.tdl")).href;
  const ts = pathToFileURL(path.join(dir, "visit.ts")).href;
  await client.open(tdl, design("__"));
  await client.diagnostics(tdl);
  await client.open(ts, CODE, "typescript");
  const first = await client.within("code diagnostics", 30000, client.diagnostics(ts));
  assert.deepEqual(drift(first), [], "the code builds the key as designed");

  // The design's separator changes: the code (unchanged) now drifts.
  await client.change(tdl, design("|"));
  const drifted = await client.within(
    "drift after the design's edit",
    30000,
    client.diagnostics(ts, (p) => drift(p).length > 0),
  );
  const [d] = drift(drifted);
  assert.match(String(d.message), /it has "__" between its parts where the design has "\|"/);
  const doc = TextDocument.create(ts, "typescript", 1, CODE);
  assert.deepEqual({ start: doc.offsetAt(d.range.start), end: doc.offsetAt(d.range.end) }, MARKED.ranges[0]);

  // Its fix: generate the missing key builders (the codegen feature's command), with the design and the table.
  const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: ts },
    range: d.range,
    context: { diagnostics: [d] },
  })) as CodeAction[];
  // Then, last, the fix that silences the finding instead (ignore-fix.test.ts applies it to code).
  assert.deepEqual(
    actions.map((a) => [a.title, a.command?.command, a.command?.arguments]),
    [
      ["Generate the key builders of table Visits (Visits.keys.ts)", "tableDesign.generateKeyBuilders", [tdl, "Visits"]],
      ["Ignore ts/design-drift-key on this line (// tdl-ignore-next-line ts/design-drift-key)", undefined, undefined],
    ],
  );
  assert.equal(actions[0].edit, undefined);

  // Back as it was: the drift goes away.
  await client.change(tdl, design("__"));
  const fixed = await client.within(
    "no drift after the design's edit back",
    30000,
    client.diagnostics(ts, (p) => drift(p).length === 0),
  );
  assert.deepEqual(drift(fixed), []);
});
