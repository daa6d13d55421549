import { after, test } from "node:test";
import assert from "node:assert/strict";
import { TsFixture } from "../../../helpers/typescript";
import { expectSaid } from "../../../helpers/analysis";

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
  await «client.submitTransaction([["create", { partitionKey: "a", rowKey: "1" }], ["create", { partitionKey: "b", rowKey: "2" }]])»‹different›;
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
  await «client.submitTransaction(tx.actions)»‹ts/transaction-too-large:tooLarge›;
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
    // A table of its own: the fixture's other files write "Orders" with keys that vary (a constant there is a side partition).
    `${HEAD.replace('"Orders"', '"Imports"')}
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

test("ts/transaction-too-large at the submission, and a hint where the number is set: an array filled up to N by a while loop, walked into a transaction", () => {
  const found = fx.expect(
    "fill.ts",
    `${HEAD}
export async function overfill(o: Order, make: (n: number) => { partitionKey: string; rowKey: string }) {
  const LIMIT = 120;
  const rows: Array<{ partitionKey: string; rowKey: string }> = [];
  while (rows.length < LIMIT) {
    «rows.push(make(rows.length))»;
  }
  const batch = new TableTransaction();
  for (const row of rows) {
    batch.upsertEntity(row);
  }
  await «client.submitTransaction(batch.actions)»;
}
`,
    "ts/transaction-too-large",
  );
  const related = (f: (typeof found)[number]) =>
    (f as { related?: Array<{ line: number; message: string }> }).related?.map((r) => [r.line + 1, r.message]);
  assert.deepEqual(
    found.map((f) => f.severity),
    ["hint", "error"],
  );
  expectSaid(found[0], "addedHere", { count: 120, line: 15, service: "Azure Table Storage", max: 100 });
  assert.deepEqual(related(found[0]), [[15, "submitTransaction with 120 actions"]]);
  assert.deepEqual(related(found[1]), [[9, "the 120 actions are added here"]]);
});

test("ts/cross-partition-transaction compares keys as values: two different parameters may differ, unless the code shows them equal", () => {
  const found = fx.expect(
    "ledger.ts",
    `${HEAD}
export async function transfer(from: string, to: string, amount: number) {
  await «client.submitTransaction([
    ["update", { partitionKey: from, rowKey: "balance", delta: -amount }],
    ["update", { partitionKey: to, rowKey: "balance", delta: amount }],
  ])»;
}
export async function sameOwner(from: string, to: string, amount: number) {
  if (from !== to) throw new Error("one account holder only");
  await client.submitTransaction([
    ["update", { partitionKey: from, rowKey: "savings", delta: -amount }],
    ["update", { partitionKey: to, rowKey: "checking", delta: amount }],
  ]);
}
export async function oneOrder(o: Order) {
  const owner = o.customer;
  await client.submitTransaction([
    ["create", { partitionKey: o.customer, rowKey: o.id }],
    ["upsert", { partitionKey: owner, rowKey: o.id + "-total", total: o.total }],
  ]);
}
`,
    "ts/cross-partition-transaction",
  );
  assert.equal(found[0].severity, "error");
  expectSaid(found[0], "mayDiffer", { keys: ["from", "to"], more: false });
});
