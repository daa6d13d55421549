import { after,test } from "node:test";
import { TsFixture } from "../../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

const HEAD = `import { TableClient, TableTransaction, odata } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
interface Order { customer: string; bib: number; total: number; id: string; status: "open" | "openPaid" | "closed" }
`;

test("ts/read-before-write becomes one upsertEntity", () => {
  fx.fix("o.ts", `${HEAD}
export async function save(o: Order) {
  const entity = { partitionKey: o.customer, rowKey: o.id, total: o.total };
  try {
    await client.getEntity(o.customer, o.id);
    await client.updateEntity(entity);
  } catch {
    await client.createEntity(entity);
  }
}
`, "ts/read-before-write", `${HEAD}
export async function save(o: Order) {
  const entity = { partitionKey: o.customer, rowKey: o.id, total: o.total };
  try {
    await client.upsertEntity(entity, "Merge");
  } catch {
    await client.createEntity(entity);
  }
}
`);
});
