import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl } from "@core";
import { applyFix, codes, expectFindings, expectSaid } from "../../../helpers/analysis";
import { marked } from "../../../helpers/markers";

test("unknown-property on keys, conditions, select, filters and sharing, with a spelling fix", () => {
  const found = expectFindings(
    `table Orders {
  Customer: string(20)
  OrderId: int(0..999)
  partitionKey = «Custmer»
  rowKey = pad(«OrderID», 3)
  query A where «Region» = ? select «Total»
  query B filter "PartitionKey eq 'x' and «Amount» gt 5"
  transaction T entities 2 sharing «Shop»
}`,
    "unknown-property",
  );
  expectSaid(found[0], "unknown", { name: "Custmer", guess: "Customer" });
  assert.equal(found[0].fixes?.[0].title, "Change to 'Customer'");
  assert.equal(found[2].fixes, undefined, "no guess for a name that resembles nothing");
});

test("the spelling fix replaces the name and removes the diagnostic", () => {
  const text = `table Orders {
  Customer: string(20)
  partitionKey = Custmer
  rowKey = "x"
}`;
  const fixed = applyFix(text, "unknown-property");
  assert.equal(fixed, text.replace("= Custmer", "= Customer"));
  assert.deepEqual(codes(fixed), []);
});

test("PartitionKey, RowKey and Timestamp are known in queries", () => {
  expectFindings(
    `table Orders {
  A: int
  partitionKey = pad(A, 10)
  rowKey = "x"
  query Q filter "PartitionKey eq 'a' and RowKey gt 'b' and Timestamp ge datetime'2026-01-01T00:00:00Z'"
  query R where PartitionKey = ?
}`,
    "unknown-property",
  );
});

test("duplicate-name reports the second declaration per kind; an index and a query may share a name", () => {
  const found = expectFindings(
    `table Orders {
  A: int(0..9)
  «A»: string
  partitionKey = pad(A, 1)
  rowKey = "x"
  index ByA rowKey = pad(A, 1)
  query ByA where A = ?
  insert «ByA»
}
table «Orders» {
  B: int
}`,
    "duplicate-name",
  );
  expectSaid(found[0], "twice", { what: "property", name: "A" });
});

test("name checks run on a table with a syntax error; other rules wait until it parses", () => {
  const m = marked(`table Broken {
  A: int
  partitionKey = «Missing» +
}
table NoKeys {
  B: int
}`);
  const findings = analyzeTdl(m.text).findings;
  assert.deepEqual(
    findings.map((f) => f.code),
    ["unknown-property", "syntax", "missing-key"],
  );
  assert.equal(findings.find((f) => f.code === "missing-key")!.start, m.text.indexOf("NoKeys"));
});
