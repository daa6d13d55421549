import { after, test } from "node:test";
import assert from "node:assert/strict";
import { TsFixture } from "../../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

const HEAD = `import { TableClient, TableTransaction, odata } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
interface Order { customer: string; bib: number; total: number; id: string; status: "open" | "openPaid" | "closed" }
`;

test("every listEntities and getEntity call is classified; unpinned filters are table scans", () => {
  const m = `${HEAD}
const OPEN = "status eq 'open'";
export async function read(o: Order) {
  client.«listEntities»({ queryOptions: { filter: odata\`PartitionKey eq \${o.customer} and RowKey eq \${o.id}\` } });
  client.«listEntities»({ queryOptions: { filter: odata\`PartitionKey eq \${o.customer}\` } });
  client.«listEntities»({ queryOptions: { filter: \`PartitionKey ge '\${o.customer}' and PartitionKey lt 'z'\` } });
  client.«listEntities»({ queryOptions: { filter: OPEN } });
  client.«listEntities»({ queryOptions: { filter: "PartitionKey eq 'a' or PartitionKey eq 'b'" } });
  client.«listEntities»();
  await client.«getEntity»(o.customer, o.id);
}
`;
  const found = fx.expect("m.ts", m, "ts/query-class");
  assert.deepEqual(
    found.map((f) => f.message),
    [
      "point",
      "row-range · 1 partition",
      "partition-range · several partitions",
      "table-scan · scans every partition",
      "table-scan · scans every partition",
      "table-scan · scans every partition",
      "point",
    ],
  );
  const scans = fx.analyzer.analyze(fx.file("m.ts", m.replace(/[«»]/g, ""))).findings.filter((f) => f.code === "ts/table-scan");
  assert.equal(scans.length, 3);
});

test("a filter from outside the code is 'not known statically', never a table scan", () => {
  const m = `${HEAD}
declare const req: { query: Record<string, string> };
export function pass(filter: string) {
  return client.«listEntities»({ queryOptions: { filter } });
}
export function fromUser() {
  return client.«listEntities»({ queryOptions: { filter: req.query.filter } });
}
export function built(extra: string, o: Order) {
  return client.«listEntities»({ queryOptions: { filter: \`PartitionKey eq '\${o.customer}' and \${extra}\` } });
}
export function options(opts: { queryOptions?: { filter?: string } }) {
  return client.«listEntities»(opts);
}
`;
  const found = fx.expect("unknown.ts", m, "ts/query-class");
  assert.ok(
    found.every((f) => f.message.startsWith("filter not known statically")),
    found.map((f) => f.message).join(" | "),
  );
  assert.deepEqual(
    fx.analyzer.analyze(fx.file("unknown.ts", m.replace(/[«»]/g, ""))).findings.filter((f) => f.code === "ts/table-scan"),
    [],
  );
});

test("filters are resolved through the shorthand, let, conditionals (worst branch), join and helpers", () => {
  const m = `${HEAD}
function byCustomer(c: string) { return odata\`PartitionKey eq \${c}\`; }
function and(a: string, b: string) { return a + " and " + b; }
export function read(o: Order, open: boolean) {
  const filter = odata\`PartitionKey eq \${o.customer}\`;
  client.«listEntities»({ queryOptions: { filter } });
  let once;
  once = "status eq 'open'";
  client.«listEntities»({ queryOptions: { filter: once } });
  client.«listEntities»({ queryOptions: { filter: open ? odata\`PartitionKey eq \${o.customer}\` : "status eq 'open'" } });
  client.«listEntities»({ queryOptions: { filter: [odata\`PartitionKey eq \${o.customer}\`, "RowKey ge 'a'"].join(" and ") } });
  client.«listEntities»({ queryOptions: { filter: and(byCustomer(o.customer), odata\`RowKey eq \${o.id}\`) } });
}
`;
  const found = fx.expect("resolve.ts", m, "ts/query-class");
  assert.deepEqual(
    found.map((f) => f.message),
    [
      "row-range · 1 partition",
      "table-scan · scans every partition",
      "table-scan · scans every partition",
      "row-range · 1 partition",
      "point",
    ],
  );
  const scans = fx.analyzer.analyze(fx.file("resolve.ts", m.replace(/[«»]/g, ""))).findings.filter((f) => f.code === "ts/table-scan");
  assert.equal(scans.length, 2);
  assert.match(scans[1].message, /the worst of 2 branches/);
});

