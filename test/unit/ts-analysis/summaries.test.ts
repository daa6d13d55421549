/**
 * Reads and writes through the application's own helpers (issue #19, 2):
 * each idiom written here in our own words, in TypeScript and JavaScript.
 * A helper that writes what it is given is seen writing at each call, with
 * that call's arguments; a read that reaches a write — through a helper's
 * return, a `let` assigned in `try`, a row of a listing — is a read before
 * a write.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Finding } from "@core";
import { TsFixture } from "../../helpers/typescript";
import { expectSaid } from "../../helpers/analysis";

const fx = new TsFixture();
after(() => fx.dispose());

const textOf = (file: string, f: Finding) => readFileSync(file, "utf8").slice(f.start, f.end);

const codes = (file: string, code: string) =>
  fx.analyzer
    .analyze(file)
    .findings.filter((f) => f.code === code)
    .map((f) => [f.severity, textOf(file, f)]);

test("a save(table, entity) wrapper: each call writes its own entity; its constant key is reported at the call", () => {
  fx.file(
    "store.ts",
    `import { TableClient } from "@azure/data-tables";
export const audit = TableClient.fromConnectionString(process.env.CONN ?? "", "Audit");
export async function save(table: TableClient, entity: { partitionKey: string; rowKey: string; [k: string]: unknown }) {
  await table.upsertEntity(entity, "Merge");
}
`,
  );
  const caller = fx.file(
    "record.ts",
    `import { audit, save } from "./store";
export async function record(what: string, at: number) {
  await save(audit, { partitionKey: "all", rowKey: String(at).padStart(15, "0"), what });
}
`,
  );
  assert.deepEqual(codes(caller, "ts/constant-partition-key"), [["warning", '"all"']]);
});

test("a repository writes the object a service builds: the service's day bucket is the key's clock", () => {
  fx.file(
    "visits-repo.ts",
    `import { TableClient } from "@azure/data-tables";
export interface Visit { day: string; page: string; id: string }
export class VisitsRepository {
  private readonly table = TableClient.fromConnectionString(process.env.CONN ?? "", "Visits");
  async add(visit: Visit) {
    await this.table.createEntity({ partitionKey: visit.day, rowKey: visit.id, page: visit.page });
  }
}
`,
  );
  const service = fx.file(
    "visits-service.ts",
    `import { VisitsRepository } from "./visits-repo";
const repo = new VisitsRepository();
export async function track(page: string, id: string) {
  const visit = { day: new Date().toISOString().slice(0, 10), page, id };
  await repo.add(visit);
}
`,
  );
  assert.deepEqual(codes(service, "ts/append-only-key"), [["warning", "new Date().toISOString().slice(0, 10)"]]);
});

test("read then write through helpers and lets: load() returning getEntity, a let assigned in try, rows written back", () => {
  const f = fx.file(
    "coins.ts",
    `import { TableClient } from "@azure/data-tables";
const coins = TableClient.fromConnectionString(process.env.CONN ?? "", "Coins");
const archive = TableClient.fromConnectionString(process.env.CONN ?? "", "Archive");
async function load(owner: string, id: string) {
  return coins.getEntity<{ balance: number }>(owner, id);
}
export async function credit(owner: string, id: string, amount: number) {
  const wallet = await load(owner, id);
  await coins.upsertEntity({ ...wallet, balance: wallet.balance + amount }, "Replace");
}
export async function touch(owner: string, id: string) {
  let seen;
  try {
    seen = await coins.getEntity<{ visits: number }>(owner, id);
  } catch {
    // not there yet
  }
  await coins.upsertEntity({ partitionKey: owner, rowKey: id, ...seen, last: Date.now() }, "Replace");
}
export async function settle(owner: string) {
  for await (const row of coins.listEntities<{ settled?: boolean }>({ queryOptions: { filter: \`PartitionKey eq '\${owner}'\` } })) {
    row.settled = true;
    await coins.updateEntity(row, "Replace");
  }
}
export async function copy(owner: string) {
  for await (const row of coins.listEntities({ queryOptions: { filter: \`PartitionKey eq '\${owner}'\` } })) await archive.upsertEntity(row, "Replace");
}
export async function guarded(owner: string, id: string) {
  const wallet = await load(owner, id);
  await coins.updateEntity({ ...wallet, balance: 0 }, "Replace", { etag: wallet.etag });
}
`,
  );
  const found = fx.analyzer.analyze(f).findings.filter((x) => x.code === "ts/read-before-write");
  assert.deepEqual(
    found.map((x) => textOf(f, x).split("(")[0]),
    ["coins.upsertEntity", "coins.getEntity<{ visits: number }>", "coins.listEntities<{ settled?: boolean }>"],
  );
  expectSaid(found[0], "writtenBack", { read: "elsewhere", place: "load()", method: "upsertEntity" });
  expectSaid(found[2], "writtenBack", { read: "row", method: "updateEntity" });
});

test("entities pushed to an array and written in a loop keep their keys", () => {
  const f = fx.file(
    "queue.ts",
    `import { TableClient } from "@azure/data-tables";
const jobs = TableClient.fromConnectionString(process.env.CONN ?? "", "Jobs");
export async function enqueue(ids: string[]) {
  const pending: Array<{ partitionKey: string; rowKey: string }> = [];
  for (const id of ids) pending.push({ partitionKey: "queued", rowKey: id });
  for (const job of pending) await jobs.upsertEntity(job);
}
`,
  );
  assert.deepEqual(codes(f, "ts/constant-partition-key"), [["warning", '"queued"']]);
});

test("String(row.id) with row typed any takes the number type of what the caller passes", () => {
  const f = fx.file(
    "rows.ts",
    `import { TableClient } from "@azure/data-tables";
const orders = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function rowKeyOf(row: any) {
  return String(row.id);
}
export async function put(order: { customer: string; id: number }) {
  await orders.createEntity({ partitionKey: order.customer, rowKey: rowKeyOf(order) });
}
`,
  );
  assert.deepEqual(codes(f, "ts/unpadded-number"), [["warning", "String(row.id)"]]);
});

test("JavaScript: a save(table, entity) wrapper with untyped parameters, called with a constant key", () => {
  fx.file(
    "helpers.js",
    `const { TableClient } = require("@azure/data-tables");
const events = TableClient.fromConnectionString(process.env.CONN || "", "Events");
async function save(table, entity) {
  await table.upsertEntity(entity);
}
module.exports = { events, save };
`,
  );
  const caller = fx.file(
    "log.js",
    `const { events, save } = require("./helpers");
async function log(kind, id) {
  await save(events, { partitionKey: "events", rowKey: id, kind });
}
module.exports = { log };
`,
  );
  assert.deepEqual(codes(caller, "ts/constant-partition-key"), [["warning", '"events"']]);
});

test("a helper that reads and writes back on its own is reported in the helper, not again at each of its callers", () => {
  const helper = fx.file(
    "profiles.ts",
    `import { TableClient } from "@azure/data-tables";
const profiles = TableClient.fromConnectionString(process.env.CONN ?? "", "Profiles");
async function fetchProfile(user: string) {
  return profiles.getEntity<{ seen: number }>("p", user);
}
async function store(entity: { partitionKey: string; rowKey: string; seen: number; by: string }) {
  await profiles.upsertEntity(entity, "Replace");
}
export async function markSeen(user: string) {
  const profile = await fetchProfile(user);
  await store({ ...profile, seen: profile.seen + 1, by: user });
}
`,
  );
  const route = fx.file(
    "route.ts",
    `import { markSeen } from "./profiles";
export async function onVisit(user: string) {
  await markSeen(user);
}
`,
  );
  assert.deepEqual(codes(route, "ts/read-before-write"), []);
  assert.deepEqual(codes(helper, "ts/read-before-write"), [["info", "store({ ...profile, seen: profile.seen + 1, by: user })"]]);
});
