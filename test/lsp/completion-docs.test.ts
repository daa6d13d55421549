/**
 * Issue 20, item 5: completion a newcomer can write a design with, over
 * JSON-RPC with the real server — a table skeleton, a property with a choice
 * of types, each key function with the table's properties it takes, and a
 * line of documentation on every keyword, type, modifier, function and
 * comparison. What a snippet inserts is then given to the server as the
 * user would leave it: it parses, and the skeleton is a clean design.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { LspClient } from "../helpers/lsp-client";
import { expectCompletion, insertSnippet, overLsp, type IdeTarget } from "../helpers/ide";

const MS = 10_000;
let client: LspClient;
let ide: IdeTarget;
before(async () => {
  client = new LspClient();
  await client.initialize();
  ide = overLsp(client);
});
after(async () => client.close());

let opened = 0;
/** The codes and messages the server reports on `text` (hints, which are not problems, left out). */
async function problemsOf(text: string): Promise<string[]> {
  const uri = `file:///work/completion-${++opened}.tdl`;
  await client.open(uri, text);
  const { diagnostics } = await client.within("diagnostics", MS, client.diagnosticsOf(uri, 1, MS));
  return diagnostics.filter((d) => d.severity !== 4).map((d) => `${d.code}: ${d.message}`);
}

/** The choices of a snippet's `${n|a,b|}` tab stop, unescaped. */
const choicesOf = (snippet: string): string[] =>
  /\$\{\d+\|((?:\\.|[^|\\])*)\|\}/
    .exec(snippet)![1]
    .split(/(?<!\\),/)
    .map((c) => c.replace(/\\([,|}$\\])/g, "$1"));

test("an empty design offers a table skeleton that, as inserted, is a design with no problem", async () => {
  const [, table] = await expectCompletion(ide, "‸", {
    labels: ["service", "table"],
    documented: { table: "one table: its properties", service: "the limits every table of the file is checked against" },
  });
  assert.equal(
    table.snippet,
    [
      "table ${1:Orders} {",
      '  ${2:CustomerId}: string(${3:36}) charset "a-z0-9-" distinct ${4:10K}',
      "  ${5:OrderId}: int(0..999999)",
      "  partitionKey = ${2}",
      "  rowKey       = pad(${5}, 6)",
      "  rows ${6:1M}",
      "  insert ${7:PlaceOrder} ${8:100}/s",
      "  query ${9:ByCustomer} ${10:50}/s where ${2} = ?",
      "}",
    ].join("\n"),
  );
  assert.deepEqual(await problemsOf(insertSnippet(table.snippet!)), []);
  // Renamed at the first tab stops, the keys and the query follow the names typed.
  const renamed = insertSnippet(table.snippet!.replace("${2:CustomerId}", "${2:TenantId}").replace("${5:OrderId}", "${5:Seq}"));
  assert.match(renamed, /partitionKey = TenantId\n {2}rowKey {7}= pad\(Seq, 6\)\n[\s\S]*where TenantId = \?/);
  assert.deepEqual(await problemsOf(renamed), []);
});

test("a member's start: a property with a choice of types, each of which parses, and every keyword documented", async () => {
  const offered = await expectCompletion(ide, "table Abc {\n  A: int\n  ‸\n}", {
    first: ["property", "partitionKey", "rowKey"],
    documented: {
      property: "`Name: type modifiers` — a property of the entities",
      retention: "`retention 90d` — how long entities stay",
      transaction: "they must share a partition",
    },
    snippets: { retention: "retention ${1:90d}" },
    everyDocumented: true,
  });
  const property = offered[0].snippet!;
  assert.match(property, /^\$\{1:Name\}: \$\{2\|/);
  const types = choicesOf(property);
  assert.deepEqual(types, ["string(60)", "int(0..100)", "int64", "double", "bool", "datetime", "guid", "binary(1KiB)", "enum(A, B)"]);
  const declared = types.map((t, i) => `  P${i}: ${t}`).join("\n");
  assert.deepEqual(await problemsOf(`table Abc {\n${declared}\n  partitionKey = P0\n  rowKey = P6\n}\n`), []);
});

test("types, modifiers and comparisons each say what they mean", async () => {
  await expectCompletion(ide, "table Abc {\n  A: ‸\n}", {
    labels: ["string", "int", "int64", "double", "bool", "datetime", "guid", "binary", "enum"],
    snippets: { int: "int(${1:0}..${2:100})", enum: "enum(${1:A}, ${2:B})" },
    documented: { int64: "a 64-bit integer", datetime: "a UTC date and time" },
    everyDocumented: true,
  });
  await expectCompletion(ide, "table Abc {\n  A: int(0..9) ‸\n}", {
    labels: ["distinct", "unique", "increasing", "decreasing", "hot", "charset"],
    snippets: { hot: "hot ${1:30}%", charset: 'charset "${1:a-z0-9}"' },
    documented: { increasing: "a key led by it is append-only" },
    everyDocumented: true,
  });
  await expectCompletion(ide, "table Abc {\n  A: int\n  query Q 5/s where A ‸\n}", {
    labels: ["=", "<", "<=", ">", ">=", "between", "prefix"],
    documented: { "=": "pins a key part", prefix: "values starting with a text" },
    everyDocumented: true,
  });
});

const TYPED = `table Visits {
  Site:  string(20)
  Kind:  enum(Web, App)
  Count: int(0..99999)
  Big:   int64(0..9999999999)
  At:    datetime
  Id:    guid
  partitionKey = ‸
  rowKey = Id
}
`;

test("each key function: its arguments are the table's properties of a type it takes, documented, and they check as inserted", async () => {
  const offered = await expectCompletion(ide, TYPED, {
    first: ["Site", "Kind", "Count", "Big", "At", "Id"],
    snippets: {
      // Wide enough for the widest choice (Big: 10 digits): a narrower pad sorts its values out of order.
      pad: "pad(${1|Count,Big|}, ${2:10})",
      hash: "hash(${1|Site,Kind,Count,Big,At,Id|}, ${2:4})",
      bucket: "bucket(${1|Site,Kind,Count,Big,At,Id|}, ${2:16})",
      reverse: "reverse(${1|Count,Big,At|})",
      date: 'date(${1:At}, "${2:yyyyMMdd}")',
      lower: "lower(${1|Site,Kind,Id|})",
      upper: "upper(${1|Site,Kind,Id|})",
    },
    documented: {
      pad: "left-padded with 0 to `width`",
      hash: "MD5",
      bucket: "one of `n` buckets",
      reverse: "newest first",
      date: "fixed-width tokens",
      lower: "lowercase",
      upper: "uppercase",
    },
  });
  // Each function as inserted, and with each of its choices: no problem but what the design's load would bring.
  for (const fn of offered.filter((o) => o.snippet?.includes("("))) {
    const choices = fn.snippet!.includes("|") ? choicesOf(fn.snippet!) : [insertSnippet(fn.snippet!).replace(/^\w+\(([^,)]*).*$/, "$1")];
    for (const choice of choices) {
      const key = insertSnippet(fn.snippet!.replace(/\$\{1(\|[^|]*\||:[^}]*)\}/, choice));
      // A day bucket of a datetime not declared increasing asks whether it is (partition/date-not-increasing):
      // a question about the data the design describes, not a problem of the inserted function.
      const problems = (await problemsOf(TYPED.replace("‸", `${key} + "_" + Id`))).filter(
        (p) => !p.startsWith("partition/date-not-increasing:"),
      );
      assert.deepEqual(problems, [], `partitionKey = ${key}`);
    }
  }
});
