import { test } from "node:test";
import { expectFindings, expectSaid } from "../../../helpers/analysis";

test("missing-key sits on the table's name and names what is missing", () => {
  const [f] = expectFindings(
    `table «Orders»‹missing› {
  A: int
  partitionKey = pad(A, 10)
}`,
    "missing-key",
  );
  expectSaid(f, "missing", { table: "Orders", missing: ["rowKey"] });
});

test("table/invalid-name follows the profile's naming rule", () => {
  expectFindings(
    `table «ab» { A: int
 partitionKey = A
 rowKey = A }
table «Order_Lines» { A: int
 partitionKey = A
 rowKey = A }
table «Tables» { A: int
 partitionKey = A
 rowKey = A }
table Fine123 { A: int
 partitionKey = A
 rowKey = A }`,
    "table/invalid-name",
  );
  expectFindings(
    `service tablestore
table my_table { A: int
 partitionKey = A
 rowKey = A }`,
    "table/invalid-name",
  );
});
