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

test("ts/read-before-write becomes one upsertEntity", () => {
  fx.fix(
    "o.ts",
    `${HEAD}
export async function save(o: Order) {
  const entity = { partitionKey: o.customer, rowKey: o.id, total: o.total };
  try {
    await client.getEntity(o.customer, o.id);
    await client.updateEntity(entity);
  } catch {
    await client.createEntity(entity);
  }
}
`,
    "ts/read-before-write",
    `${HEAD}
export async function save(o: Order) {
  const entity = { partitionKey: o.customer, rowKey: o.id, total: o.total };
  try {
    await client.upsertEntity(entity, "Merge");
  } catch {
    await client.createEntity(entity);
  }
}
`,
  );
});

test('ts/read-before-write: getEntity then upsertEntity(…, "Replace") of the same keys is a lost-update race', () => {
  fx.expect(
    "race.ts",
    `${HEAD}
export async function bump(o: Order) {
  const current = await «client.getEntity<{ hits: number }>(o.customer, o.id)»;
  await client.upsertEntity({ partitionKey: o.customer, rowKey: o.id, hits: current.hits + 1 }, "Replace");
}
export async function mutate(o: Order) {
  const e = await «client.getEntity<{ hits: number }>(o.customer, o.id)»;
  e.hits++;
  await client.updateEntity(e, "Replace");
}
`,
    "ts/read-before-write",
  );
});

test("correct code stays silent: the read's ETag, insert-if-absent, other keys", () => {
  fx.expect(
    "correct.ts",
    `${HEAD}
export async function guarded(o: Order) {
  const current = await client.getEntity<{ hits: number }>(o.customer, o.id);
  await client.updateEntity({ partitionKey: o.customer, rowKey: o.id, hits: current.hits + 1 }, "Replace", { etag: current.etag });
}
export async function destructured(o: Order) {
  const { etag, ...rest } = await client.getEntity<{ hits: number }>(o.customer, o.id);
  await client.updateEntity({ ...rest, hits: rest.hits + 1 }, "Merge", { etag });
}
export async function insertIfAbsent(o: Order) {
  try {
    await client.getEntity(o.customer, o.id);
    return false;
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode !== 404) throw e;
  }
  try {
    await client.createEntity({ partitionKey: o.customer, rowKey: o.id });
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 409) return false;
    throw e;
  }
  return true;
}
export async function other(o: Order) {
  await client.getEntity(o.customer, o.id);
  await client.upsertEntity({ partitionKey: o.customer, rowKey: "summary" }, "Replace");
}
`,
    "ts/read-before-write",
  );
});

test("ts/read-before-write fix for a read-modify-write passes the read's ETag, and keeps it type-correct", () => {
  fx.fix(
    "etag.ts",
    `${HEAD}
export async function bump(o: Order) {
  const current = await client.getEntity<{ hits: number }>(o.customer, o.id);
  await client.upsertEntity({ partitionKey: o.customer, rowKey: o.id, hits: current.hits + 1 }, "Replace");
}
`,
    "ts/read-before-write",
    `${HEAD}
export async function bump(o: Order) {
  const current = await client.getEntity<{ hits: number }>(o.customer, o.id);
  await client.updateEntity({ partitionKey: o.customer, rowKey: o.id, hits: current.hits + 1 }, "Replace", { etag: current.etag });
}
`,
  );
});

test("ts/read-before-write fix for an update-or-create that ignores the read keeps the mode", () => {
  fx.fix(
    "mode.ts",
    `${HEAD}
export async function put(o: Order) {
  await client.getEntity(o.customer, o.id);
  await client.upsertEntity({ partitionKey: o.customer, rowKey: o.id, total: o.total }, "Replace");
}
`,
    "ts/read-before-write",
    `${HEAD}
export async function put(o: Order) {
  await client.upsertEntity({ partitionKey: o.customer, rowKey: o.id, total: o.total }, "Replace");
}
`,
  );
});

test("ts/read-before-write needs a write built from the read: a read checked on its own, or whose keys only address a Merge, is no race", () => {
  fx.expect(
    "independent.ts",
    `${HEAD}
declare function expectEqual(a: unknown, b: unknown): void;
export async function roundTrip(o: Order) {
  const seen = await client.getEntity<{ note: string }>(o.customer, o.id);
  expectEqual(seen.note, "first");
  await client.upsertEntity({ partitionKey: o.customer, rowKey: o.id, note: "second" }, "Replace");
}
export async function reprice(o: Order) {
  const found = await client.getEntity<{ total: number }>(o.customer, o.id);
  await client.updateEntity({ partitionKey: found.partitionKey, rowKey: found.rowKey, total: 12 });
}
`,
    "ts/read-before-write",
  );
});

