/**
 * The webview host against a hostile page: every message is checked before
 * a handler runs, refusals get an error answer (when there is an id to
 * answer) and a log line that names the rule, never the payload. Driven
 * with the real explorer controller and its declared shapes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ExplorerController } from "@client/explorer/controller";
import report from "@client/pages/report";
import { servePage } from "../../helpers/page-services";
import { LIMITS } from "@protocol/pages";
import { MemoryStore, ScriptedUi } from "../../helpers/memory-store";
import { hostOn, spied } from "../../helpers/page-channel";

/** The stress report's spec with no runs, whose heatmap button runs `openHeatmap`. */
const reportView = (openHeatmap: () => Promise<unknown>) =>
  servePage(report, { execute: openHeatmap }, { title: "Stress test", runs: [] }).spec;

const ETAG = `W/"datetime'2026-01-02T03%3A04%3A05.6789012Z'"`;
const row = { partitionKey: "p1", rowKey: "r1", properties: { Age: { type: "Int32", value: "33" } } };

function explorer() {
  const controller = new ExplorerController(new MemoryStore(), new ScriptedUi(undefined as never), () => undefined);
  const { spec, calls } = spied(controller.view());
  const h = hostOn(spec);
  h.channel.send({ type: "ready" });
  let id = 0;
  /** Sends one request; resolves with its answers once the host has settled. */
  const ask = async (method: unknown, params: unknown, extra: Record<string, unknown> = {}) => {
    const n = ++id;
    h.channel.send({ type: "request", id: n, method, params, ...extra });
    await h.host.settled();
    return h.channel.answers(n);
  };
  return { ...h, calls, ask };
}

const refusal = (error: string) => [{ type: "response", id: 1, ok: false, kind: "usage", error: `refused: ${error}` }];

test("the handshake sends the view's state; events wait for it", () => {
  const { spec } = spied(new ExplorerController(new MemoryStore(), new ScriptedUi(undefined as never), () => undefined).view());
  const { host, channel } = hostOn(spec);
  host.emit({ type: "progress", operation: "import", done: 1 });
  assert.deepEqual(channel.posts, [], "no event before the page is ready");
  channel.send({ type: "ready" });
  host.emit({ type: "progress", operation: "import", done: 2 });
  assert.deepEqual(channel.posts, [
    { type: "init", view: "explorer", state: { connections: [], active: undefined } },
    { type: "event", event: { type: "progress", operation: "import", done: 2 } },
  ]);
});

test("unknown methods and inherited names are refused, never called", async () => {
  for (const method of [
    "nope",
    "constructor",
    "__proto__",
    "toString",
    "hasOwnProperty",
    "valueOf",
    "isPrototypeOf",
    "__defineGetter__",
    "heatmap.open",
  ]) {
    const e = explorer();
    assert.deepEqual(await e.ask(method, {}), refusal(`unknown request '${method}' for the explorer page`), method);
    assert.deepEqual(e.calls, []);
    assert.match(e.logs.at(-1)!, new RegExp(`^\\[explorer\\] refused request 1 \\(${method.replace(/\$/g, "\\$")}\\): unknown request`));
  }
});

test("messages without a valid id are logged and not answered", async () => {
  const e = explorer();
  for (const bad of [
    null,
    42,
    "ready",
    [],
    { type: "request", method: "tables.list", params: {} },
    { type: "request", id: "1", method: "tables.list", params: {} },
    { type: "request", id: -1, method: "tables.list", params: {} },
    { type: "request", id: 1.5, method: "tables.list", params: {} },
    { type: "hello" },
    {},
  ]) {
    e.channel.send(bad);
  }
  await e.host.settled();
  assert.deepEqual(
    e.channel.posts.filter((p) => p.type === "response"),
    [],
  );
  assert.deepEqual(e.calls, []);
  assert.equal(e.logs.length, 10);
  assert.ok(
    e.logs.every((l) => l.startsWith("[explorer] refused a message: ")),
    e.logs.join("\n"),
  );
});

