import { after,test } from "node:test";
import assert from "node:assert/strict";
import { TsFixture } from "../../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

const HEAD = `import { TableClient, TableTransaction, odata } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
interface Order { customer: string; bib: number; total: number; id: string; status: "open" | "openPaid" | "closed" }
`;

test("every listEntities and getEntity call is classified; unpinned filters are table scans", () => {
  const m = `${HEAD}
const OPEN = "status eq 'open'";
export async function read(o: Order) {
  client.«listEntities»({ queryOptions: { filter: odata\`PartitionKey eq \${o.customer} and RowKey eq \${o.id}\` } });
  client.«listEntities»({ queryOptions: { filter: odata\`PartitionKey eq \${o.customer}\` } });
  client.«listEntities»({ queryOptions: { filter: \`PartitionKey ge '\${o.customer}' and PartitionKey lt 'z'\` } });
  client.«listEntities»({ queryOptions: { filter: OPEN } });
  client.«listEntities»({ queryOptions: { filter: "PartitionKey eq 'a' or PartitionKey eq 'b'" } });
  client.«listEntities»();
  await client.«getEntity»(o.customer, o.id);
}
`;
  const found = fx.expect("m.ts", m, "ts/query-class");
  assert.deepEqual(found.map((f) => f.message), [
    "point", "row-range · 1 partition", "partition-range · several partitions", "table-scan · scans every partition",
    "table-scan · scans every partition", "table-scan · scans every partition", "point",
  ]);
  const scans = fx.analyzer.analyze(fx.file("m.ts", m.replace(/[«»]/g, ""))).findings.filter((f) => f.code === "ts/table-scan");
  assert.equal(scans.length, 3);
});
