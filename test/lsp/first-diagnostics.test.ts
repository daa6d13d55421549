/**
 * Issue #32, the editor's speed on opening a large design: the first
 * diagnostics are those of its first tables (FIRST_TABLES), published at
 * once and without a version; the complete set follows with the version.
 * The first set holds nothing only the whole file can tell (an account's
 * load, duplicate names), and a small design still gets one publication.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { RULES } from "@core";
import { FIRST_TABLES } from "@server/lsp/scheduler";
import { LspClient } from "../helpers/lsp-client";

let client: LspClient;
before(async () => {
  client = new LspClient();
  await client.initialize();
});
after(async () => client.close());

const LINES_PER_TABLE = 7;

/** `n` tables of seven lines each; the ones in `broken` key their rows by a property they lack. */
function design(n: number, broken: number[]): string {
  const tables = Array.from({ length: n }, (_, i) =>
    [
      `table T${i} {`,
      "  A: int(0..99)",
      "  B: string(20)",
      "  partitionKey = pad(A, 2)",
      `  rowKey = ${broken.includes(i) ? "Missing" : "B"}`,
      "  query Q 5/s where A = ?",
      "}",
    ].join("\n"),
  );
  return `service azure-table\n${tables.join("\n")}\n`;
}

/** The table a 0-based line is in. */
const tableOf = (line: number) => Math.floor((line - 1) / LINES_PER_TABLE);

test("a large design's first tables' diagnostics come first, without a version; the complete set follows with it", async () => {
  const uri = "file:///work/large.tdl";
  const late = FIRST_TABLES + 10;
  await client.open(uri, design(FIRST_TABLES + 20, [1, late]));
  const first = await client.diagnostics(uri);
  assert.equal(first.version, undefined);
  const firstTables = new Set(first.diagnostics.map((d) => tableOf(d.range.start.line)));
  assert.ok(
    [...firstTables].every((t) => t < FIRST_TABLES),
    `tables ${[...firstTables].join(", ")}`,
  );
  const fileCodes = new Set(RULES.filter((r) => r.checkFile).map((r) => r.code));
  assert.deepEqual(
    first.diagnostics.filter((d) => fileCodes.has(String(d.code))),
    [],
  );
  assert.deepEqual(
    first.diagnostics.filter((d) => d.code === "unknown-property").map((d) => [d.range.start.line, d.range.start.character]),
    [[1 + LINES_PER_TABLE + 4, 11]],
  );

  const complete = await client.diagnostics(uri, (p) => p.version === 1);
  assert.deepEqual(
    complete.diagnostics.filter((d) => d.code === "unknown-property").map((d) => tableOf(d.range.start.line)),
    [1, late],
  );
  assert.equal(new Set(complete.diagnostics.map((d) => tableOf(d.range.start.line))).size, FIRST_TABLES + 20);
});

test("a design of a few tables gets one publication, with its version", async () => {
  const uri = "file:///work/small.tdl";
  await client.open(uri, design(3, [2]));
  const first = await client.diagnostics(uri);
  assert.equal(first.version, 1);
  assert.deepEqual(
    first.diagnostics.filter((d) => d.code === "unknown-property").map((d) => tableOf(d.range.start.line)),
    [2],
  );
});
