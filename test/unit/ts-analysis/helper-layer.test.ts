/**
 * The application's own layer: a read made in one helper and written back
 * through another, in each shape a callable takes (function declaration,
 * arrow in a variable, object-literal method), a read mapped to a record
 * before it is returned, an entity extended after it is built, and tables
 * that are fine: a constant side partition beside keyed rows.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { TsFixture } from "../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

const lines = (f: string, code: string) => {
  const text = readFileSync(f, "utf8");
  return fx.analyzer
    .analyze(f)
    .findings.filter((x) => x.code === code)
    .map((x) => text.slice(0, x.start).split("\n").length);
};

const STORE = `import { TableClient } from "@azure/data-tables";
const scores = TableClient.fromConnectionString(process.env.CONN ?? "", "Scores");
export interface Score { player: string; level: string; best: number; plays: number }
`;

// One read helper, one write helper, in three shapes of callable.
const SHAPES: Array<[string, string, string]> = [
  [
    "declarations",
    `export async function fetchScore(player: string, level: string) {
  return scores.getEntity<Score>(player, level);
}
export async function storeScore(entity: { partitionKey: string; rowKey: string; best: number; plays: number }) {
  await scores.upsertEntity(entity, "Replace");
}`,
    "fetchScore(p, l)|storeScore",
  ],
  [
    "arrows",
    `export const fetchScore = async (player: string, level: string) => scores.getEntity<Score>(player, level);
export const storeScore = async (entity: { partitionKey: string; rowKey: string; best: number; plays: number }) => {
  await scores.upsertEntity(entity, "Replace");
};`,
    "fetchScore(p, l)|storeScore",
  ],
  [
    "object-literal methods",
    `export const repo = {
  async fetchScore(player: string, level: string) {
    return scores.getEntity<Score>(player, level);
  },
  async storeScore(entity: { partitionKey: string; rowKey: string; best: number; plays: number }) {
    await scores.upsertEntity(entity, "Replace");
  },
};`,
    "repo.fetchScore(p, l)|repo.storeScore",
  ],
];

for (const [shape, helpers, calls] of SHAPES) {
  test(`read through one helper, written through another (${shape}): reported at the write`, () => {
    const [read, write] = calls.split("|");
    const from = shape === "object-literal methods" ? "repo" : "fetchScore, storeScore";
    fx.file(`store-${shape.replace(/ /g, "-")}.ts`, `${STORE}${helpers}\n`);
    const f = fx.file(
      `play-${shape.replace(/ /g, "-")}.ts`,
      `import { ${from} } from "./store-${shape.replace(/ /g, "-")}";
export async function play(p: string, l: string, points: number) {
  const before = await ${read};
  const best = Math.max(before.best, points);
  await ${write}({ partitionKey: p, rowKey: l, best, plays: before.plays + 1 });
}
`,
    );
    assert.deepEqual(lines(f, "ts/read-before-write"), [5]);
  });
}

test("a read mapped to a record before it is returned is still the read; keys compare in the caller's words", () => {
  const f = fx.file(
    "records.ts",
    `${STORE}
const rowOf = (id: string) => "s-" + id;
function toRecord(e: Score & { partitionKey: string; rowKey: string }) {
  return { id: e.rowKey, best: e.best, plays: e.plays };
}
export async function load(id: string) {
  try {
    const raw = await scores.getEntity<Score>("all", rowOf(id));
    const record = toRecord({ ...raw, partitionKey: raw.partitionKey!, rowKey: raw.rowKey! });
    return record;
  } catch {
    return null;
  }
}
export async function bump(input: { id: string }) {
  const current = await load(input.id);
  if (!current) return;
  await scores.upsertEntity({ partitionKey: "all", rowKey: rowOf(input.id), plays: current.plays + 1 }, "Replace");
}
export async function other(input: { id: string }, otherId: string) {
  const current = await load(input.id);
  if (!current) return;
  await scores.upsertEntity({ partitionKey: "all", rowKey: rowOf(otherId), plays: current.plays + 1 }, "Replace");
}
export async function guarded(input: { id: string }) {
  const current = await load(input.id);
  if (!current) return;
  await scores.updateEntity({ partitionKey: "all", rowKey: rowOf(input.id), plays: current.plays + 1 }, "Replace", { etag: "*" });
}
`,
  );
  // Only bump: other() writes another row, guarded() passes an ETag.
  assert.deepEqual(lines(f, "ts/read-before-write"), [21]);
});

test("an entity extended after it is built keeps its keys (a computed name with a known prefix sets no key)", () => {
  const f = fx.file(
    "extended.ts",
    `import { TableClient } from "@azure/data-tables";
const players = TableClient.fromConnectionString(process.env.CONN ?? "", "Players");

export async function save(player: string, extra: Record<string, number>) {
  const entity: Record<string, unknown> = { partitionKey: "players", rowKey: player };
  entity.updated = Date.now();
  for (const k of Object.keys(extra)) entity["extra_" + k] = extra[k];
  await players.upsertEntity(entity as { partitionKey: string; rowKey: string });
}
export async function unknowable(player: string, field: string) {
  const entity: Record<string, unknown> = { partitionKey: "players", rowKey: player };
  entity[field] = "x";
  await players.upsertEntity(entity as { partitionKey: string; rowKey: string });
}
`,
  );
  assert.deepEqual(lines(f, "ts/constant-partition-key"), [5]);
});

test("a constant side partition beside keyed rows of the same client is not 'the table is one partition'", () => {
  const f = fx.file(
    "side.ts",
    `${STORE}
export async function join(game: string, player: string) {
  await scores.upsertEntity({ partitionKey: game, rowKey: player, best: 0, plays: 0 });
  await scores.upsertEntity({ partitionKey: "index", rowKey: game, best: 0, plays: 0 });
}
`,
  );
  assert.deepEqual(lines(f, "ts/constant-partition-key"), []);
});

test("a key made from a Date parameter is the clock, in each view of it (ISO day, month, time)", () => {
  const f = fx.file(
    "dated.ts",
    `import { TableClient } from "@azure/data-tables";
const log = TableClient.fromConnectionString(process.env.CONN ?? "", "DayLog");
export async function byDay(at: Date, id: string) {
  await log.createEntity({ partitionKey: at.toISOString().slice(0, 10), rowKey: id });
}
export async function byMonth(when: Date, id: string) {
  await log.createEntity({ partitionKey: \`\${when.getUTCFullYear()}-\${when.getUTCMonth() + 1}\`, rowKey: id });
}
export async function byName(name: string, id: string) {
  await log.createEntity({ partitionKey: name.slice(0, 10), rowKey: id });
}
`,
  );
  assert.deepEqual(lines(f, "ts/append-only-key"), [4, 7]);
});

test("a number typed number that comes from a request body is an unpadded number, as a parameter typed number is", () => {
  const f = fx.file(
    "tickets.ts",
    `import { TableClient } from "@azure/data-tables";
const tickets = TableClient.fromConnectionString(process.env.CONN ?? "", "Tickets");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function open(req: { body: any }, project: string) {
  const n: number = req.body.n;
  await tickets.createEntity({ partitionKey: project, rowKey: String(n) });
}
export async function openTyped(n: number, project: string) {
  await tickets.createEntity({ partitionKey: project, rowKey: String(n) });
}
`,
  );
  assert.deepEqual(lines(f, "ts/unpadded-number"), [6, 9]);
});

test("a constant partition key with a constant row key is one row (a settings row), not a table in one partition", () => {
  const f = fx.file(
    "settings.ts",
    `import { TableClient } from "@azure/data-tables";
const settings = TableClient.fromConnectionString(process.env.CONN ?? "", "Settings");
const rounds = TableClient.fromConnectionString(process.env.CONN ?? "", "Rounds");
const SCOPE = "global";
export async function saveSettings(theme: string) {
  await settings.upsertEntity({ partitionKey: SCOPE, rowKey: "current", theme });
}
export async function nextRound(n: number) {
  await rounds.upsertEntity({ partitionKey: "round", rowKey: "current", n });
  await rounds.upsertEntity({ partitionKey: "round", rowKey: String(n).padStart(6, "0"), n });
}
`,
  );
  // Settings: one row. Rounds: the numbered rows all go to "round" too, which is one partition.
  assert.deepEqual(lines(f, "ts/constant-partition-key"), [10]);
});

test("several constant row keys under one constant partition key are several rows of one partition, not one row", () => {
  const f = fx.file(
    "shelves.js",
    `const { TableClient } = require("@azure/data-tables");
const shelves = TableClient.fromConnectionString(process.env.CONN, "Shelves");
const prefs = TableClient.fromConnectionString(process.env.CONN, "Prefs");
async function stock() {
  await shelves.createEntity({ partitionKey: "aisle", rowKey: "001", count: 4 });
  await shelves.createEntity({ partitionKey: "aisle", rowKey: "002", count: 9 });
  await prefs.upsertEntity({ partitionKey: "prefs", rowKey: "site", theme: "dark" });
  await prefs.upsertEntity({ partitionKey: "prefs", rowKey: "site", lang: "en" });
}
module.exports = { stock };
`,
  );
  assert.deepEqual(lines(f, "ts/constant-partition-key"), [5, 6]);
});

test("writes through one save(table, entity) helper are not one client: a constant table beside a keyed one is still reported", () => {
  fx.file(
    "save-helper.ts",
    `import { TableClient } from "@azure/data-tables";
export async function save(table: string, entity: { partitionKey: string; rowKey: string }) {
  await TableClient.fromConnectionString(process.env.CONN ?? "", table).upsertEntity(entity);
}
`,
  );
  const f = fx.file(
    "save-callers.ts",
    `import { save } from "./save-helper";
export const addUser = (email: string) => save(process.env.USERS ?? "Users", { partitionKey: "users", rowKey: email });
export const addOrder = (user: string, id: string) => save("Orders2", { partitionKey: user, rowKey: id });
`,
  );
  assert.deepEqual(lines(f, "ts/constant-partition-key"), [2]);
});

test("a write behind an interface's method (the one class that implements it with the SDK) is followed from the caller: a day key from a Date leads the partition", () => {
  fx.file(
    "visit-store.ts",
    `import { TableClient } from "@azure/data-tables";
export interface Visit { day: string; visitor: string; page: string }
export interface VisitStore {
  putVisit(v: Visit): Promise<void>;
}
export class TableVisitStore implements VisitStore {
  private readonly visits = TableClient.fromConnectionString(process.env.CONN ?? "", "Visits");
  async putVisit(v: Visit): Promise<void> {
    await this.visits.upsertEntity({ partitionKey: v.day, rowKey: \`\${v.visitor}-\${v.page}\` }, "Replace");
  }
}
export class MemoryVisitStore implements VisitStore {
  readonly rows: Visit[] = [];
  async putVisit(v: Visit): Promise<void> {
    this.rows.push(v);
  }
}
export const store: VisitStore = process.env.CONN ? new TableVisitStore() : new MemoryVisitStore();
`,
  );
  const f = fx.file(
    "visit-service.ts",
    `import { store, Visit } from "./visit-store";
const dayOf = (when: Date): string => when.toISOString().slice(0, 10);
export async function recordVisit(visitor: string, page: string, now = new Date()) {
  const visit: Visit = { day: dayOf(now), visitor, page };
  await store.putVisit(visit);
}
`,
  );
  const text = readFileSync(f, "utf8");
  const found = fx.analyzer
    .analyze(f)
    .findings.filter((x) => x.code === "ts/append-only-key")
    .concat(fx.analyzer.analyze(fx.dir + "/visit-store.ts").findings.filter((x) => x.code === "ts/append-only-key"));
  assert.equal(found.length, 1, text);
});

test("names taken out of an object literal by destructuring stand for its properties: the client, the options, a key, the entity", () => {
  const f = fx.file(
    "destructured.js",
    `const { TableClient } = require("@azure/data-tables");
const shelves = TableClient.fromConnectionString(process.env.CONN, "Shelves");
async function everything(kind) {
  const { client, options } = { client: shelves, options: { queryOptions: { filter: \`kind eq '\${kind}'\` } } };
  const out = [];
  for await (const row of client.listEntities(options)) out.push(row);
  return out;
}
async function restock(shop, item, qty) {
  const { pk, rk = item } = { pk: shop };
  const before = await shelves.getEntity(pk, rk);
  const { writer, entity } = { writer: shelves, entity: { partitionKey: shop, rowKey: item, units: before.units + qty } };
  await writer.upsertEntity(entity, "Replace");
}
module.exports = { everything, restock };
`,
  );
  assert.deepEqual(lines(f, "ts/table-scan"), [6]);
  assert.deepEqual(lines(f, "ts/read-before-write"), [11]);
});

test("a client reached through an untyped parameter's property (helper(this) reading self.client) is the SDK's when what every call passes has it; `${x}L` is an Int64 literal", () => {
  const f = fx.file(
    "self-client.js",
    `const { TableClient } = require("@azure/data-tables");
class Sessions {
  constructor(conn) {
    this.client = TableClient.fromConnectionString(conn, "sessions");
  }
  async stale(now = Date.now()) {
    const out = [];
    for await (const e of olderThan(this, now)) out.push(e.rowKey);
    return out;
  }
}
function olderThan(self, cutoff) {
  return self.client.listEntities({ queryOptions: { filter: \`expires lt \${cutoff}L\` } });
}
module.exports = { Sessions };
`,
  );
  assert.deepEqual(lines(f, "ts/table-scan"), [13]);
});
