import { test } from "node:test";
import assert from "node:assert/strict";
import { codes, expectFindings, expectSaid } from "../../../helpers/analysis";

const T = (body: string, service = "") => `${service}table Ledger {\n${body}\n}\n`;

test("entity/too-large: entitySize, one property, and the declared maxima", () => {
  expectFindings(
    T(`  A: guid
  partitionKey = A
  rowKey = "x"
  entitySize «2MB»`),
    "entity/too-large",
  );
  expectFindings(
    T(`  A: guid
  Body: «string(40000)»
  partitionKey = A
  rowKey = "x"`),
    "entity/too-large",
  );
  const props = Array.from({ length: 20 }, (_, i) => `  P${i}: string(30000)`).join("\n");
  const [sum] = expectFindings(`table «Wide» {\n  A: guid\n${props}\n  partitionKey = A\n  rowKey = "x"\n}\n`, "entity/too-large");
  expectSaid(sum, "entity", { table: "Wide", limit: 2 ** 20 });
  assert.ok((sum.data!.bytes as number) > 1.05 * 2 ** 20 && (sum.data!.bytes as number) < 1.15 * 2 ** 20, sum.message);
});

test("entity/too-many-properties: more than 252 user properties", () => {
  const props = Array.from({ length: 253 }, (_, i) => `  P${i}: int`).join("\n");
  const [f] = expectFindings(`table «Wide» {\n${props}\n  partitionKey = pad(P0, 10)\n  rowKey = "x"\n}\n`, "entity/too-many-properties");
  expectSaid(f, "tooMany", { count: 253, service: "Azure Table Storage", limit: 252 });
  assert.ok(
    !codes(`service tablestore\ntable Wide {\n${props}\n  partitionKey = P0\n  rowKey = "x"\n}\n`).includes("entity/too-many-properties"),
  );
});
