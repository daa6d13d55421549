/**
 * Fuzzing the webview host with what a hostile or broken page could send:
 * random values, and valid explorer requests with one part broken (a field
 * dropped, replaced, added; an inherited method name; a wildcard ETag).
 * Invariants: the host never throws; a request with a usable id gets
 * exactly one answer; a handler only ever sees params of its declared
 * shape (ETags present and never `*`); and nothing the page sent is echoed
 * into a log line or an answer.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { EXPLORER_SHAPES } from "@client/explorer/shapes";
import type { Handlers } from "@client/webview-host/host";
import { fuzzAsync } from "../../helpers/fuzz";
import { hostOn } from "../../helpers/page-channel";

/** A value no rule would ever quote: if it shows up in a log or an answer, the host echoed the payload. */
const MARKER = "Zq8-marker-value-7Xw";
const ETAG = `W/"datetime'2026-01-02T03%3A04%3A05.6789012Z'"`;
const row = {
  partitionKey: "p",
  rowKey: "r",
  etag: ETAG,
  properties: { Age: { type: "Int32", value: "3" }, Name: { type: "String", value: "x" } },
};

/** One valid params object per explorer request, to break a piece of. */
const VALID: Record<string, Record<string, unknown>> = {
  "connect.emulator": {},
  "connect.prompt": {},
  "connection.select": { id: "c1" },
  "connection.remove": { id: "c1" },
  "tables.list": {},
  "table.create": { name: "Orders" },
  "table.delete": { name: "Orders" },
  "entities.page": { table: "Orders", continuationToken: "abc" },
  "entity.get": { table: "Orders", partitionKey: "p", rowKey: "r" },
  "entity.insert": { table: "Orders", row },
  "entity.update": { table: "Orders", row, etag: ETAG },
  "entities.delete": { table: "Orders", entities: [{ partitionKey: "p", rowKey: "r", etag: ETAG }] },
  "query.run": { table: "Orders", filter: "Age gt 3", select: ["Age"], limit: 10 },
  "columns.sample": { table: "Orders" },
  "import.plan": {
    table: "Orders",
    format: "json",
    choices: { nulls: "omit", nested: "refuse", zoneless: "utc", duplicateKeys: "refuse", duplicateProperties: "last" },
  },
  "import.run": {
    table: "Orders",
    plan: "0b5e3c1a-2d4f-4a6b-8c9d-0e1f2a3b4c5d",
    choices: { nulls: "refuse", nested: "json", zoneless: "refuse", duplicateKeys: "last", duplicateProperties: "refuse" },
  },
  "bulk.export": { table: "Orders" },
  "bulk.delete": { table: "Orders", filter: "Age gt 3" },
  "data.export": { table: "Orders", format: "csv", filter: "" },
  "design.infer": { table: "Orders" },
};
const METHODS = Object.keys(VALID);
const INHERITED = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "propertyIsEnumerable", "__lookupGetter__"];

const junk = fc.oneof(
  fc.anything(),
  fc.constant("*"),
  fc.constant(MARKER),
  fc.constant(` ${MARKER} `),
  fc.string(),
  fc.integer(),
  fc.constant(null),
);

/** Sets `value` at a random path inside `obj` (a copy), or deletes what is there. */
const broken = fc
  .tuple(fc.constantFrom(...METHODS), fc.nat(), fc.nat(), fc.constantFrom("replace", "delete", "add", "etag*"), junk)
  .map(([method, a, b, how, value]) => {
    const params = structuredClone(VALID[method]);
    const objects: Array<Record<string, unknown>> = [];
    const walk = (v: unknown) => {
      if (v && typeof v === "object") {
        objects.push(v as Record<string, unknown>);
        for (const x of Object.values(v)) walk(x);
      }
    };
    walk(params);
    const target = objects[a % objects.length];
    const keys = Object.keys(target);
    if (how === "add" || !keys.length) target[`f${b % 3}`] = value;
    else if (how === "delete") delete target[keys[b % keys.length]];
    else if (how === "etag*")
      for (const o of objects) {
        if ("etag" in o) o.etag = "*";
      }
    else target[keys[b % keys.length]] = value;
    return { method, params };
  });

const message = fc.oneof(
  { weight: 1, arbitrary: fc.anything() },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        type: fc.constantFrom("request", "ready", "response", MARKER),
        id: fc.oneof(fc.nat(), fc.anything()),
        method: fc.oneof(fc.constantFrom(...METHODS, ...INHERITED), fc.string(), fc.constant(MARKER)),
        params: junk,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 4, arbitrary: broken.map(({ method, params }) => ({ type: "request", id: 1, method, params })) },
  { weight: 1, arbitrary: fc.constantFrom(...INHERITED).map((method) => ({ type: "request", id: 1, method, params: {} })) },
);

test("the host survives any page message, answers each request once, and echoes nothing", async () => {
  let tried = 0;
  let reached = 0;
  await fuzzAsync(
    "webview-host",
    message,
    async (msg) => {
      tried++;
      const seen: Array<{ method: string; params: Record<string, unknown> }> = [];
      const handlers = Object.fromEntries(
        Object.keys(EXPLORER_SHAPES).map((m) => [
          m,
          async (params: Record<string, unknown>) => {
            seen.push({ method: m, params });
            return null;
          },
        ]),
      );
      const { host, channel, logs } = hostOn({
        view: "explorer",
        shapes: EXPLORER_SHAPES,
        handlers: handlers as unknown as Handlers<"explorer">,
        state: () => ({ connections: [] }),
      });
      channel.send({ type: "ready" });
      channel.send(msg);
      await host.settled();
      const m = msg as { type?: unknown; id?: unknown } | null;
      const usableId =
        !!m &&
        typeof m === "object" &&
        !Array.isArray(m) &&
        [Object.prototype, null].includes(Object.getPrototypeOf(m)) &&
        Object.hasOwn(m, "type") &&
        m.type === "request" &&
        typeof m.id === "number" &&
        Number.isSafeInteger(m.id) &&
        m.id >= 0;
      const answers = channel.posts.filter((p) => p.type === "response");
      assert.equal(answers.length, usableId ? 1 : 0, JSON.stringify(answers));
      assert.ok(seen.length <= 1);
      reached += seen.length;
      for (const { method, params } of seen) {
        assert.ok(Object.hasOwn(EXPLORER_SHAPES, method));
        assert.deepEqual(
          Object.keys(params).filter((k) => !Object.hasOwn(EXPLORER_SHAPES[method as keyof typeof EXPLORER_SHAPES], k)),
          [],
        );
        const etags = JSON.stringify(params).match(/"etag":"(?:[^"\\]|\\.)*"/g) ?? [];
        for (const e of etags) assert.match(e, /^"etag":"(W\/)?\\".*\\""$/, `${method} got ${e}`);
      }
      const said = [...logs, ...answers.map((a) => JSON.stringify(a))].join("\n");
      assert.ok(!said.includes(MARKER), said);
    },
    3000,
  );
  assert.ok(tried >= 3000);
  // Not vacuous: broken pieces that still fit their shape (a string for a string) do reach the handlers.
  assert.ok(reached > 100, `${reached} of ${tried} reached a handler`);
  console.log(`webview host: ${tried} page messages, ${reached} reached a handler, 0 crashes`);
});