test("ts/read-before-write follows the read into a value made from it before the write", () => {
  fx.expect(
    "derived.ts",
    `${HEAD}
export async function bump(o: Order) {
  const before = await «client.getEntity<{ hits: number }>(o.customer, o.id)»;
  const after = { ...before, hits: before.hits + 1 };
  await client.upsertEntity(after, "Replace");
}
`,
    "ts/read-before-write",
  );
});

test("ts/read-before-write: a `let` given the read inside `try`, then a value derived from it written, is a read-modify-write", () => {
  const found = fx.expect(
    "let-read.ts",
    `${HEAD}
export async function flip(o: Order) {
  let current;
  try {
    current = await «client.getEntity<{ archived?: boolean }>(o.customer, o.id)»;
  } catch {
    return;
  }
  const archived = current.archived !== true;
  await client.upsertEntity({ partitionKey: o.customer, rowKey: o.id, archived }, "Merge");
}
`,
    "ts/read-before-write",
  );
  expectSaid(found[0], "readThenWrite", { usesRead: true });
});

test("ts/read-before-write: a check of the read's data that decides whether to write is a race, and no fix drops the read", () => {
  const source = `${HEAD}
export async function changeCode(o: Order, oldCode: string, newCode: string) {
  let owner;
  try {
    owner = await «client.getEntity<{ code?: string }>(o.customer, o.id)»;
  } catch {
    return false;
  }
  if (owner.code && owner.code !== oldCode) return false;
  await client.updateEntity({ partitionKey: o.customer, rowKey: o.id, code: newCode }, "Merge");
  return true;
}
export async function closeIfOpen(o: Order) {
  const order = await «client.getEntity<{ status: string }>(o.customer, o.id)»;
  if (order.status !== "open") return;
  await client.updateEntity({ partitionKey: o.customer, rowKey: o.id, status: "closed" }, "Merge");
}
`;
  const found = fx.expect("guard.ts", source, "ts/read-before-write");
  for (const f of found) {
    expectSaid(f, "readThenWrite", { usesRead: true });
    assert.ok(!(f.fixes ?? []).some((x) => /Drop the read/.test(x.title)), "a fix must not drop a check");
  }
});

test("ts/read-before-write: a helper that returns getEntity (null when absent) read, then a count built from it written with the same keys: reported at the write", () => {
  fx.expect(
    "helper-read.ts",
    `${HEAD}
async function lookup(pk: string, rk: string) {
  try {
    return await client.getEntity<{ seen?: number }>(pk, rk);
  } catch {
    return null;
  }
}
export async function count(o: Order) {
  const before = await lookup(o.customer, o.id);
  const seen = Number(before?.seen ?? 0) + 1;
  await «client.upsertEntity({ partitionKey: o.customer, rowKey: o.id, seen }, "Replace")»;
}
`,
    "ts/read-before-write",
  );
});

test("ts/read-before-write: a read in a branch that returns, and a write in another branch, are two requests", () => {
  fx.expect(
    "branches.ts",
    `${HEAD}
async function lookup(pk: string, rk: string) {
  try {
    return await client.getEntity<{ label?: string }>(pk, rk);
  } catch {
    return null;
  }
}
export async function handle(method: string, o: Order, label: string) {
  if (method === "GET") {
    const found = await lookup(o.customer, o.id);
    const shown = found && found.label;
    if (!shown) return 404;
    return shown;
  }
  await client.updateEntity({ partitionKey: o.customer, rowKey: o.id, label }, "Merge");
  return 204;
}
`,
    "ts/read-before-write",
  );
});

test("ts/read-before-write: a row picked out of a listing's array (find, [i]) and written back whole races like the listing's own rows", () => {
  fx.expect(
    "picked.ts",
    `${HEAD}
async function allOf(pk: string) {
  const out: Array<Record<string, unknown>> = [];
  for await (const e of client.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${pk}\` } })) out.push(e);
  return out;
}
export async function rename(o: Order, name: string) {
  const rows = await allOf(o.customer);
  const line = rows.find((r) => r.rowKey === o.id);
  if (!line) return;
  await «client.updateEntity({ ...line, name }, "Replace")»;
}
export async function firstToo(o: Order) {
  const rows = await allOf(o.customer);
  await «client.updateEntity({ ...rows[0], seen: true }, "Replace")»;
}
`,
    "ts/read-before-write",
  );
});