test("'or' across run-time partition keys is a table scan; the same value twice is one partition; an empty filter scans", () => {
  const found = fx.expect(
    "or.ts",
    `${HEAD}
export function read(a: string, b: string) {
  client.«listEntities»({ queryOptions: { filter: odata\`PartitionKey eq \${a} or PartitionKey eq \${b}\` } });
  client.«listEntities»({ queryOptions: { filter: \`PartitionKey eq '\${a}' or PartitionKey eq '\${b}'\` } });
  client.«listEntities»({ queryOptions: { filter: odata\`PartitionKey eq \${a} or PartitionKey eq \${a}\` } });
  client.«listEntities»({ queryOptions: { filter: "" } });
}
`,
    "ts/query-class",
  );
  assert.deepEqual(
    found.map((f) => f.message),
    [
      "table-scan · scans every partition",
      "table-scan · scans every partition",
      "row-range · 1 partition",
      "table-scan · scans every partition",
    ],
  );
});

test("options with alternatives: a branch without a filter lists everything; a let written twice is two filters", () => {
  const m = `${HEAD}
export async function shelves(region?: string, onlyOpen?: boolean, wide = false) {
  client.«listEntities»({ queryOptions: region ? { filter: odata\`PartitionKey eq \${region}\` } : undefined });
  const options = region ? { queryOptions: { filter: odata\`PartitionKey eq \${region}\` } } : {};
  client.«listEntities»(options);
  const pinned = region ? { queryOptions: { filter: odata\`PartitionKey eq \${region}\` } } : { queryOptions: { filter: "PartitionKey eq 'all'" } };
  client.«listEntities»(pinned);
  let kind = odata\`PartitionKey eq 'stock'\`;
  if (onlyOpen) kind = odata\`PartitionKey eq 'stock' and open eq true\`;
  client.«listEntities»({ queryOptions: { filter: kind } });
  let broad = "open eq true";
  if (wide) broad = "open eq true or open eq false";
  client.«listEntities»({ queryOptions: { filter: broad } });
  client.«listEntities»(region && { queryOptions: { filter: odata\`PartitionKey eq \${region}\` } });
}
`;
  const found = fx.expect("alternatives.ts", m, "ts/query-class");
  assert.deepEqual(
    found.map((f) => f.message.split(" · ")[0]),
    ["table-scan", "table-scan", "row-range", "row-range", "table-scan", "table-scan"],
  );
  const scans = fx.analyzer
    .analyze(fx.file("alternatives.ts", m.replace(/[«»]/g, "")))
    .findings.filter((f) => f.code === "ts/table-scan")
    .map((f) => f.message);
  assert.equal(scans.length, 4);
  assert.match(scans[0], /one of its branches passes no filter/);
});

test("queries over the elements of a for…of: each element's filter, the worst one decides", () => {
  const m = `${HEAD}
export async function probe(shop: string) {
  const pinned = [
    { queryOptions: { filter: odata\`PartitionKey eq \${shop}\` }, expect: 1 },
    { queryOptions: { filter: odata\`PartitionKey eq \${shop} and RowKey ge 'a'\` }, expect: 2 },
  ];
  for (const c of pinned) client.«listEntities»({ queryOptions: c.queryOptions });
  const mixed = [{ queryOptions: { filter: odata\`PartitionKey eq \${shop}\` } }, { queryOptions: { filter: "true" } }];
  for (const c of mixed) client.«listEntities»(c);
  const pushed: Array<{ filter: string }> = [];
  pushed.push({ filter: "PartitionKey eq 'x'" });
  pushed.push({ filter: "PartitionKey eq 'y'" });
  for (const q of pushed) client.«listEntities»({ queryOptions: q });
}
`;
  const found = fx.expect("elements.ts", m, "ts/query-class");
  assert.deepEqual(
    found.map((f) => f.message.split(" · ")[0]),
    ["row-range", "table-scan", "row-range"],
  );
});

test("options changed after they are made, or passed through with ?? undefined, are not known: never a scan", () => {
  const m = `${HEAD}
export async function search(args: { filter?: string }, req: { query: Map<string, string> }) {
  const options = {};
  if (args.filter) (options as any).queryOptions = { filter: args.filter };
  client.«listEntities»(options);
  const more: { queryOptions?: { filter?: string } } = {};
  Object.assign(more, { queryOptions: { filter: args.filter } });
  client.«listEntities»(more);
  const given = req.query.get("filter") ?? undefined;
  client.«listEntities»({ queryOptions: { filter: given } });
}
`;
  const found = fx.expect("open.ts", m, "ts/query-class");
  assert.ok(
    found.every((f) => f.message.startsWith("filter not known statically")),
    found.map((f) => f.message).join(" | "),
  );
  assert.deepEqual(
    fx.analyzer.analyze(fx.file("open.ts", m.replace(/[«»]/g, ""))).findings.filter((f) => f.code === "ts/table-scan"),
    [],
  );
});

