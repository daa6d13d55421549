import { after, test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl } from "@core";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { TsFixture } from "../../../helpers/typescript";
import { expectSaid } from "../../../helpers/analysis";

const fx = new TsFixture();
after(() => fx.dispose());

const HEAD = `import { TableClient, TableTransaction, odata } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
interface Order { customer: string; bib: number; total: number; id: string; status: "open" | "openPaid" | "closed" }
`;

test("ts/unpadded-number on numbers in templates, concatenations and String(); silent once padded", () => {
  fx.expect(
    "a.ts",
    `${HEAD}
export async function save(o: Order, n: number) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`\${«o.bib»}\` });
  await client.upsertEntity({ partitionKey: o.customer, rowKey: "r" + «String(n)» });
  await client.deleteEntity(o.customer, «n.toString()»);
  await client.createEntity({ partitionKey: o.customer, rowKey: String(o.bib).padStart(10, "0") });
}
`,
    "ts/unpadded-number",
  );
});

test("ts/unpadded-number: a request's field the file's schema validates as a number (Joi, zod, yup), in JavaScript", () => {
  fx.expect(
    "schema-joi.js",
    `const { TableClient } = require("@azure/data-tables");
const Joi = require("joi");
const tickets = TableClient.fromConnectionString(process.env.CONN, "Tickets");
const schema = Joi.object().keys({ project: Joi.string().required(), issue: Joi.number().integer().min(1).required(), title: Joi.string() });
module.exports = async function (context, req) {
  const { project, issue, title } = req.body;
  await tickets.createEntity({ partitionKey: project, rowKey: «issue», title });
  await tickets.createEntity({ partitionKey: project, rowKey: title });
};
`,
    "ts/unpadded-number",
  );
  fx.expect(
    "schema-zod.js",
    `const { TableClient } = require("@azure/data-tables");
const { z } = require("zod");
const tickets = TableClient.fromConnectionString(process.env.CONN, "Tickets");
const Body = z.object({ project: z.string(), seq: z.number().int() });
module.exports.save = async (req) => {
  const body = req.body;
  await tickets.upsertEntity({ partitionKey: body.project, rowKey: \`t-\${«body.seq»}\` });
};
`,
    "ts/unpadded-number",
  );
});

test("ts/unpadded-number: untyped values that are numbers by their form (the next id after the largest, a count, Number())", () => {
  fx.expect(
    "next-id.js",
    `const { TableClient } = require("@azure/data-tables");
const rooms = TableClient.fromConnectionString(process.env.CONN, "Rooms");
async function all() {
  const out = [];
  for await (const r of rooms.listEntities({ queryOptions: { filter: "PartitionKey eq 'room'" } })) out.push(r);
  return out;
}
module.exports.add = async function (req) {
  let id = req.body.id;
  if (!id) {
    const existing = await all();
    const top = existing.reduce((m, r) => Math.max(m, Number(r.rowKey)), 0);
    id = top + 1;
  }
  await rooms.createEntity({ partitionKey: "room", rowKey: «String(id)» });
  await rooms.createEntity({ partitionKey: "seat", rowKey: \`\${req.body.room}-\${«Number(req.body.seat)»}\` });
  await rooms.createEntity({ partitionKey: "name", rowKey: String(req.body.name) });
  await rooms.createEntity({ partitionKey: "label", rowKey: "r" + req.body.label + 1 });
};
`,
    "ts/unpadded-number",
  );
});

test('ts/unpadded-number fix: String(x).padStart(W, "0"), W from a design of the same table', () => {
  fx.fix(
    "b.ts",
    `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`bib-\${o.bib}\` });
}
`,
    "ts/unpadded-number",
    `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`bib-\${String(o.bib).padStart(10, "0")}\` });
}
`,
  );
  const design = analyzeTdl(
    `table Orders {\n  Customer: string(20)\n  Bib: int(0..99999)\n  partitionKey = Customer\n  rowKey = pad(Bib, 5)\n}\n`,
  ).tables[0].props;
  const withDesign = new TsFixture(undefined, new TsAnalyzer({ design: (t) => (t === "Orders" ? design : undefined) }));
  try {
    withDesign.fix(
      "c.ts",
      `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: "bib" + String(o.bib) });
}
`,
      "ts/unpadded-number",
      `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: "bib" + String(o.bib).padStart(5, "0") });
}
`,
    );
  } finally {
    withDesign.dispose();
  }
});

