import { after, test } from "node:test";
import assert from "node:assert/strict";
import { TsFixture } from "../../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

const HEAD = `import { TableClient, TableTransaction, odata } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
interface Order { customer: string; bib: number; total: number; id: string; status: "open" | "openPaid" | "closed" }
`;

test("transactions: actions across partitions, and more than 100 of them", () => {
  fx.expect(
    "k.ts",
    `${HEAD}
export async function move(o: Order) {
  await «client.submitTransaction([["create", { partitionKey: "a", rowKey: "1" }], ["create", { partitionKey: "b", rowKey: "2" }]])»;
  await client.submitTransaction([["create", { partitionKey: "a", rowKey: "1" }], ["delete", { partitionKey: "a", rowKey: "2" }]]);
}
`,
    "ts/cross-partition-transaction",
  );
  fx.expect(
    "l.ts",
    `${HEAD}
export async function bulk(o: Order) {
  const tx = new TableTransaction();
  for (let i = 0; i < 150; i++) tx.createEntity({ partitionKey: o.customer, rowKey: String(i).padStart(3, "0") });
  await «client.submitTransaction(tx.actions)»;
  const small = new TableTransaction();
  for (let i = 0; i < 100; i++) small.createEntity({ partitionKey: o.customer, rowKey: String(i).padStart(3, "0") });
  await client.submitTransaction(small.actions);
}
`,
    "ts/transaction-too-large",
  );
});

test("actions built with map, push, loops and spreads: their entities are checked", () => {
  fx.expect(
    "map.ts",
    `${HEAD}
import type { TransactionAction } from "@azure/data-tables";
export async function importAll(ids: string[], n: number) {
  await client.submitTransaction(ids.map((id) => ["upsert", { partitionKey: «"global"», rowKey: id }]));
  const actions: TransactionAction[] = [];
  for (let i = 0; i < n; i++) actions.push(["create", { partitionKey: «"batch"», rowKey: \`\${i}\` }]);
  await client.submitTransaction(actions);
}
`,
    "ts/constant-partition-key",
  );
  fx.expect(
    "push.ts",
    `${HEAD}
import type { TransactionAction } from "@azure/data-tables";
export async function importAll(o: Order, n: number) {
  const actions: TransactionAction[] = [];
  for (let i = 0; i < n; i++) actions.push(["create", { partitionKey: o.customer, rowKey: \`\${«i»}\` }]);
  const more = [...actions, ["upsert", { partitionKey: o.customer, rowKey: «String(n)» }] as TransactionAction];
  await client.submitTransaction(more);
}
`,
    "ts/unpadded-number",
  );
});

test("action counts from loop bounds, literal lengths, constants and spreads", () => {
  fx.expect(
    "count.ts",
    `${HEAD}
import type { TransactionAction } from "@azure/data-tables";
const BATCH = 101;
export async function load(o: Order, ids: string[]) {
  const a: TransactionAction[] = [];
  for (let i = 0; i < 101; i++) a.push(["create", { partitionKey: o.customer, rowKey: String(i).padStart(3, "0") }]);
  await «client.submitTransaction(a)»;
  const b: TransactionAction[] = [];
  for (let i = 1; i <= BATCH; i++) b.push(["create", { partitionKey: o.customer, rowKey: String(i).padStart(3, "0") }]);
  await «client.submitTransaction([...b])»;
  const c: TransactionAction[] = [];
  for (let i = 0; i < 100; i++) c.push(["create", { partitionKey: o.customer, rowKey: String(i).padStart(3, "0") }]);
  await client.submitTransaction(c);
  const d: TransactionAction[] = [];
  for (const id of ids) d.push(["delete", { partitionKey: o.customer, rowKey: id }]);
  await client.submitTransaction(d);
  await client.submitTransaction(ids.map((id) => ["delete", { partitionKey: o.customer, rowKey: id }]));
  const fifty = Array.from({ length: 50 }, (_, i) => i);
  await client.submitTransaction([...fifty.map((i) => ["create", { partitionKey: o.customer, rowKey: String(i).padStart(2, "0") }] as TransactionAction)]);
}
`,
    "ts/transaction-too-large",
  );
});

test("a loop over the actions array itself neither hangs nor counts", () => {
  const f = fx.file(
    "self.ts",
    `${HEAD}
import type { TransactionAction } from "@azure/data-tables";
export async function odd(o: Order) {
  const a: TransactionAction[] = [["create", { partitionKey: o.customer, rowKey: "1" }]];
  for (const x of a) a.push(x);
  for (let i = 0; i < 3; i++) a.push(...a);
  await client.submitTransaction(a);
}
`,
  );
  assert.deepEqual(
    fx.analyzer.analyze(f).findings.filter((x) => x.code === "ts/transaction-too-large"),
    [],
  );
});
