import { test } from "node:test";
import assert from "node:assert/strict";
import { codes, expectFindings, expectFix, expectSaid } from "../../../helpers/analysis";

const T = (body: string, service = "") => `${service}table Orders {\n${body}\n}\n`;

test("key/unpadded-number: a warning on the part, an error when a query ranges over it", () => {
  const [w] = expectFindings(
    T(`  Customer: string(10)
  OrderId:  int(0..99999)
  partitionKey = Customer
  rowKey       = «OrderId»`),
    "key/unpadded-number",
  );
  assert.equal(w.severity, "warning");
  expectSaid(w, "unpadded", { name: "OrderId", key: "rowKey", width: 5, ranged: false });
  const [e] = expectFindings(
    T(`  Customer: string(10)
  OrderId:  int64
  partitionKey = Customer
  rowKey       = "o" + lower(«OrderId»)
  query Recent where Customer = ? and OrderId > ?`),
    "key/unpadded-number",
  );
  assert.equal(e.severity, "error");
});

test("key/unpadded-number fix wraps the part in pad with the range's width", () => {
  expectFix(
    T(`  Customer: string(10)
  OrderId:  int(0..99999)
  partitionKey = Customer
  rowKey       = «OrderId»`),
    "key/unpadded-number",
    T(`  Customer: string(10)
  OrderId:  int(0..99999)
  partitionKey = Customer
  rowKey       = pad(OrderId, 5)`),
  );
  expectFix(
    T(`  A: int
  partitionKey = «A»
  rowKey = "x"`),
    "key/unpadded-number",
    T(`  A: int
  partitionKey = pad(A, 10)
  rowKey = "x"`),
  );
  expectFix(
    T(`  A: int64
  partitionKey = "p"
  rowKey = «A»`),
    "key/unpadded-number",
    T(`  A: int64
  partitionKey = "p"
  rowKey = pad(A, 19)`),
  );
});

test("key/unpadded-number: hashed numbers are fine, and Tablestore sorts a lone integer key numerically", () => {
  assert.deepEqual(
    codes(
      T(`  A: int(0..999)
  partitionKey = hash(A, 4)
  rowKey = pad(A, 3)`),
    ).filter((c) => c.startsWith("key/")),
    [],
  );
  expectFindings(
    T(
      `  A: int(0..999)
  B: int(0..9)
  partitionKey = A
  rowKey = «B» + "_" + «A»`,
      "service tablestore\n",
    ),
    "key/unpadded-number",
  );
});

test("key/pad-too-narrow sits on the pad and widens it", () => {
  expectFindings(
    T(`  A: int(0..99999)
  partitionKey = «pad(A, 3)»
  rowKey = pad(A, 5)`),
    "key/pad-too-narrow",
  );
  expectFix(
    T(`  A: int(0..99999)
  partitionKey = «pad(A, 3)»
  rowKey = "x"`),
    "key/pad-too-narrow",
    T(`  A: int(0..99999)
  partitionKey = pad(A, 5)
  rowKey = "x"`),
  );
});

test("key/separator-order flags ':' after an alphanumeric part and replaces it with ','", () => {
  const [f] = expectFindings(
    T(`  SellerID: string(8) charset "a-z0-9"
  CardID:   int(0..999999)
  partitionKey = SellerID + «":"» + pad(CardID, 6)
  rowKey = "x"`),
    "key/separator-order",
  );
  expectSaid(f, "order", { separator: ":", part: "SellerID", low: "0" });
  expectFix(
    T(`  SellerID: string(8) charset "a-z0-9"
  CardID:   int(0..999999)
  partitionKey = SellerID + «":"» + pad(CardID, 6)
  rowKey = "x"`),
    "key/separator-order",
    T(`  SellerID: string(8) charset "a-z0-9"
  CardID:   int(0..999999)
  partitionKey = SellerID + "," + pad(CardID, 6)
  rowKey = "x"`),
  );
});

test("key/separator-order: ',' is accepted; fixed-width parts, unknown alphabets and prefix-free enums are silent", () => {
  assert.deepEqual(
    codes(
      T(`  SellerID: string(8) charset "a-z0-9"
  Code:     string(4..4) charset "A-Z"
  Free:     string(20)
  Entry:    enum(Debit, Credit)
  partitionKey = SellerID + "," + Code + ":" + Free + ":" + Entry + "_x"
  rowKey = "x"`),
    ).filter((c) => c === "key/separator-order"),
    [],
  );
});

test("key/separator-order picks a character below a wider alphabet", () => {
  expectFix(
    T(`  P: string(8) charset "+0-9a-z"
  partitionKey = P + «"_"» + P
  rowKey = "x"`),
    "key/separator-order",
    T(`  P: string(8) charset "+0-9a-z"
  partitionKey = P + "*" + P
  rowKey = "x"`),
  );
});

test("key/invalid-character: literals, date formats and charsets that admit a forbidden character", () => {
  expectFindings(
    T(`  Path: string(20) charset "a-z/"
  At:   datetime
  partitionKey = «"a/b"» + «Path»
  rowKey = date(At, «"yyyy/MM/dd"»)`),
    "key/invalid-character",
  );
  expectFix(
    T(`  A: string(5) charset "a-z"
  partitionKey = A + «"#"» + A
  rowKey = "x"`),
    "key/invalid-character",
    T(`  A: string(5) charset "a-z"
  partitionKey = A + "," + A
  rowKey = "x"`),
  );
  assert.deepEqual(
    codes(
      T(
        `  A: string(5)
  partitionKey = "a/b" + A
  rowKey = "x"`,
        "service tablestore\n",
      ),
    ).filter((c) => c === "key/invalid-character"),
    [],
  );
});

test("key/too-long counts UTF-16 on Azure and UTF-8 on Cosmos DB", () => {
  const [f] = expectFindings(
    T(`  A: string(600)
  partitionKey = «A»
  rowKey = "x"`),
    "key/too-long",
  );
  expectSaid(f, "tooLong", {
    chars: 600,
    bytes: 1200,
    encoding: "UTF-16, 2 bytes a character",
    service: "Azure Table Storage",
    limit: 1024,
  });
  expectFindings(
    T(
      `  A: string(200) charset "a-z"
  partitionKey = A
  rowKey = «A + "_" + A»`,
      "service cosmos-table\n",
    ),
    "key/too-long",
  );
  expectFindings(
    T(
      `  A: string(200) charset "a-z"
  partitionKey = A
  rowKey = A`,
      "service cosmos-table\n",
    ),
    "key/too-long",
  );
});