test("oversized and deeply nested requests are refused before they are read", async () => {
  const e = explorer();
  assert.deepEqual(
    await e.ask("query.run", { table: "Orders", filter: "x".repeat(LIMITS.requestChars + 1) }),
    refusal("params are larger than 4,194,304 characters"),
  );
  let deep: unknown = "x";
  for (let i = 0; i < 100_000; i++) deep = { a: deep };
  const [nested] = await e.ask("query.run", deep);
  assert.deepEqual(nested, { type: "response", id: 2, ok: false, kind: "usage", error: "refused: params nest deeper than 12 levels" });
  const [wide] = await e.ask("entities.delete", { table: "Orders", entities: new Array(LIMITS.requestChars + 1).fill(0) });
  assert.match((wide as { error: string }).error, /larger than/);
  const [filter] = await e.ask("query.run", { table: "Orders", filter: "x".repeat(LIMITS.filter + 1) });
  assert.match((filter as { error: string }).error, /^refused: params\.filter: is longer than 32,768 characters$/);
  const properties = Object.fromEntries(Array.from({ length: 253 }, (_, i) => [`P${i}`, { type: "String", value: "" }]));
  const [many] = await e.ask("entity.insert", { table: "Orders", row: { ...row, properties } });
  assert.equal((many as { error: string }).error, "refused: params.row.properties: has more than 252 entries");
  const [rows] = await e.ask("entities.delete", {
    table: "Orders",
    entities: Array(LIMITS.entitiesPerRequest + 1).fill({ partitionKey: "p", rowKey: "r", etag: ETAG }),
  });
  assert.equal((rows as { error: string }).error, "refused: params.entities: has more than 10,000 items");
  assert.deepEqual(e.calls, []);
});

test("updates and deletes need the ETag they read: never '*', never missing", async () => {
  const cases: Array<[unknown, string]> = [
    [{ table: "Orders", row, etag: "*" }, "params.etag: a wildcard ('*') matches any version: send the ETag the entity was read with"],
    [{ table: "Orders", row, etag: " * " }, "params.etag: a wildcard ('*') matches any version: send the ETag the entity was read with"],
    [{ table: "Orders", row }, "params.etag: is required"],
    [{ table: "Orders", row, etag: "" }, "params.etag: must not be empty"],
    [{ table: "Orders", row, etag: 7 }, "params.etag: must be a string"],
    [{ table: "Orders", row, etag: `${ETAG}, *` }, `params.etag: is not an ETag as the service sends it (W/"…")`],
  ];
  for (const [params, error] of cases) {
    const e = explorer();
    assert.deepEqual(await e.ask("entity.update", params), refusal(error), JSON.stringify(params));
    assert.deepEqual(e.calls, []);
  }
  for (const entities of [[{ partitionKey: "p", rowKey: "r" }], [{ partitionKey: "p", rowKey: "r", etag: "*" }]]) {
    const e = explorer();
    const [answer] = await e.ask("entities.delete", { table: "Orders", entities });
    assert.match((answer as { error: string }).error, /^refused: params\.entities\[0\]\.etag: (is required|a wildcard)/);
    assert.deepEqual(e.calls, []);
  }
  // The ETag as the service sends it reaches the handler (which fails here only for want of a connection).
  const e = explorer();
  const [answer] = await e.ask("entity.update", { table: "Orders", row: { ...row, etag: ETAG }, etag: ETAG });
  assert.deepEqual(answer, {
    type: "response",
    id: 1,
    ok: false,
    kind: "usage",
    error: "no connection: connect to an account or start the emulator first",
  });
  assert.deepEqual(e.calls, [{ method: "entity.update", params: { table: "Orders", row: { ...row, etag: ETAG }, etag: ETAG } }]);
});

test("wrong types, unknown fields and odd names are refused with where and why", async () => {
  const cases: Array<[string, unknown, string]> = [
    ["tables.list", { evil: 1 }, "params: has no field 'evil'"],
    ["tables.list", [], "params: must be an object"],
    ["tables.list", undefined, "params: must be an object"],
    ["query.run", { table: 42, filter: "" }, "params.table: must be a string"],
    [
      "query.run",
      { table: "../Orders", filter: "" },
      "params.table: is not a table name (letters, digits and underscores, not starting with a digit)",
    ],
    ["query.run", { table: "Orders", filter: "", limit: "10" }, "params.limit: must be an integer"],
    ["query.run", { table: "Orders", filter: "", limit: 1.5 }, "params.limit: must be an integer"],
    ["query.run", { table: "Orders", filter: "", limit: LIMITS.queryRows + 1 }, "params.limit: must be from 1 to 100,000"],
    ["query.run", { table: "Orders", filter: "", select: "Age" }, "params.select: must be a list"],
    ["query.run", { table: "Orders" }, "params.filter: is required"],
    ["data.export", { table: "Orders", format: "xml" }, "params.format: must be one of json, csv"],
    [
      "entity.insert",
      { table: "Orders", row: { ...row, properties: { Age: { type: "Int128", value: "1" } } } },
      "params.row.properties.Age.type: must be one of String, Int32, Int64, Double, Boolean, DateTime, Guid, Binary",
    ],
    [
      "entity.insert",
      { table: "Orders", row: { ...row, properties: { RowKey: { type: "String", value: "x" } } } },
      "params.row.properties name 'RowKey': is reserved: PartitionKey, RowKey, Timestamp and ETag are not properties",
    ],
    [
      "entity.insert",
      JSON.parse(`{"table":"Orders","row":{"partitionKey":"p","rowKey":"r","properties":{"__proto__":{"type":"String","value":"x"}}}}`),
      "params.row.properties name '__proto__': is reserved: PartitionKey, RowKey, Timestamp and ETag are not properties",
    ],
    [
      "entity.insert",
      { table: "Orders", row: { ...row, partitionKey: "k".repeat(LIMITS.key + 1) } },
      "params.row.partitionKey: is longer than 1,024 characters",
    ],
  ];
  for (const [method, params, error] of cases) {
    const e = explorer();
    assert.deepEqual(await e.ask(method, params), refusal(error), `${method} ${error}`);
    assert.deepEqual(e.calls, []);
  }
  const e = explorer();
  assert.deepEqual(await e.ask("tables.list", {}, { extra: true }), refusal("the request has an unknown field 'extra'"));
});

