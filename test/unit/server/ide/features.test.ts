/**
 * The IDE features of a design (server/ide), written as the user sees the
 * design: `‸` where the caret is, `«…»` what the feature must point at, one
 * helper per feature (test/helpers/ide.ts). test/lsp/server.test.ts asks
 * the same helpers of the real server over JSON-RPC.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeTdl } from "@core";
import { outline } from "@server/ide";
import { expectCompletion, expectDefinition, expectHover, expectReferences, expectRename, pure } from "../../../helpers/ide";

const DESIGN = (marks: {
  decl?: string;
  pk?: string;
  where?: string;
  select?: string;
  filter?: string;
  sharing?: string;
}) => `table Orders {
  ${marks.decl ?? "Customer"}: string(20) charset "a-z0-9"
  OrderId: int(0..99999) distinct 100K
  At: datetime increasing
  partitionKey = ${marks.pk ?? "Customer"}
  rowKey = pad(OrderId, 5)
  query ByCust where ${marks.where ?? "Customer"} = ? select ${marks.select ?? "Customer"}, OrderId
  query Raw filter "${marks.filter ?? "Customer"} eq 'it''s' and OrderId gt 5"
  transaction T entities 2 sharing ${marks.sharing ?? "Customer"}
}`;
const PLAIN = DESIGN({});

test("rename updates the declaration, keys, conditions, select, filters and sharing", async () => {
  const source = DESIGN({ decl: "Cust‸omer" });
  await expectRename(pure, source, "Client", { after: PLAIN.replaceAll("Customer", "Client") });
  await expectRename(pure, source, "OrderId", { refused: /already has a property 'OrderId'/ });
  await expectRename(pure, source, "9x", { refused: /not a property name/ });
});

test("definition and references of a property", async () => {
  await expectDefinition(pure, DESIGN({ decl: "«Customer»", pk: "C‸ustomer" }));
  const everywhere = { where: "«Customer»", select: "«Customer»", filter: "«Customer»", sharing: "«Customer»" };
  await expectReferences(pure, DESIGN({ ...everywhere, decl: "«Customer»", pk: "«C‸ustomer»" }), true);
  await expectReferences(pure, DESIGN({ ...everywhere, pk: "«C‸ustomer»" }), false);
});

test("the outline lists tables and their members", () => {
  const a = analyzeTdl(readFileSync("examples/ledger.tdl", "utf8"));
  const symbols = outline(a);
  assert.deepEqual(
    symbols.map((s) => s.name),
    ["LedgerByAccount", "Ledger"],
  );
  assert.deepEqual(
    symbols[1].children.map((c) => `${c.kind}:${c.name}`),
    [
      "property:TransferId",
      "property:AccountNumber",
      "property:Entry",
      "property:Amount",
      "property:BookedAt",
      "key:partitionKey",
      "key:rowKey",
      "estimate:rows",
      "estimate:entitySize",
      "transaction:Transfer",
      "query:ByTransfer",
    ],
  );
});

const MARATHON = readFileSync("examples/marathon.tdl", "utf8");

test("hover on a property shows its type and distinct values", async () => {
  await expectHover(pure, MARATHON.replace("= Event +", "= E‸vent +"), {
    includes: ["**Event**: `string(60) distinct 200`", "distinct values: 200"],
  });
  await expectHover(pure, MARATHON.replace("pad(Bib", "pad(B‸ib"), { includes: ["distinct values: 100,000"] });
});

test("hover on a key shows an example value and its maximum length", async () => {
  const rowKey = (text: string) => text.replace("rowKey       =", "ro‸wKey       =");
  await expectHover(pure, rowKey(MARATHON), {
    includes: [
      "example: `BIB:00042__faq9ugfa__M__042`",
      "at most 59 characters (118 bytes of the 1,024 Azure Table Storage allows)",
      // Name has no charset and "__" follows it: the order depends on its characters, it is not claimed.
      'order depends on the characters of `Name`: no `charset` is declared, and composite order holds only if none of its characters sorts below "_"',
    ],
    excludes: ["order-preserving: key order follows"],
  });
  await expectHover(pure, rowKey(MARATHON.replace("Name:     string(40)", 'Name:     string(40) charset "a-z"')), {
    includes: ["- order-preserving: key order follows the values' order"],
  });
  await expectHover(pure, MARATHON.replace("partitionKey =", "pa‸rtitionKey ="), { includes: ["example: `48qkv9nt__Full`"] });
  await expectHover(
    pure,
    'table Orders {\n  A: int(0..999)\n  S: string(8) charset "a-z0-9"\n  p‸artitionKey = S + ":" + A\n  rowKey = hash(A, 4)\n}\n',
    {
      includes: ["not order-preserving: `S` (the separator after it sorts above its characters); `A` (an unpadded number sorts as text"],
    },
  );
  await expectHover(pure, MARATHON.replace("pad(Bib", "p‸ad(Bib"), { includes: ["left-padded with 0"] });
});

test("completion offers what fits where the caret is", async () => {
  await expectCompletion(pure, "‸", { labels: ["service", "table"] });
  await expectCompletion(pure, "service ‸", { labels: ["azure-table", "cosmos-table", "tablestore"] });
  await expectCompletion(pure, "table Abc {\n  A: int\n  ‸\n}", {
    includes: ["partitionKey", "query", "entitySize", "retention"],
    snippets: { retention: "retention ${1:90d}" },
  });
  await expectCompletion(pure, "table Abc {\n  A: ‸\n}", {
    labels: ["string", "int", "int64", "double", "bool", "datetime", "guid", "binary", "enum"],
  });
  await expectCompletion(pure, "table Abc {\n  A: int(0..9) ‸\n}", {
    labels: ["distinct", "unique", "increasing", "decreasing", "hot", "charset"],
  });
  await expectCompletion(pure, "table Abc {\n  A: int\n  Bee: string\n  partitionKey = A + ‸\n}", {
    first: ["A", "Bee"],
    includes: ["pad", "hash", "bucket"],
  });
  await expectCompletion(pure, "table Abc {\n  A: int\n  partitionKey = pad(‸\n}", { first: ["A"] });
  await expectCompletion(pure, "table Abc {\n  A: int\n  query Q 5/s where ‸\n}", { labels: ["A"] });
  await expectCompletion(pure, "table Abc {\n  A: int\n  query Q 5/s where A ‸\n}", {
    labels: ["=", "<", "<=", ">", ">=", "between", "prefix"],
  });
  await expectCompletion(pure, "table Abc {\n  A: int\n  query Q ‸\n}", { labels: ["where", "filter"] });
  await expectCompletion(pure, "table Abc {\n  A: int\n  query Q where A = ? ‸\n}", { labels: ["and", "select", "returns"] });
  await expectCompletion(pure, "table Abc {\n  A: int\n  transaction T entities 2 sharing ‸\n}", { labels: ["A"] });
  // In a filter, what fits next (protocol/filter-words.ts): a property, then an operator, a literal of its type, and/or.
  await expectCompletion(pure, 'table Abc {\n  A: int\n  query Q filter "Part‸"\n}', {
    labels: ["PartitionKey", "RowKey", "Timestamp", "A", "not", "("],
  });
  await expectCompletion(pure, 'table Abc {\n  A: int\n  query Q filter "A ‸"\n}', {
    labels: ["eq", "ne", "gt", "ge", "lt", "le"],
    documented: { ge: "greater than or equal to" },
  });
  await expectCompletion(pure, 'table Abc {\n  A: int\n  query Q filter "A gt ‸"\n}', {
    first: ["42"],
    snippets: { "42": "${1:42}", "datetime'…'": "datetime'${1:2026-01-01T00:00:00Z}'" },
  });
  await expectCompletion(pure, 'table Abc {\n  A: int\n  query Q filter "A gt 4 ‸"\n}', { labels: ["and", "or"] });
});

/** A time-bucketed table; `‸` on its partition key unless `caret` is false (the query test puts it elsewhere). */
const READINGS = (estimates: string, pk = 'date(At, "yyyyMMddHH")', caret = true) => `table Readings {
  DeviceId: string(12..12) charset "0-9a-f" distinct 5K
  At:       datetime increasing
  ${caret ? "pa‸rtitionKey" : "partitionKey"} = ${pk}
  rowKey       = DeviceId + "_" + reverse(At)
${estimates}
}
`;

