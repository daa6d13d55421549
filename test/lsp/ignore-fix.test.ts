/**
 * Issue 20, item 5: every finding has a quick fix that silences it with
 * `// tdl-ignore-next-line CODE` (core/analysis/settings.ts reads that
 * comment in designs and code alike), over JSON-RPC with the real server:
 * the text after the fix, then the server's own verdict on that text.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { CodeAction, Diagnostic } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";

const MS = 10_000;
/** The first TypeScript program takes seconds on a shared machine. */
const FIRST_ANALYSIS_MS = 60_000;
const RULES_URI = pathToFileURL(path.resolve("docs/rules.md")).href;

let client: LspClient;
before(async () => {
  client = new LspClient();
  await client.initialize();
});
after(async () => client.close());

let opened = 0;

/** Opens `text`, finds the diagnostic of `code`, asks for its code actions: the ignore action and the other titles. */
async function ignoreOf(text: string, code: string, languageId = "tdl", uri = `file:///work/ignore-${++opened}.tdl`) {
  await client.open(uri, text, languageId);
  const { diagnostics } = await client.within(`diagnostics of ${uri}`, FIRST_ANALYSIS_MS, client.diagnosticsOf(uri, 1, FIRST_ANALYSIS_MS));
  const target = diagnostics.find((d) => d.code === code);
  assert.ok(target, `a ${code} finding among ${diagnostics.map((d) => d.code).join(", ")}`);
  const actions = (await client.request(
    "textDocument/codeAction",
    { textDocument: { uri }, range: target.range, context: { diagnostics: [target] } },
    MS,
  )) as CodeAction[];
  const ignore = actions.find((a) => a.title.startsWith("Ignore "));
  return { uri, target, actions, ignore };
}

/** The text after the action's edit, and the codes the server reports on it. */
async function afterFix(uri: string, text: string, action: CodeAction, languageId = "tdl") {
  const fixed = TextDocument.applyEdits(TextDocument.create(uri, languageId, 1, text), action.edit!.changes![uri]);
  const v = await client.change(uri, fixed);
  const { diagnostics } = await client.within(
    "diagnostics after the fix",
    FIRST_ANALYSIS_MS,
    client.diagnosticsOf(uri, v, FIRST_ANALYSIS_MS),
  );
  return { fixed, codes: diagnostics.map((d: Diagnostic) => d.code) };
}

const SINGLE = 'table Orders {\n  Customer: string(10)\n  partitionKey = "ALL"\n  rowKey = Customer\n  rows 1M\n  insert Add 100/s\n}\n';

test("a design's finding: the comment goes above its line, with its indentation, and the finding is gone", async () => {
  const { uri, target, actions, ignore } = await ignoreOf(SINGLE, "partition/single-value");
  assert.equal(target.codeDescription?.href, `${RULES_URI}#partition-single-value`);
  assert.ok(ignore, actions.map((a) => a.title).join(", "));
  assert.equal(ignore.title, "Ignore partition/single-value on this line (// tdl-ignore-next-line partition/single-value)");
  assert.equal(ignore.kind, "quickfix");
  assert.equal(ignore.isPreferred, false);
  assert.deepEqual(ignore.diagnostics, [target]);
  // Last: the rule's own fixes come first.
  assert.equal(actions.at(-1), ignore);
  const { fixed, codes } = await afterFix(uri, SINGLE, ignore);
  assert.equal(
    fixed,
    'table Orders {\n  Customer: string(10)\n  // tdl-ignore-next-line partition/single-value\n  partitionKey = "ALL"\n  rowKey = Customer\n  rows 1M\n  insert Add 100/s\n}\n',
  );
  assert.equal(codes.includes("partition/single-value"), false, codes.join(", "));
});

test("a comment that silences other codes on that line gets this one added; CRLF designs keep their line ends", async () => {
  const listed = SINGLE.replace('  partitionKey = "ALL"', '  // tdl-ignore-next-line key/too-long\n  partitionKey = "ALL"');
  const joined = await ignoreOf(listed, "partition/single-value");
  assert.ok(joined.ignore);
  const { fixed, codes } = await afterFix(joined.uri, listed, joined.ignore);
  assert.ok(fixed.includes('  // tdl-ignore-next-line key/too-long, partition/single-value\n  partitionKey = "ALL"\n'), fixed);
  assert.equal(codes.includes("partition/single-value"), false);

  const crlf = SINGLE.replace(/\n/g, "\r\n");
  const windows = await ignoreOf(crlf, "partition/single-value");
  assert.ok(windows.ignore);
  const after = await afterFix(windows.uri, crlf, windows.ignore);
  assert.ok(
    after.fixed.includes('\r\n  // tdl-ignore-next-line partition/single-value\r\n  partitionKey = "ALL"\r\n'),
    JSON.stringify(after.fixed),
  );
  assert.equal(after.codes.includes("partition/single-value"), false);
});

test("no ignore fix for a syntax error or a query's class (a hint): one is not a finding to live with, the other not a problem", async () => {
  const broken = await ignoreOf('table Orders {\n  A: int\n  partitionKey = A +\n  rowKey = "x"\n}\n', "syntax");
  assert.equal(broken.ignore, undefined, broken.actions.map((a) => a.title).join(", "));
  const hinted = await ignoreOf(
    "table Orders {\n  A: int(0..99)\n  B: int(0..99)\n  partitionKey = pad(A, 2)\n  rowKey = pad(B, 2)\n  query ByA 5/s where A = ?\n}\n",
    "query/class",
  );
  assert.equal(hinted.ignore, undefined);
});

test("a finding in TypeScript: the comment goes above the line in the code, and the finding is gone", async () => {
  const file = path.resolve("examples/typescript/registrations.ts");
  const text = readFileSync(file, "utf8");
  const { uri, target, ignore } = await ignoreOf(text, "ts/unpadded-number", "typescript", pathToFileURL(file).href);
  assert.equal(target.codeDescription?.href, `${RULES_URI}#ts-unpadded-number`);
  assert.ok(ignore);
  const { fixed, codes } = await afterFix(uri, text, ignore, "typescript");
  assert.ok(
    fixed.includes("    // tdl-ignore-next-line ts/unpadded-number\n    rowKey: `BIB:${r.bib}__${r.name}__${r.gender}__${age}`,\n"),
    fixed,
  );
  assert.equal(codes.includes("ts/unpadded-number"), false, codes.join(", "));
  assert.ok(codes.includes("ts/table-scan"), "the other findings stay");
});