test("a bounded read of a listing without a filter is a probe, not a scan: the first entity, a cap of N, one next(), one page; a cap over what a client-side check keeps is not a bound", () => {
  fx.expect(
    "probes.ts",
    `import { TableClient } from "@azure/data-tables";
const feed = TableClient.fromConnectionString(process.env.CONN ?? "", "Feed");
const LATEST = 50;
export async function anyOne() {
  for await (const item of feed.listEntities()) return item;
  return undefined;
}
export async function latest() {
  const items: unknown[] = [];
  for await (const item of feed.listEntities()) {
    items.push(item);
    if (items.length >= LATEST) break;
  }
  return items;
}
export async function peek() {
  const it = feed.listEntities();
  return (await it.next()).value;
}
export async function firstPage() {
  return (await feed.listEntities().byPage({ maxPageSize: 20 }).next()).value;
}
export async function everything() {
  const all: unknown[] = [];
  for await (const item of feed.«listEntities»()) all.push(item);
  return all;
}
export async function skipping() {
  for await (const item of feed.«listEntities»<{ hidden?: boolean }>()) {
    if (item.hidden) continue;
    return item;
  }
  return undefined;
}
export async function firstMatch() {
  for await (const item of feed.«listEntities»({ queryOptions: { filter: "kind eq 'alert'" } })) return item;
  return undefined;
}
export async function resume(token: string) {
  return (await feed.«listEntities»().byPage({ maxPageSize: 20, continuationToken: token }).next()).value;
}
export async function pageByPage() {
  let token: string | undefined;
  do {
    const page = (await feed.«listEntities»().byPage({ maxPageSize: 20 }).next()).value;
    token = page?.continuationToken;
  } while (token);
}
export async function cappedButSkipping() {
  const kept: unknown[] = [];
  for await (const item of feed.«listEntities»<{ kind?: string }>()) {
    if (item.kind !== "news") continue;
    kept.push(item);
    if (kept.length >= LATEST) break;
  }
  return kept;
}
export async function tooMany() {
  let n = 0;
  for await (const item of feed.«listEntities»()) {
    void item;
    if (++n > 5000) break;
  }
}
`,
    "ts/table-scan",
  );
  const f = fx.file(
    "probe-lens.ts",
    `import { TableClient } from "@azure/data-tables";
const feed = TableClient.fromConnectionString(process.env.CONN ?? "", "Feed");
export async function peek() {
  for await (const item of feed.listEntities()) return item;
  return undefined;
}
`,
  );
  const [q] = fx.analyzer.analyze(f).queries;
  assert.equal(q.classification?.reasons[0], "a bounded read: no filter, and the code stops after the first entity (one request)");
});

test("options whose filter is set after they are made: a filter set on every path counts, one set under a condition leaves the other path a scan unless it is the caller's", () => {
  fx.expect(
    "later-filter.ts",
    `import { TableClient } from "@azure/data-tables";
const visits = TableClient.fromConnectionString(process.env.CONN ?? "", "Visits");
export async function always(site: string) {
  const queryOptions: { filter?: string } = {};
  queryOptions.filter = \`PartitionKey eq '\${site}'\`;
  return visits.listEntities({ queryOptions });
}
export async function onlyWhenAsked(site?: string) {
  const queryOptions: { filter?: string } = {};
  if (site) {
    queryOptions.filter = \`PartitionKey eq '\${site}'\`;
  }
  return visits.«listEntities»({ queryOptions });
}
export async function nested(site: string | undefined) {
  const options: { queryOptions?: { filter?: string } } = {};
  if (site) options.queryOptions = { filter: \`PartitionKey eq '\${site}'\` };
  return visits.«listEntities»(options);
}
export async function callersFilter(filter?: string) {
  const options: { queryOptions?: { filter?: string } } = {};
  if (filter) options.queryOptions = { filter };
  return visits.listEntities(options);
}
`,
    "ts/table-scan",
  );
  const f = fx.file(
    "later-filter-reason.ts",
    `import { TableClient } from "@azure/data-tables";
const visits = TableClient.fromConnectionString(process.env.CONN ?? "", "Visits");
export function list(site?: string) {
  const queryOptions: { filter?: string } = {};
  if (site) queryOptions.filter = \`PartitionKey eq '\${site}'\`;
  return visits.listEntities({ queryOptions });
}
`,
  );
  const [q] = fx.analyzer.analyze(f).queries;
  assert.equal(q.classification?.reasons[0], "one of its branches passes no filter: every entity of every partition is listed");
});