test("hover on a time-bucket partition key shows how its partitions are counted, and its temporal load", async () => {
  await expectHover(pure, READINGS("  rows 500M\n  insert Reading 6K/s"), {
    lines: [
      "- partitions: ≈ 24 hourly buckets of `At`: 24 = ≈ 23.1 hours kept (rows 500,000,000 ÷ 6,000 inserts/s at peak) ÷ 1 hour a bucket, rounded up",
      "- load is temporal: every write of the current moment lands in the current partition — ≈ 6,000 entities/s at peak; the target is 2,000 entities/s",
    ],
  });
  await expectHover(pure, READINGS("  rows 500M\n  retention 90d\n  insert Reading 6K/s"), {
    lines: ["- partitions: ≈ 2,160 hourly buckets of `At`: 2,160 = the retention of 90 days ÷ 1 hour a bucket"],
  });
  await expectHover(pure, READINGS("  rows 5B"), {
    includes: [
      "- partitions: unknown — the number of hourly buckets of `At` is the time the table keeps divided by one bucket's width; declare `retention` (such as `retention 90d`), or `rows` and an insert rate",
    ],
    excludes: ["5,000,000,000"],
  });
  // Other parts multiply the buckets and share the moment's writes.
  await expectHover(pure, READINGS("  rows 1B\n  retention 30d\n  insert Reading 6K/s", 'DeviceId + "_" + date(At, "yyyyMMdd")'), {
    lines: [
      "- partitions: ≈ 150,000 = 30 daily buckets of `At` × ≈ 5,000 values of the other parts; 30 = the retention of 30 days ÷ 1 day a bucket",
    ],
    includes: [
      "- load is temporal: every write of the current moment lands in the current partition of each value of the other parts (the hottest takes 0.02%) — ≈ 1.2 entities/s at peak",
    ],
  });
  // An hour of the day cycles: 24, whatever the time kept.
  await expectHover(pure, READINGS("  rows 1B", 'date(At, "HH") + "_" + DeviceId'), {
    includes: [
      '- partitions: ≈ 120,000 = 24 hourly buckets of `At` × ≈ 5,000 values of the other parts; "HH" cycles through 24 values, however long the table keeps entities',
    ],
  });
  // A key that does not move with time: its count, and no temporal line.
  await expectHover(pure, READINGS("  rows 1B\n  insert Reading 6K/s", "DeviceId"), {
    lines: ["- partitions: ≈ 5,000"],
    excludes: ["temporal"],
  });
});

