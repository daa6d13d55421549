import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  CodeActionRequest,
  DocumentFormattingRequest,
  DocumentSymbolRequest,
  DocumentSymbol,
  TextEdit,
  CodeAction,
} from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";
import { expectCompletion, expectDefinition, expectHover, expectReferences, expectRename, overLsp } from "../helpers/ide";

let client: LspClient;
before(async () => {
  client = new LspClient();
  await client.initialize();
});
after(async () => client.close());

const MARATHON = readFileSync("examples/marathon.tdl", "utf8");

test("diagnostics are published on open and follow edits", async () => {
  const uri = "file:///work/orders.tdl";
  await client.open(uri, "table Orders {\n  A: int\n  partitionKey = pad(A, 10)\n  rowKey = Missing\n}\n");
  const first = await client.diagnostics(uri);
  assert.deepEqual(
    first.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.character, d.severity]),
    [["unknown-property", 3, 11, 18, 1]],
  );
  const v = await client.change(uri, 'table Orders {\n  A: int\n  partitionKey = pad(A, 10) +\n  rowKey = "x"\n}\n');
  const second = await client.diagnostics(uri, (p) => p.version === v);
  assert.deepEqual(
    second.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]),
    [["syntax", 3, 2]],
  );
});

test("a syntax error in one table leaves the next table's diagnostics", async () => {
  const uri = "file:///work/two.tdl";
  await client.open(uri, "table Broken {\n  A: int\n  partitionKey = A +\n}\ntable Keyless {\n  B: int\n}\n");
  const d = await client.diagnostics(uri);
  assert.deepEqual(
    d.diagnostics.map((x) => [x.code, x.range.start.line]),
    [
      ["syntax", 3],
      ["missing-key", 4],
    ],
  );
});

test("a design's quick fixes come back as code actions, checked: the title says what the fix leaves", async () => {
  const uri = "file:///work/fix.tdl";
  const text = 'table Orders {\n  Customer: string(10)\n  partitionKey = Custmer\n  rowKey = "x"\n}\n';
  await client.open(uri, text);
  const { diagnostics } = await client.diagnostics(uri);
  const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: diagnostics[0].range,
    context: { diagnostics },
  })) as CodeAction[];
  // The rule's fix, checked and preferred, saying what it leaves; then the one that silences the finding instead (ignore-fix.test.ts).
  assert.deepEqual(
    actions.map((a) => [a.title, a.kind, a.isPreferred]),
    [
      ["Change to 'Customer'; leaves nothing to fix", "quickfix", true],
      ["Ignore unknown-property on this line (// tdl-ignore-next-line unknown-property)", "quickfix", false],
    ],
  );
  const doc = TextDocument.create(uri, "tdl", 1, text);
  const fixed = TextDocument.applyEdits(doc, actions[0].edit!.changes![uri]);
  const v = await client.change(uri, fixed);
  const after = await client.diagnostics(uri, (p) => p.version === v);
  assert.deepEqual(after.diagnostics, []);
});

test("completion, hover, symbols, definition, references", async () => {
  const ide = overLsp(client);
  await expectCompletion(ide, MARATHON.replace("partitionKey = ", "partitionKey = ‸"), {
    includes: ["Event", "Distance", "Bib", "pad", "hash"],
    // The first argument: a choice of the table's integers (what pad takes), the width from the first one's range.
    snippets: { pad: "pad(${1|Bib,Age|}, ${2:5})" },
  });
  await expectHover(ide, MARATHON.replace("Distance:", "D‸istance:"), {
    includes: [/\*\*Distance\*\*: `enum\(Full, Half, TenK\)`[\s\S]*distinct values: 3/],
  });
  // A term of the figures is explained with a link to its heading of the language reference beside the server.
  const scan = await expectHover(
    ide,
    "table T {\n  A: string(8)\n  B: int\n  partitionKey = A\n  rowKey = pad(B, 10)\n  query B‸yB 5/s where B = ?\n}\n",
    {
      includes: [/- \*\*table-scan\*\* — .*\(\[docs\]\(file:[^)]+\/docs\/language\.md#table-scan\)\)/],
    },
  );
  const doc = fileURLToPath(/\((file:[^)#]+)#table-scan\)/.exec(scan)![1]);
  assert.match(readFileSync(doc, "utf8"), /^### table-scan$/m);

  const uri = "file:///work/marathon.tdl";
  await client.open(uri, MARATHON);
  await client.diagnostics(uri);
  const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
  assert.equal(symbols[0].name, "Registrations");
  assert.deepEqual(
    symbols[0].children!.filter((c) => c.detail?.startsWith("query")).map((c) => c.name),
    ["ByBib", "ByAge"],
  );

  await expectDefinition(ide, MARATHON.replace("Age:", "«Age»:").replace("pad(Age", "pad(A‸ge"));
  // The declaration, the row key, the index and the query.
  await expectReferences(
    ide,
    MARATHON.replace("Age:", "«‸Age»:").replaceAll("pad(Age, 3)", "pad(«Age», 3)").replace("and Age between", "and «Age» between"),
    true,
  );
});

test("rename and formatting return edits that produce the expected text", async () => {
  const uri = "file:///work/rename.tdl";
  const text = 'table Orders {\n  Customer:string(10)\n  partitionKey=Customer\n  rowKey = "x"\n  query Q filter "Customer eq \'a\'"\n}\n';
  const ide = overLsp(client);
  const atDeclaration = text.replace("Customer", "‸Customer");
  await expectRename(ide, atDeclaration, "Client", { after: text.replaceAll("Customer", "Client") });
  await client.open(uri, text);
  await client.diagnostics(uri);
  const doc = TextDocument.create(uri, "tdl", 1, text);
  const fmt = (await client.connection.sendRequest(DocumentFormattingRequest.type, {
    textDocument: { uri },
    options: { tabSize: 2, insertSpaces: true },
  })) as TextEdit[];
  assert.equal(
    TextDocument.applyEdits(doc, fmt),
    'table Orders {\n  Customer: string(10)\n  partitionKey = Customer\n  rowKey       = "x"\n  query Q filter "Customer eq \'a\'"\n}\n',
  );
  await expectRename(ide, atDeclaration, "1bad", { refused: /not a property name/ });
});