test("ts/append-only-key: the clock, time-ordered ids and counters lead the partition key", () => {
  fx.expect(
    "d.ts",
    `${HEAD}
declare function ulid(): string;
let seq = 0;
export async function log(message: string) {
  await client.createEntity({ partitionKey: \`\${«Date.now()»}\`, rowKey: "x", message });
  await client.createEntity({ partitionKey: «new Date().toISOString()», rowKey: "x", message });
  await client.createEntity({ partitionKey: «ulid()», rowKey: "x", message });
  await client.createEntity({ partitionKey: String(«seq++»), rowKey: "x", message });
  await client.createEntity({ partitionKey: message + Date.now(), rowKey: "x" });
}
`,
    "ts/append-only-key",
  );
});

const WITH_CRYPTO = HEAD.replace(
  `import { TableClient, TableTransaction, odata } from "@azure/data-tables";`,
  `import { TableClient, TableTransaction, odata } from "@azure/data-tables";\nimport { createHash } from "node:crypto";`,
);

test("ts/append-only-key fix: 16 buckets hashed from the row key (a value that varies within the moment), with the node:crypto import", () => {
  fx.fix(
    "e.ts",
    `${HEAD}
export async function log(id: string, message: string) {
  await client.createEntity({ partitionKey: new Date().toISOString().slice(0, 10), rowKey: id, message });
}
`,
    "ts/append-only-key",
    `${WITH_CRYPTO}
export async function log(id: string, message: string) {
  await client.createEntity({ partitionKey: createHash("md5").update(id).digest("hex").slice(0, 1) + "_" + new Date().toISOString().slice(0, 10), rowKey: id, message });
}
`,
  );
});

test("ts/append-only-key: a hash of the clock is still one bucket per moment, and no fix hashes the clock", () => {
  const found = fx.expect(
    "hashed-day.ts",
    `${WITH_CRYPTO}
export async function log(message: string) {
  const day = new Date().toISOString().slice(0, 10);
  await client.createEntity({ partitionKey: «createHash("md5").update(day).digest("hex").slice(0, 4)» + "_" + day, rowKey: message });
  await client.createEntity({ partitionKey: «createHash("sha1").update("log-" + day).digest("hex")», rowKey: message });
  await client.createEntity({ partitionKey: createHash("md5").update(message).digest("hex").slice(0, 2) + "_" + day, rowKey: message });
}
export async function tick() {
  await client.createEntity({ partitionKey: String(«Date.now()»), rowKey: String(Date.now()) });
}
`,
    "ts/append-only-key",
  );
  // The entity holds nothing that varies within the moment but the clock: no bucket to offer.
  assert.deepEqual(found[2].fixes ?? [], []);
  expectSaid(found[2], "appendOnly", { lead: "clock", part: "Date.now()" });
  expectSaid(found[0], "appendOnly", { lead: "hashedClock" });
  assert.match(found[0].data?.part as string, /^createHash/);
});

test("ts/constant-partition-key, with a composite fix from another property of the entity", () => {
  fx.expect(
    "f.ts",
    `${HEAD.replace('"Orders"', '"OrderArchive"')}
const TABLE_PK = "orders";
export async function save(o: Order) {
  await client.createEntity({ partitionKey: «TABLE_PK», rowKey: o.id, customer: o.customer });
  await client.createEntity({ partitionKey: «"all"», rowKey: o.id });
}
`,
    "ts/constant-partition-key",
  );
  // A table of its own (the fixture's other files write "Orders" with keys that vary).
  const OWN = HEAD.replace('"Orders"', '"OrderLog"');
  fx.fix(
    "g.ts",
    `${OWN}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: "orders", rowKey: o.id, customer: o.customer });
}
`,
    "ts/constant-partition-key",
    `${OWN}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: "orders," + o.customer, rowKey: o.id, customer: o.customer });
}
`,
  );
});

test("ts/invalid-key-character and ts/separator-order, with their fixes", () => {
  fx.expect(
    "h.ts",
    `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: «"a/b"» + o.id });
}
`,
    "ts/invalid-key-character",
  );
  fx.fix(
    "i.ts",
    `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: "a#b" + o.id });
}
`,
    "ts/invalid-key-character",
    `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: "a_b" + o.id });
}
`,
  );
  fx.expect(
    "j.ts",
    `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`\${o.status}«_»\${o.id}\` });
  await client.createEntity({ partitionKey: o.customer, rowKey: \`\${String(o.total).padStart(10, "0")}_\${o.id}\` });
}
`,
    "ts/separator-order",
  );
  fx.fix(
    "j2.ts",
    `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`\${o.status}_\${o.id}\` });
}
`,
    "ts/separator-order",
    `${HEAD}
export async function save(o: Order) {
  await client.createEntity({ partitionKey: o.customer, rowKey: \`\${o.status},\${o.id}\` });
}
`,
  );
});

