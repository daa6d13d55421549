import { after,test } from "node:test";
import { analyzeTdl } from "../../../../server/src/core";
import { TsAnalyzer } from "../../../../server/src/typescript/analysis";
import { TsFixture } from "../../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

const HEAD = `import { TableClient, TableTransaction, odata } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
interface Order { customer: string; bib: number; total: number; id: string; status: "open" | "openPaid" | "closed" }
`;

test("ts/unpadded-number on numbers in templates, concatenations and String(); silent once padded", () => {
  fx.expect("a.ts", `${HEAD}
export async function save(o: Order, n: number) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`\${«o.bib»}\` });
  await client.upsertEntity({ partitionKey: o.customer, rowKey: "r" + «String(n)» });
  await client.deleteEntity(o.customer, «n.toString()»);
  await client.createEntity({ partitionKey: o.customer, rowKey: String(o.bib).padStart(10, "0") });
}
`, "ts/unpadded-number");
});

test("ts/unpadded-number fix: String(x).padStart(W, \"0\"), W from a design of the same table", () => {
  fx.fix("b.ts", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`bib-\${o.bib}\` });
}
`, "ts/unpadded-number", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`bib-\${String(o.bib).padStart(10, "0")}\` });
}
`);
  const design = analyzeTdl(`table Orders {\n  Customer: string(20)\n  Bib: int(0..99999)\n  partitionKey = Customer\n  rowKey = pad(Bib, 5)\n}\n`).tables[0].props;
  const withDesign = new TsFixture(undefined, new TsAnalyzer({ design: (t) => (t === "Orders" ? design : undefined) }));
  try {
    withDesign.fix("c.ts", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: "bib" + String(o.bib) });
}
`, "ts/unpadded-number", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: "bib" + String(o.bib).padStart(5, "0") });
}
`);
  } finally {
    withDesign.dispose();
  }
});

test("ts/append-only-key: the clock, time-ordered ids and counters lead the partition key", () => {
  fx.expect("d.ts", `${HEAD}
declare function ulid(): string;
let seq = 0;
export async function log(message: string) {
  await client.createEntity({ partitionKey: \`\${«Date.now()»}\`, rowKey: "x", message });
  await client.createEntity({ partitionKey: «new Date().toISOString()», rowKey: "x", message });
  await client.createEntity({ partitionKey: «ulid()», rowKey: "x", message });
  await client.createEntity({ partitionKey: String(«seq++»), rowKey: "x", message });
  await client.createEntity({ partitionKey: message + Date.now(), rowKey: "x" });
}
`, "ts/append-only-key");
});

test("ts/append-only-key fix: a hash prefix bound to a const, with the node:crypto import added once", () => {
  fx.fix("e.ts", `${HEAD}
export async function log(message: string) {
  await client.createEntity({ partitionKey: \`\${Date.now()}\`, rowKey: "x", message });
}
`, "ts/append-only-key", `${HEAD.replace(`import { TableClient, TableTransaction, odata } from "@azure/data-tables";`, `import { TableClient, TableTransaction, odata } from "@azure/data-tables";\nimport { createHash } from "node:crypto";`)}
export async function log(message: string) {
  const keyValue = \`\${Date.now()}\`;
  await client.createEntity({ partitionKey: createHash("md5").update(keyValue).digest("hex").slice(0, 4) + "_" + keyValue, rowKey: "x", message });
}
`);
});

test("ts/constant-partition-key, with a composite fix from another property of the entity", () => {
  fx.expect("f.ts", `${HEAD}
const TABLE_PK = "orders";
export async function save(o: Order) {
  await client.createEntity({ partitionKey: «TABLE_PK», rowKey: o.id, customer: o.customer });
  await client.createEntity({ partitionKey: «"all"», rowKey: o.id });
}
`, "ts/constant-partition-key");
  fx.fix("g.ts", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: "orders", rowKey: o.id, customer: o.customer });
}
`, "ts/constant-partition-key", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: "orders_" + o.customer, rowKey: o.id, customer: o.customer });
}
`);
});

test("ts/invalid-key-character and ts/separator-order, with their fixes", () => {
  fx.expect("h.ts", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: «"a/b"» + o.id });
}
`, "ts/invalid-key-character");
  fx.fix("i.ts", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: "a#b" + o.id });
}
`, "ts/invalid-key-character", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: "a_b" + o.id });
}
`);
  fx.expect("j.ts", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`\${o.status}«_»\${o.id}\` });
  await client.createEntity({ partitionKey: o.customer, rowKey: \`\${String(o.total).padStart(10, "0")}_\${o.id}\` });
}
`, "ts/separator-order");
  fx.fix("j2.ts", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`\${o.status}_\${o.id}\` });
}
`, "ts/separator-order", `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`\${o.status},\${o.id}\` });
}
`);
});
