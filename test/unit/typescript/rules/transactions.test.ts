import { after,test } from "node:test";
import { TsFixture } from "../../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

const HEAD = `import { TableClient, TableTransaction, odata } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
interface Order { customer: string; bib: number; total: number; id: string; status: "open" | "openPaid" | "closed" }
`;

test("transactions: actions across partitions, and more than 100 of them", () => {
  fx.expect("k.ts", `${HEAD}
export async function move(o: Order) {
  await «client.submitTransaction([["create", { partitionKey: "a", rowKey: "1" }], ["create", { partitionKey: "b", rowKey: "2" }]])»;
  await client.submitTransaction([["create", { partitionKey: "a", rowKey: "1" }], ["delete", { partitionKey: "a", rowKey: "2" }]]);
}
`, "ts/cross-partition-transaction");
  fx.expect("l.ts", `${HEAD}
export async function bulk(o: Order) {
  const tx = new TableTransaction();
  for (let i = 0; i < 150; i++) tx.createEntity({ partitionKey: o.customer, rowKey: String(i).padStart(3, "0") });
  await «client.submitTransaction(tx.actions)»;
  const small = new TableTransaction();
  for (let i = 0; i < 100; i++) small.createEntity({ partitionKey: o.customer, rowKey: String(i).padStart(3, "0") });
  await client.submitTransaction(small.actions);
}
`, "ts/transaction-too-large");
});
