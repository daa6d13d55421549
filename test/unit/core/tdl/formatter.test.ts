import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { formatTdl } from "@core";

test("the formatter indents, spaces, aligns and keeps comments", () => {
  const before = `// orders
service   azure-table
table Orders {
Customer :string( 20 )charset "a-z"   // who
     OrderId: int( 0 .. 99999 )


  partitionKey=Customer
    rowKey = pad( OrderId,5 )+"_"
  /* reads */
  query ByCustomer 20 / s where Customer=? and OrderId>=?
}
table Broken {
  A:   int
  partitionKey = A +
}
`;
  const after = `// orders
service azure-table

table Orders {
  Customer: string(20) charset "a-z" // who
  OrderId:  int(0..99999)

  partitionKey = Customer
  rowKey       = pad(OrderId, 5) + "_"
  /* reads */
  query ByCustomer 20/s where Customer = ? and OrderId >= ?
}

table Broken {
  A:   int
  partitionKey = A +
}
`;
  assert.equal(formatTdl(before), after);
  assert.equal(formatTdl(after), after, "formatting is idempotent");
  for (const f of ["marathon", "ledger", "telemetry"]) {
    const text = readFileSync(`examples/${f}.tdl`, "utf8");
    assert.equal(formatTdl(text), text, `examples/${f}.tdl is formatted`);
  }
});

test("the formatter prints a retention like the other estimates", () => {
  const before =
    'table Readings {\n At: datetime increasing\n  partitionKey = date( At,"yyyyMMdd" )\n rowKey=date(At, "HHmmss")\n   retention    1.5y  // kept\n}\n';
  assert.equal(
    formatTdl(before),
    'table Readings {\n  At: datetime increasing\n  partitionKey = date(At, "yyyyMMdd")\n  rowKey       = date(At, "HHmmss")\n  retention 1.5y // kept\n}\n',
  );
});
