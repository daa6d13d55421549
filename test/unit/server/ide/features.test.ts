import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeTdl } from "@core";
import { complete, definition, hover, outline, references, rename } from "@server/ide";
import { applyEdits, marked } from "../../../helpers/markers";

const DESIGN = `table Orders {
  Cust‸omer: string(20) charset "a-z0-9"
  OrderId: int(0..99999) distinct 100K
  At: datetime increasing
  partitionKey = Customer
  rowKey = pad(OrderId, 5)
  query ByCust where Customer = ? select Customer, OrderId
  query Raw filter "Customer eq 'it''s' and OrderId gt 5"
  transaction T entities 2 sharing Customer
}`;

test("rename updates the declaration, keys, conditions, select, filters and sharing", () => {
  const m = marked(DESIGN);
  const edits = rename(analyzeTdl(m.text), m.carets[0], "Client")!;
  const after = applyEdits(m.text, edits);
  assert.equal(after, m.text.replaceAll("Customer", "Client"));
  assert.throws(() => rename(analyzeTdl(m.text), m.carets[0], "OrderId"), /already has a property 'OrderId'/);
  assert.throws(() => rename(analyzeTdl(m.text), m.carets[0], "9x"), /not a property name/);
});

test("definition and references of a property", () => {
  const m = marked(DESIGN);
  const a = analyzeTdl(m.text);
  const use = m.text.indexOf("= Customer") + 3;
  const decl = definition(a, use)!;
  assert.equal(m.text.slice(decl.start, decl.end), "Customer");
  assert.equal(decl.start, m.text.indexOf("Customer"));
  const refs = references(a, use, true);
  assert.equal(refs.length, 6);
  assert.ok(refs.every((r) => m.text.slice(r.start, r.end) === "Customer"));
  assert.equal(references(a, use, false).length, 5);
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

test("hover on a property shows its type and distinct values", () => {
  const text = readFileSync("examples/marathon.tdl", "utf8");
  const a = analyzeTdl(text);
  const h = hover(a, text.indexOf("Event +") + 1)!;
  assert.match(h.markdown, /\*\*Event\*\*: `string\(60\) distinct 200`/);
  assert.match(h.markdown, /distinct values: 200/);
  const bib = hover(a, text.indexOf("pad(Bib") + 5)!;
  assert.match(bib.markdown, /distinct values: 100,000/);
});

test("hover on a key shows an example value and its maximum length", () => {
  const text = readFileSync("examples/marathon.tdl", "utf8");
  const a = analyzeTdl(text);
  const h = hover(a, text.indexOf("rowKey       =") + 2)!;
  assert.match(h.markdown, /example: `BIB:00042__name__M__042`/);
  assert.match(h.markdown, /at most 59 characters \(118 bytes of the 1,024 Azure Table Storage allows\)/);
  // Name has no charset and "__" follows it: the order depends on its characters, it is not claimed.
  assert.doesNotMatch(h.markdown, /order-preserving: key order follows/);
  assert.match(
    h.markdown,
    /order depends on the characters of `Name`: no `charset` is declared, and composite order holds only if none of its characters sorts below "_"/,
  );
  const declared = analyzeTdl(text.replace("Name:     string(40)", 'Name:     string(40) charset "a-z"'));
  const hd = hover(declared, declared.text.indexOf("rowKey       =") + 2)!;
  assert.match(hd.markdown, /- order-preserving: key order follows the values' order/);
  const pk = hover(a, text.indexOf("partitionKey =") + 2)!;
  assert.match(pk.markdown, /example: `event__Full`/);
  const unordered = analyzeTdl(
    'table Orders {\n  A: int(0..999)\n  S: string(8) charset "a-z0-9"\n  partitionKey = S + ":" + A\n  rowKey = hash(A, 4)\n}\n',
  );
  const up = hover(unordered, unordered.text.indexOf("partitionKey") + 1)!;
  assert.match(
    up.markdown,
    /not order-preserving: `S` \(the separator after it sorts above its characters\); `A` \(an unpadded number sorts as text/,
  );
  const fn = hover(a, text.indexOf("pad(Bib") + 1)!;
  assert.match(fn.markdown, /left-padded with 0/);
});

function labels(source: string): string[] {
  const m = marked(source);
  return complete(analyzeTdl(m.text), m.carets[0]).map((c) => c.label);
}

test("completion offers what fits where the caret is", () => {
  assert.deepEqual(labels("‸"), ["service", "table"]);
  assert.deepEqual(labels("service ‸"), ["azure-table", "cosmos-table", "tablestore"]);
  const member = labels("table Abc {\n  A: int\n  ‸\n}");
  assert.ok(member.includes("partitionKey") && member.includes("query") && member.includes("entitySize"));
  assert.ok(member.includes("retention"));
  const m = marked("table Abc {\n  A: int\n  ‸\n}");
  assert.equal(complete(analyzeTdl(m.text), m.carets[0]).find((c) => c.label === "retention")?.snippet, "retention ${1:90d}");
  assert.deepEqual(labels("table Abc {\n  A: ‸\n}"), ["string", "int", "int64", "double", "bool", "datetime", "guid", "binary", "enum"]);
  assert.deepEqual(labels("table Abc {\n  A: int(0..9) ‸\n}"), ["distinct", "unique", "increasing", "decreasing", "hot", "charset"]);
  const key = labels("table Abc {\n  A: int\n  Bee: string\n  partitionKey = A + ‸\n}");
  assert.deepEqual(key.slice(0, 2), ["A", "Bee"]);
  assert.ok(key.includes("pad") && key.includes("hash") && key.includes("bucket"));
  assert.deepEqual(labels("table Abc {\n  A: int\n  partitionKey = pad(‸\n}").slice(0, 1), ["A"]);
  assert.deepEqual(labels("table Abc {\n  A: int\n  query Q 5/s where ‸\n}"), ["A"]);
  assert.deepEqual(labels("table Abc {\n  A: int\n  query Q 5/s where A ‸\n}"), ["=", "<", "<=", ">", ">=", "between", "prefix"]);
  assert.deepEqual(labels("table Abc {\n  A: int\n  query Q ‸\n}"), ["where", "filter"]);
  assert.deepEqual(labels("table Abc {\n  A: int\n  query Q where A = ? ‸\n}"), ["and", "select", "returns"]);
  assert.deepEqual(labels("table Abc {\n  A: int\n  transaction T entities 2 sharing ‸\n}"), ["A"]);
  const filter = labels('table Abc {\n  A: int\n  query Q filter "Part‸"\n}');
  assert.ok(filter.includes("PartitionKey") && filter.includes("A") && filter.includes("eq"));
});

const READINGS = (estimates: string, pk = 'date(At, "yyyyMMddHH")') => `table Readings {
  DeviceId: string(12..12) charset "0-9a-f" distinct 5K
  At:       datetime increasing
  partitionKey = ${pk}
  rowKey       = DeviceId + "_" + reverse(At)
${estimates}
}
`;
const keyHover = (text: string, at = "partitionKey") => hover(analyzeTdl(text), text.indexOf(at) + 2)!.markdown;

test("hover on a time-bucket partition key shows how its partitions are counted, and its temporal load", () => {
  const fromRows = keyHover(READINGS("  rows 500M\n  insert Reading 6K/s"));
  assert.match(
    fromRows,
    /- partitions: ≈ 24 hourly buckets of `At`: 24 = ≈ 23.1 hours kept \(rows 500,000,000 ÷ 6,000 inserts\/s at peak\) ÷ 1 hour a bucket, rounded up\n/,
  );
  assert.match(
    fromRows,
    /- load is temporal: every write of the current moment lands in the current partition — ≈ 6,000 entities\/s at peak; the target is 2,000 entities\/s\n/,
  );
  const fromRetention = keyHover(READINGS("  rows 500M\n  retention 90d\n  insert Reading 6K/s"));
  assert.match(fromRetention, /- partitions: ≈ 2,160 hourly buckets of `At`: 2,160 = the retention of 90 days ÷ 1 hour a bucket\n/);
  const unknown = keyHover(READINGS("  rows 5B"));
  assert.match(
    unknown,
    /- partitions: unknown — the number of hourly buckets of `At` is the time the table keeps divided by one bucket's width; declare `retention` \(such as `retention 90d`\), or `rows` and an insert rate/,
  );
  assert.doesNotMatch(unknown, /5,000,000,000/);
  // Other parts multiply the buckets and share the moment's writes.
  const daily = keyHover(READINGS("  rows 1B\n  retention 30d\n  insert Reading 6K/s", 'DeviceId + "_" + date(At, "yyyyMMdd")'));
  assert.match(
    daily,
    /- partitions: ≈ 150,000 = 30 daily buckets of `At` × ≈ 5,000 values of the other parts; 30 = the retention of 30 days ÷ 1 day a bucket\n/,
  );
  assert.match(
    daily,
    /- load is temporal: every write of the current moment lands in the current partition of each value of the other parts \(the hottest takes 0.02%\) — ≈ 1.2 entities\/s at peak/,
  );
  // An hour of the day cycles: 24, whatever the time kept.
  assert.match(
    keyHover(READINGS("  rows 1B", 'date(At, "HH") + "_" + DeviceId')),
    /- partitions: ≈ 120,000 = 24 hourly buckets of `At` × ≈ 5,000 values of the other parts; "HH" cycles through 24 values, however long the table keeps entities/,
  );
  // A key that does not move with time: its count, and no temporal line.
  const device = keyHover(READINGS("  rows 1B\n  insert Reading 6K/s", "DeviceId"));
  assert.match(device, /- partitions: ≈ 5,000\n/);
  assert.doesNotMatch(device, /temporal/);
});

test("the key hover never calls a key order-preserving when a string without charset is followed by a separator", () => {
  const design = (name: string, sep = "_") => `table People {
  Name: ${name}
  Id:   int(0..999)
  partitionKey = "p"
  rowKey       = Name + "${sep}" + pad(Id, 3)
}
`;
  const open = keyHover(design("string(40)"), "rowKey");
  assert.match(
    open,
    /- order depends on the characters of `Name`: no `charset` is declared, and composite order holds only if none of its characters sorts below "_" \(the separator after it\); declare a `charset` to know/,
  );
  assert.doesNotMatch(open, /order-preserving/);
  assert.match(
    keyHover(design('string(40) charset "a-z"'), "rowKey"),
    /- order-preserving: key order follows the values' order, part by part/,
  );
  assert.match(
    keyHover(design('string(40) charset "A-Za-z"'), "rowKey"),
    /- not order-preserving: `Name` \(the separator after it sorts above its characters\)/,
  );
  // Every value has the same length: none is a prefix of another, so the separator cannot break the order.
  assert.match(keyHover(design("string(8..8)"), "rowKey"), /- order-preserving/);
  // Lower-casing keeps the unknown alphabet unknown.
  assert.match(
    keyHover(design("string(40)").replace("rowKey       = Name", "rowKey       = lower(Name)"), "rowKey"),
    /- order depends on the characters of `lower\(Name\)`/,
  );
});

test("the property hover recommends pad() only where a key uses the number as it is", () => {
  const design = (rowKey: string) => `table Orders {
  Customer: string(20) charset "a-z"
  OrderId:  int(0..99999)
  partitionKey = Customer
  rowKey       = ${rowKey}
}
`;
  const at = (text: string) => hover(analyzeTdl(text), text.indexOf("OrderId:") + 1)!.markdown;
  assert.match(at(design("pad(OrderId, 5)")), /- range 0\.\.99999: every key pads it, so key order is numeric order/);
  assert.doesNotMatch(at(design("pad(OrderId, 5)")), /wrap/);
  assert.match(
    at(design('"o" + OrderId')),
    /- range 0\.\.99999: numbers sort lexically in keys \("111" < "2"\); wrap it in `pad\(OrderId, 5\)` where a key uses it as it is/,
  );
  assert.match(at(design("Customer")), /in a key, wrap it in `pad\(OrderId, 5\)`/);
  // The marathon pads Bib in both its row key and its index.
  const text = readFileSync("examples/marathon.tdl", "utf8");
  assert.match(hover(analyzeTdl(text), text.indexOf("Bib:") + 1)!.markdown, /every key pads it/);
});

test("a query hover says which estimate its unknown figures need when time buckets are uncounted", () => {
  const text = READINGS("  rows 5B\n  query Since where At >= ?");
  const md = hover(analyzeTdl(text), text.indexOf("Since") + 1)!.markdown;
  assert.match(md, /- partitions touched: unknown/);
  assert.match(
    md,
    /- the number of hourly buckets of `At` is unknown: declare `retention` \(such as `retention 90d`\), or `rows` and an insert rate/,
  );
  const counted = READINGS("  rows 5B\n  retention 90d\n  query Since where At >= ?");
  const known = hover(analyzeTdl(counted), counted.indexOf("Since") + 1)!.markdown;
  assert.match(known, /- partitions touched: ≈ 216/);
  assert.doesNotMatch(known, /is unknown/);
});