test("ts/read-before-write: an upsert made only when the read found nothing, of an entity that differs by caller, is insert-if-absent by upsert", () => {
  const found = fx.expect(
    "upsert-if-absent.ts",
    `${HEAD}
import { randomBytes } from "node:crypto";
export async function ticketFor(o: Order) {
  let ticket: { code: string } | null = null;
  try {
    ticket = await «client.getEntity<{ code: string }>("ticket", o.id)»;
  } catch {
    // not issued yet
  }
  if (!ticket) {
    const fresh = { partitionKey: "ticket", rowKey: o.id, code: randomBytes(8).toString("hex") };
    await client.upsertEntity(fresh);
    ticket = fresh;
  }
  return ticket.code;
}
export async function markerFor(o: Order) {
  let marker: { kind: string } | null = null;
  try {
    marker = await client.getEntity<{ kind: string }>("marker", o.id);
  } catch {
    // not seen yet
  }
  if (!marker) {
    const seen = { partitionKey: "marker", rowKey: o.id, kind: "seen", at: new Date().toISOString() };
    await client.upsertEntity(seen);
    marker = seen;
  }
  return marker.kind;
}
export async function claimFor(o: Order) {
  let claim: { code: string } | null = null;
  try {
    claim = await client.getEntity<{ code: string }>("claim", o.id);
  } catch {
    // none yet
  }
  if (!claim) {
    const fresh = { partitionKey: "claim", rowKey: o.id, code: randomBytes(8).toString("hex") };
    await client.createEntity(fresh);
    claim = fresh;
  }
  return claim.code;
}
`,
    "ts/read-before-write",
  );
  expectSaid(found[0], "createIfAbsent", {});
});

test("ts/read-before-write: a read that only says whether the entity exists, and decides whether or what to write, loses nothing", () => {
  fx.expect(
    "exists-only.ts",
    `${HEAD}
interface Reply { status: number; body?: string }
export async function register(o: Order, by: string) {
  const row: Record<string, unknown> = { partitionKey: o.customer, rowKey: o.id, total: o.total, editedBy: by };
  try {
    await client.getEntity(o.customer, o.id);
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) row.openedBy = by;
  }
  await client.upsertEntity(row, "Merge");
}
export async function confirm(o: Order): Promise<Reply> {
  let done: unknown = null;
  try {
    done = await client.getEntity("done", o.id);
  } catch {
    // not confirmed yet
  }
  if (done) return { status: 200, body: "already confirmed" };
  await client.upsertEntity({ partitionKey: "done", rowKey: o.id, at: new Date().toISOString() }, "Replace");
  return { status: 201 };
}
export async function rename(o: Order): Promise<Reply> {
  try {
    await client.getEntity(o.customer, o.id);
  } catch {
    return { status: 404 };
  }
  await client.updateEntity({ partitionKey: o.customer, rowKey: o.id, status: o.status }, "Merge");
  return { status: 204 };
}
export async function stamp(o: Order) {
  let seen: unknown = null;
  try {
    seen = await client.getEntity("seen", o.id);
  } catch {
    // first visit
  }
  if (!seen) {
    await client.upsertEntity({ partitionKey: "seen", rowKey: o.id, first: Date.now() }, "Replace");
  }
}
`,
    "ts/read-before-write",
  );
});

test("ts/read-before-write: an update-or-create decided by the read, and a read whose outcome changes nothing, are still said", () => {
  const found = fx.expect(
    "still-said.ts",
    `${HEAD}
export async function store(o: Order) {
  const entity = { partitionKey: o.customer, rowKey: o.id, total: o.total };
  const there = await «client.getEntity(o.customer, o.id)».catch(() => null);
  if (there) await client.updateEntity(entity, "Replace");
  else await client.createEntity(entity);
}
export async function overwrite(o: Order) {
  try {
    await «client.getEntity(o.customer, o.id)»;
  } catch {
    // whatever it was
  }
  await client.upsertEntity({ partitionKey: o.customer, rowKey: o.id, total: o.total }, "Replace");
}
`,
    "ts/read-before-write",
  );
  for (const f of found) expectSaid(f, "readThenWrite", { usesRead: false });
});