test("logs and answers name the rule, never the payload", async () => {
  const secret = "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=c2VjcmV0LWtleS1ub3QtZm9yLWxvZ3M=";
  const e = explorer();
  await e.ask("tables.list", { connectionString: secret });
  await e.ask(secret, {});
  await e.ask("AccountKey=c2VjcmV0LWtleS1ub3Q=", {});
  await e.ask("query.run", { table: "Orders", filter: secret, limit: secret });
  const seen = [...e.logs, ...e.channel.posts.map((p) => JSON.stringify(p))].join("\n");
  assert.doesNotMatch(seen, /c2VjcmV0|AccountKey=/);
  assert.match(seen, /unknown request 'a name of 31 characters'/);
});

test("requests before the handshake, after dispose, or beyond the in-flight bound are refused", async () => {
  const never = new Promise<void>(() => undefined);
  const { spec, calls } = spied(reportView(() => never));
  const { host, channel, logs } = hostOn(spec);
  channel.send({ type: "request", id: 1, method: "heatmap.open", params: {} });
  assert.deepEqual(channel.answers(1), [
    { type: "response", id: 1, ok: false, kind: "usage", error: "refused: the page has not said it is ready" },
  ]);
  channel.send({ type: "ready" });
  for (let id = 2; id < 2 + LIMITS.inFlight; id++) channel.send({ type: "request", id, method: "heatmap.open", params: {} });
  assert.equal(calls.length, LIMITS.inFlight);
  channel.send({ type: "request", id: 2, method: "heatmap.open", params: {} });
  assert.deepEqual(channel.answers(2), [
    { type: "response", id: 2, ok: false, kind: "usage", error: "refused: request id 2 is already in use" },
  ]);
  channel.send({ type: "request", id: 99, method: "heatmap.open", params: {} });
  assert.deepEqual(channel.answers(99), [
    { type: "response", id: 99, ok: false, kind: "usage", error: "refused: more than 32 requests at once" },
  ]);
  host.dispose();
  assert.equal(channel.listening, false, "the host stopped listening");
  host.receive({ type: "request", id: 100, method: "heatmap.open", params: {} });
  assert.deepEqual(channel.answers(100), []);
  assert.equal(calls.length, LIMITS.inFlight);
  assert.match(logs.at(-1)!, /after the panel was closed/);
});

test("a failing handler answers with its message, a bug is logged with its stack, and a closed panel gets nothing", async () => {
  let release: () => void = () => undefined;
  const spec = reportView(async () => {
    await new Promise<void>((r) => {
      release = r;
    });
    throw new TypeError("cannot read properties of undefined");
  });
  const { host, channel, logs } = hostOn(spec);
  channel.send({ type: "ready" });
  channel.send({ type: "request", id: 1, method: "heatmap.open", params: {} });
  release();
  await host.settled();
  assert.deepEqual(channel.answers(1), [
    { type: "response", id: 1, ok: false, kind: "internal", error: "cannot read properties of undefined" },
  ]);
  assert.match(logs.at(-1)!, /^\[report\] heatmap\.open failed: TypeError: cannot read properties of undefined\n\s+at /);
  channel.send({ type: "request", id: 2, method: "heatmap.open", params: {} });
  host.dispose();
  release();
  await host.settled();
  assert.deepEqual(channel.answers(2), [], "no answer to a closed panel");
  // Posting to a webview VS Code already disposed throws: logged, not thrown.
  const late = hostOn(reportView(async () => undefined));
  late.channel.failPosts = true;
  late.channel.send({ type: "ready" });
  assert.match(late.logs.at(-1)!, /could not post to the page: Webview is disposed/);
});

test("a page that keeps sending junk does not flood the log", () => {
  const { host, channel, logs } = hostOn(reportView(async () => undefined));
  channel.send({ type: "ready" });
  for (let id = 1; id <= 5000; id++) channel.send({ type: "request", id, method: "entities.delete", params: {} });
  assert.equal(channel.posts.filter((p) => p.type === "response" && !p.ok).length, 5000, "every request is still answered");
  assert.equal(logs.length, 105);
  assert.match(logs.at(-1)!, /\(5,000 refused so far\)$/);
  host.dispose();
});