test("the key hover never calls a key order-preserving when a string without charset is followed by a separator", async () => {
  const design = (name: string, sep = "_") => `table People {
  Name: ${name}
  Id:   int(0..999)
  partitionKey = "p"
  ro‸wKey       = Name + "${sep}" + pad(Id, 3)
}
`;
  await expectHover(pure, design("string(40)"), {
    includes: [
      '- order depends on the characters of `Name`: no `charset` is declared, and composite order holds only if none of its characters sorts below "_" (the separator after it); declare a `charset` to know',
    ],
    excludes: ["order-preserving"],
  });
  await expectHover(pure, design('string(40) charset "a-z"'), {
    includes: ["- order-preserving: key order follows the values' order, part by part"],
  });
  await expectHover(pure, design('string(40) charset "A-Za-z"'), {
    includes: ["- not order-preserving: `Name` (the separator after it sorts above its characters)"],
  });
  // Every value has the same length: none is a prefix of another, so the separator cannot break the order.
  await expectHover(pure, design("string(8..8)"), { includes: ["- order-preserving"] });
  // Lower-casing keeps the unknown alphabet unknown.
  await expectHover(pure, design("string(40)").replace("= Name +", "= lower(Name) +"), {
    includes: ["- order depends on the characters of `lower(Name)`"],
  });
});

test("the property hover recommends pad() only where a key uses the number as it is", async () => {
  const design = (rowKey: string) => `table Orders {
  Customer: string(20) charset "a-z"
  O‸rderId:  int(0..99999)
  partitionKey = Customer
  rowKey       = ${rowKey}
}
`;
  await expectHover(pure, design("pad(OrderId, 5)"), {
    includes: ["- range 0..99999: every key pads it, so key order is numeric order"],
    excludes: ["wrap"],
  });
  await expectHover(pure, design('"o" + OrderId'), {
    includes: ['- range 0..99999: numbers sort lexically in keys ("111" < "2"); wrap it in `pad(OrderId, 5)` where a key uses it as it is'],
  });
  await expectHover(pure, design("Customer"), { includes: ["in a key, wrap it in `pad(OrderId, 5)`"] });
  // The marathon pads Bib in both its row key and its index.
  await expectHover(pure, MARATHON.replace("Bib:", "B‸ib:"), { includes: ["every key pads it"] });
});

test("a query hover says which estimate its unknown figures need when time buckets are uncounted", async () => {
  await expectHover(pure, READINGS("  rows 5B\n  query S‸ince where At >= ?", undefined, false), {
    includes: [
      "- partitions touched: unknown",
      "- the number of hourly buckets of `At` is unknown: declare `retention` (such as `retention 90d`), or `rows` and an insert rate",
    ],
  });
  await expectHover(pure, READINGS("  rows 5B\n  retention 90d\n  query S‸ince where At >= ?", undefined, false), {
    includes: ["- partitions touched: ≈ 216"],
    excludes: ["is unknown"],
  });
});
