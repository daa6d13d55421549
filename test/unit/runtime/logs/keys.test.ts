/**
 * Which partition a log line names, from the most direct evidence it holds:
 * a point operation's URI, an insert's object key, the PartitionKey a
 * `$filter` pins (or the range it bounds), a continuation token's
 * NextPartitionKey (Azure's `1!<n>!<base64>` and Azurite's plain base64);
 * and a batch counted as what it is — one request, its operations its
 * entities.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { storageRecord } from "@runtime/logs/attribute";
import { decodeContinuation, keysFromUri } from "@runtime/logs/uri-keys";
import { readLogHeatmap } from "@runtime/logs/read-logs";

const T = Date.UTC(2026, 10, 24, 13, 0, 0);
const URI = "https://acct.table.core.windows.net";
const record = (operation: string, uri: string, objectKey?: string, status = 200) =>
  storageRecord({ time: T, operation, uri: `${URI}${uri}`, objectKey, status });

test("a point operation's keys come from its URI, quotes and percent-escapes undone", () => {
  const r = record("QueryEntity", "/Orders(PartitionKey='O''Brien%2F',RowKey='1')");
  assert.deepEqual([r.table, r.partitionKey, r.via, r.op], ["Orders", "O'Brien/", "uri", "read"]);
  const path = record("DeleteEntity", "/acct/Orders(PartitionKey='2026',RowKey='a')?timeout=30", undefined, 204);
  assert.deepEqual([path.table, path.partitionKey, path.op], ["Orders", "2026", "write"]);
});

test("an insert's keys travel in its body: the object key names them", () => {
  const r = record("InsertEntity", "/Orders", "/acct/Orders/shop-7/order-1", 201);
  assert.deepEqual([r.table, r.partitionKey, r.via], ["Orders", "shop-7", "object-key"]);
});

test("a query page: the PartitionKey its $filter pins, else the range it bounds, else where its continuation starts", () => {
  const eq = record("QueryEntities", "/Orders()?$filter=PartitionKey%20eq%20'shop-3'%20and%20RowKey%20ge%20'a'");
  assert.deepEqual([eq.partitionKey, eq.via, eq.queryClass], ["shop-3", "filter", "row-range"]);
  const range = record("QueryEntities", "/Orders()?$filter=PartitionKey%20ge%20'2026-11'%20and%20PartitionKey%20lt%20'2026-12'");
  assert.equal(range.partitionKey, undefined);
  assert.deepEqual([range.range, range.queryClass], [{ from: "2026-11", to: "2026-12" }, "partition-range"]);
  // The second page of the same query names the partition the service continues in.
  const next = Buffer.from("2026-11-17").toString("base64").replace(/=/g, "*");
  const page2 = record(
    "QueryEntities",
    `/Orders()?$filter=PartitionKey%20ge%20'2026-11'&NextPartitionKey=1!16!${next}&NextRowKey=1!4!YQ--`,
  );
  assert.deepEqual([page2.partitionKey, page2.via, page2.range], ["2026-11-17", "continuation", undefined]);
  const scan = record("QueryEntities", "/Orders()");
  assert.deepEqual([scan.partitionKey, scan.queryClass], [undefined, "table-scan"]);
});

test("continuation tokens: Azure's 1!n!base64 and Azurite's plain base64; anything else names no key", () => {
  assert.equal(decodeContinuation(`1!8!${Buffer.from("abc").toString("base64")}`), "abc");
  assert.equal(decodeContinuation(Buffer.from("shop-9").toString("base64")), "shop-9");
  assert.equal(decodeContinuation("not base64!"), undefined);
  assert.equal(decodeContinuation(Buffer.from([0xff, 0xfe]).toString("base64")), undefined);
  assert.deepEqual(keysFromUri("/acct/$batch"), { kind: "batch" });
  assert.deepEqual(keysFromUri("/acct/Tables('Orders')"), { kind: "tables" });
});

test("a batch is one request on its partition, its operations (same CorrelationId, OperationCount 1…) its entities", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-batch-"));
  const row = (o: Record<string, unknown>) =>
    JSON.stringify({ TimeGenerated: "2026-11-24T13:00:00.5Z", StatusCode: 202, StatusText: "Success", ...o });
  const batch = (id: string, pk: string, n: number, status = 202) => [
    row({
      OperationName: "EntityGroupTransaction",
      Uri: `${URI}/$batch`,
      ObjectKey: `/acct/Orders/${pk}`,
      CorrelationId: id,
      OperationCount: 0,
      StatusCode: status,
    }),
    ...Array.from({ length: n }, (_, i) =>
      row({
        OperationName: "InsertOrReplaceEntity",
        Uri: `${URI}/acct/Orders(PartitionKey='${pk}',RowKey='${i}')`,
        ObjectKey: `/acct/Orders/${pk}/${i}`,
        CorrelationId: id,
        OperationCount: i + 1,
        StatusCode: status,
      }),
    ),
  ];
  const lines = [
    ...batch("b1", "a", 100),
    ...batch("b2", "a", 3, 503),
    // A batch whose operations are not logged: one entity, said in a note.
    row({ OperationName: "EntityGroupTransaction", Uri: `${URI}/$batch`, ObjectKey: "/acct/Orders/b", CorrelationId: "b3" }),
    // An operation line whose batch is not in the log is a request of its own.
    row({ OperationName: "InsertEntity", Uri: `${URI}/Orders`, ObjectKey: "/acct/Orders/c/1", CorrelationId: "gone", OperationCount: 1 }),
  ];
  const file = path.join(dir, "batches.json");
  writeFileSync(file, lines.join("\n") + "\n");
  const h = await readLogHeatmap(file);
  rmSync(dir, { recursive: true, force: true });
  const by = Object.fromEntries(h.partitions.map((p) => [p.partitionKey, p]));
  assert.deepEqual([by.a.operations, by.a.batches, by.a.throttled, by.a.entities], [2, 1, 1, { read: 0, written: 100, throttled: 3 }]);
  assert.deepEqual([by.b.operations, by.b.entities.written], [1, 1]);
  assert.deepEqual([by.c.operations, by.c.entities.written], [1, 1]);
  assert.equal(h.batchOperations, 103);
  assert.ok(
    h.notes.some((n) => n.startsWith("1 batch counted as one entity each")),
    h.notes.join("\n"),
  );
  // The cell of the second holds the same: 100 written, 3 throttled on `a`.
  assert.deepEqual(h.seconds[0].partitions["Orders/a"], { reads: 0, writes: 100, throttled: 3 });
});

test("status: 503 and ThrottlingError are throttled; 4xx, 5xx and NetworkError (no answer) are failures, not traffic", () => {
  const at = (status: number | undefined, statusText?: string) =>
    storageRecord({ time: T, operation: "QueryEntity", uri: `${URI}/Orders(PartitionKey='a',RowKey='b')`, status, statusText });
  assert.deepEqual([at(503).throttled, at(undefined, "SASThrottlingError").throttled], [true, true]);
  assert.deepEqual([at(404).failed, at(500).failed, at(undefined, "NetworkError").failed], [true, true, true]);
  assert.deepEqual([at(200, "Success").failed, at(undefined, "AnonymousSuccess").failed], [false, false]);
});
