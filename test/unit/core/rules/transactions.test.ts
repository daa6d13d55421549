import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { codes, expectFindings, expectFix, expectSaid } from "../../../helpers/analysis";

const T = (body: string, service = "") => `${service}table Ledger {\n${body}\n}\n`;

test("transaction/cross-partition: the ledger keyed by account is flagged and re-keyed on the transfer", () => {
  const text = readFileSync("examples/ledger.tdl", "utf8");
  const start = text.indexOf("Transfer 300/s");
  const marked = text.slice(0, start) + "«Transfer»" + text.slice(start + "Transfer".length);
  const [f] = expectFindings(marked, "transaction/cross-partition");
  expectSaid(f, "crossPartition", { transaction: "Transfer", sharing: ["TransferId"], differing: ["AccountNumber"] });
  const fixed = text
    .replace("partitionKey = AccountNumber", "partitionKey = TransferId")
    .replace(`rowKey       = TransferId + "_" + Entry`, `rowKey       = Entry + "_" + AccountNumber`);
  expectFix(marked, "transaction/cross-partition", fixed);
  // The ledger's second table is the design the guide arrives at: no error.
  assert.ok(!codes(fixed, {}, "error").length);
});

test("transaction/cross-partition is silent when the shared properties decide the partition key", () => {
  assert.ok(
    !codes(
      T(`  Order: guid
  Line:  int(0..999)
  partitionKey = Order
  rowKey = pad(Line, 3)
  transaction Place entities 20 sharing Order`),
    ).includes("transaction/cross-partition"),
  );
});

test("transaction/too-large counts index rows against 100 operations and bytes against 4 MiB", () => {
  const [ops] = expectFindings(
    T(`  Order: guid
  Line:  int(0..999)
  partitionKey = Order
  rowKey = pad(Line, 3)
  index ByLine rowKey = "L" + pad(Line, 3)
  transaction «Place» entities 60 sharing Order`),
    "transaction/too-large",
  );
  expectSaid(ops, "tooLarge", { operations: 120, entities: 60, rowsPerEntity: 2, opsLimit: 100, bytes: undefined });
  const [bytes] = expectFindings(
    T(`  Order: guid
  Line:  int(0..999)
  partitionKey = Order
  rowKey = pad(Line, 3)
  entitySize 100KB
  transaction «Place» entities 50 sharing Order`),
    "transaction/too-large",
  );
  expectSaid(bytes, "tooLarge", { operations: undefined, bytes: 50 * 100 * 1024, bytesLimit: 4 * 2 ** 20 });
});