test("ts/append-only-key: time buckets of the clock and date-library formats", () => {
  fx.file(
    "date-libs.d.ts",
    `declare module "date-fns" { export function format(d: Date | number, f: string): string; }
declare module "dayjs" { interface Dayjs { format(f?: string): string; } function dayjs(d?: Date | string | number): Dayjs; export default dayjs; }
`,
  );
  fx.expect(
    "buckets.ts",
    `${HEAD}
import { format } from "date-fns";
import dayjs from "dayjs";
export async function log(message: string, at: Date) {
  await client.createEntity({ partitionKey: «new Date().toISOString().slice(0, 10)», rowKey: message });
  await client.createEntity({ partitionKey: «new Date().toISOString().split("T")[0]», rowKey: message });
  const d = new Date();
  await client.createEntity({ partitionKey: \`\${«d.getFullYear()»}-\${d.getMonth() + 1}\`, rowKey: message });
  await client.createEntity({ partitionKey: «format(new Date(), "yyyy-MM-dd")», rowKey: message });
  await client.createEntity({ partitionKey: «dayjs().format("YYYYMMDDHH")», rowKey: message });
  await client.createEntity({ partitionKey: String(«Math.floor(Date.now() / 3_600_000)»), rowKey: message });
  await client.createEntity({ partitionKey: format(at, "yyyy-MM"), rowKey: message });
  await client.createEntity({ partitionKey: message, rowKey: new Date().toISOString().slice(0, 10) });
}
`,
    "ts/append-only-key",
  );
});

test("the reverse timestamp (log tail) is a fixed-width key part: no unpadded number, no append-only key", () => {
  const f = fx.file(
    "log-tail.ts",
    `${HEAD}
export async function log(device: string, message: string) {
  await client.createEntity({ partitionKey: device, rowKey: (8640000000000000 - Date.now()).toString(), message });
  await client.createEntity({ partitionKey: device, rowKey: String(9999999999999 - Date.now()) + "_" + message });
  await client.createEntity({ partitionKey: device, rowKey: \`\${Number.MAX_SAFE_INTEGER - Date.now()}\` });
}
`,
  );
  assert.deepEqual(
    fx.analyzer.analyze(f).findings.map((x) => x.code),
    [],
  );
});

test("a declared literal key type is a constant partition key wherever that type is written", () => {
  fx.expect(
    "declared.ts",
    `${HEAD}
interface VisitorEntity { partitionKey: "VISITOR"; rowKey: string; visits: number }
interface Tagged { partitionKey: "a" | "b"; rowKey: string }
const visitors = TableClient.fromConnectionString(process.env.CONN ?? "", "Visitors");
export async function save(v: VisitorEntity, t: Tagged, e: VisitorEntity & { extra: 1 }) {
  await visitors.upsertEntity(«v»);
  await visitors.createEntity<VisitorEntity>({ ...v, partitionKey: «v.partitionKey» });
  await visitors.updateEntity(«e», "Replace");
  await client.upsertEntity(t);
}
`,
    "ts/constant-partition-key",
  );
});

test("ts/constant-partition-key: a table written only with a few status constants is one warning naming its partitions, the other sites hints", () => {
  const found = fx.expect(
    "status.ts",
    `import { TableClient } from "@azure/data-tables";
const jobs = TableClient.fromConnectionString(process.env.CONN ?? "", "Jobs");
export async function flow(id: string, job: { rowKey: string }) {
  await jobs.createEntity({ partitionKey: «"pending"», rowKey: id });
  await jobs.upsertEntity({ ...job, partitionKey: «"done"» });
  await jobs.updateEntity({ partitionKey: «"failed"», rowKey: id, attempts: 1 });
  await jobs.createEntity({ partitionKey: «"pending"», rowKey: id + "-retry" });
}
`,
    "ts/constant-partition-key",
  );
  assert.deepEqual(
    found.map((f) => f.severity),
    ["warning", "hint", "hint", "hint"],
  );
  expectSaid(found[0], "wholeTable", {
    table: "Jobs",
    count: 3,
    others: ["line 5", "line 6", "line 7"],
    constants: ["pending", "done", "failed"],
  });
  assert.equal(
    found[2].message,
    'every entity written here gets the partition key "failed", like every write to table "Jobs": its constant partition key is reported at line 4.',
  );
});
