import { after,test } from "node:test";
import assert from "node:assert/strict";
import { TsFixture } from "../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

const HEAD = `import { TableClient, TableTransaction, odata } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
interface Order { customer: string; bib: number; total: number; id: string; status: "open" | "openPaid" | "closed" }
`;

test("keys built in helper functions and spreads are followed; types decide, not names", () => {
  fx.expect("n.ts", `${HEAD}
function keysOf(o: Order) {
  return { partitionKey: o.customer, rowKey: \`\${«o.total»}\` };
}
const base = (x: number) => ({ rowKey: "r" + «x» });
export async function save(o: Order, bib: string) {
  await client.createEntity({ ...keysOf(o), status: o.status });
  await client.createEntity({ partitionKey: o.customer, ...base(o.total) });
  await client.createEntity({ partitionKey: o.customer, rowKey: "r" + bib });
}
`, "ts/unpadded-number");
});

test("silence: well-built keys, and files without the SDK", () => {
  const good = fx.file("p.ts", `${HEAD}
import { createHash } from "node:crypto";
export async function save(o: Order) {
  const pk = createHash("md5").update(o.id).digest("hex").slice(0, 4) + "_" + o.id;
  await client.createEntity({ partitionKey: pk, rowKey: String(o.bib).padStart(10, "0") + "," + o.customer });
  await client.createEntity({ partitionKey: o.customer, rowKey: o.id });
}
`);
  assert.deepEqual(fx.analyzer.analyze(good).findings.map((f) => f.code), []);
  const plain = fx.file("q.ts", `export const key = (n: number) => \`\${n}:\${Date.now()}\`;\nexport const client = { createEntity(e: object) { return e; } };\nclient.createEntity({ partitionKey: key(1), rowKey: "x" });\n`);
  assert.deepEqual(fx.analyzer.analyze(plain), { findings: [], queries: [], usesSdk: false });
});

test("without resolvable SDK types, TableClient usage is still recognised syntactically", () => {
  const unresolved = new TsFixture({ compilerOptions: { strict: true, noEmit: true, baseUrl: ".", paths: { "@azure/data-tables": ["./missing"] }, types: [] } });
  try {
    unresolved.expect("r.ts", `import { TableClient } from "@azure/data-tables";
const client = new TableClient("https://x.table.core.windows.net", "Orders");
export async function log(n: number) {
  await client.createEntity({ partitionKey: \`\${«Date.now()»}\`, rowKey: "x" });
}
`, "ts/append-only-key");
  } finally {
    unresolved.dispose();
  }
});
