import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeTdl } from "../../../server/src/core";
import { complete,definition,hover,outline,references,rename } from "../../../server/src/ide";
import { applyEdits,marked } from "../../helpers/markers";

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
  assert.deepEqual(symbols.map((s) => s.name), ["LedgerByAccount", "Ledger"]);
  assert.deepEqual(symbols[1].children.map((c) => `${c.kind}:${c.name}`), [
    "property:TransferId", "property:AccountNumber", "property:Entry", "property:Amount", "property:BookedAt",
    "key:partitionKey", "key:rowKey", "estimate:rows", "estimate:entitySize", "transaction:Transfer", "query:ByTransfer",
  ]);
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
  assert.match(h.markdown, /order depends on the characters of `Name`: no `charset` is declared, and composite order holds only if none of its characters sorts below "_"/);
  const declared = analyzeTdl(text.replace("Name:     string(40)", "Name:     string(40) charset \"a-z\""));
  const hd = hover(declared, declared.text.indexOf("rowKey       =") + 2)!;
  assert.match(hd.markdown, /- order-preserving: key order follows the values' order/);
  const pk = hover(a, text.indexOf("partitionKey =") + 2)!;
  assert.match(pk.markdown, /example: `event__Full`/);
  const unordered = analyzeTdl("table Orders {\n  A: int(0..999)\n  S: string(8) charset \"a-z0-9\"\n  partitionKey = S + \":\" + A\n  rowKey = hash(A, 4)\n}\n");
  const up = hover(unordered, unordered.text.indexOf("partitionKey") + 1)!;
  assert.match(up.markdown, /not order-preserving: `S` \(the separator after it sorts above its characters\); `A` \(an unpadded number sorts as text/);
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
  const filter = labels("table Abc {\n  A: int\n  query Q filter \"Part‸\"\n}");
  assert.ok(filter.includes("PartitionKey") && filter.includes("A") && filter.includes("eq"));
});
