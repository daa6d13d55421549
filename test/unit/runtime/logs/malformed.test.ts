/**
 * Malformed log lines are counted and skipped, never fatal: CRLF line
 * ends, NUL bytes, truncated JSON, 1 MB lines of garbage, rows with the
 * wrong number of columns, `$logs` entries with missing fields, a stray
 * quote in a CSV, a file that is not text — each costs its own line, and
 * every good line around it is still read.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { readLogHeatmap } from "@runtime/logs/read-logs";
import { MAX_RECORD_LINES } from "@runtime/logs/csv";

const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-malformed-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
};

/** A good StorageTableLogs row: a point read of `pk` at second `s`. */
const good = (pk: string, s = 0) =>
  JSON.stringify({
    TimeGenerated: `2026-11-24T13:00:${String(s).padStart(2, "0")}.000Z`,
    OperationName: "QueryEntity",
    StatusCode: 200,
    StatusText: "Success",
    Uri: `https://a.table.core.windows.net/Orders(PartitionKey='${pk}',RowKey='r')`,
  });

test("JSON lines: CRLF ends read; NUL, truncated JSON, a 1 MB garbage line and a row without a time are skipped with their line", async () => {
  const lines = [
    good("a", 0),
    good("a", 1).slice(0, 40), // truncated
    `${good("b", 2).slice(0, 30)}\u0000${good("b", 2).slice(30)}`, // a NUL inside
    "x".repeat(1 << 20), // a 1 MB line
    JSON.stringify({ OperationName: "QueryEntity", Uri: "https://a/Orders(PartitionKey='c',RowKey='r')" }), // no time
    "\u0000\u0000\u0000",
    good("b", 3),
  ];
  const h = await readLogHeatmap(file("lines.json", lines.join("\r\n") + "\r\n"));
  assert.deepEqual([h.lines, h.skipped], [7, 5]);
  assert.deepEqual(
    h.partitions.map((p) => [p.partitionKey, p.entities.read]),
    [
      ["a", 1],
      ["b", 1],
    ],
  );
  assert.deepEqual(
    h.skippedExamples.map((s) => `${s.line}: ${s.reason}`),
    ["2: not JSON", "3: not JSON", "4: not JSON", "5: no TimeGenerated or time", "6: not JSON"],
  );
});

test("JSON lines whose first line was cut are read as JSON lines: the cut line is skipped with its number, every record after it read", async () => {
  const lines = [good("a", 0).slice(25), ...Array.from({ length: 999 }, (_, i) => good(`p${i % 7}`, i % 60))];
  const h = await readLogHeatmap(file("cut-first.json", lines.join("\n") + "\n"));
  assert.deepEqual([h.lines, h.skipped], [1000, 1]);
  assert.deepEqual(
    h.skippedExamples.map((s) => `${s.line}: ${s.reason}`),
    ["1: not JSON"],
  );
  assert.equal(
    h.partitions.reduce((n, p) => n + p.entities.read, 0),
    999,
  );
});

test("a line longer than 8 MiB is cut off, counted once, and reading resumes after it", async () => {
  const h = await readLogHeatmap(file("huge.json", [good("a"), "{" + "y".repeat(9 << 20), good("b")].join("\n")));
  assert.deepEqual([h.lines, h.skipped, h.partitionCount], [3, 1, 2]);
  assert.match(h.skippedExamples[0].reason, /longer than 8 MiB/);
});

test("CSV: rows with the wrong number of columns and a stray quote cost their own rows only", async () => {
  const header = "TimeGenerated [UTC],OperationName,StatusCode,Uri";
  const row = (pk: string) => `"11/24/2026, 1:00:05.000 PM",QueryEntity,200,"https://a/Orders(PartitionKey='${pk}',RowKey='r')"`;
  const stray = `"11/24/2026, 1:00:06.000 PM",QueryEntity,200,"https://a/Orders(PartitionKey='q',RowKey='r')`;
  const lines = [header, row("a"), `"11/24/2026, 1:00:05.000 PM",QueryEntity`, row("b") + ",extra", stray];
  lines.push(...Array.from({ length: MAX_RECORD_LINES + 1 }, () => "still inside the quote"), row("c"));
  const h = await readLogHeatmap(file("export.csv", lines.join("\r\n")));
  assert.deepEqual(
    h.partitions.map((p) => p.partitionKey),
    ["a", "c"],
  );
  assert.equal(h.skipped, 3);
  assert.deepEqual(
    h.skippedExamples.map((s) => s.reason),
    [
      "2 fields; the header has 4",
      "5 fields; the header has 4",
      `a quoted field still open after ${MAX_RECORD_LINES} lines (a stray quote)`,
    ],
  );
});

test("$logs: entries with missing fields, another version, a bad time; a JSON array cut short; binary: each said, none fatal", async () => {
  const classic = (pk: string, time = "2026-11-24T13:00:01.0000000Z") =>
    `1.0;${time};QueryEntity;Success;200;4;4;authenticated;acct;acct;table;"https://acct.table.core.windows.net/Orders(PartitionKey='${pk}',RowKey='r')";"/acct/Orders/${pk}/r";id-${pk};0;1.2.3.4:5;2019-02-02;;;;;;;;;;;"agent";;`;
  const h = await readLogHeatmap([
    file(
      "000000.log",
      [classic("a"), "1.0;2026-11-24T13:00:01Z;QueryEntity;Success", "9.9;x", classic("b", "yesterday"), classic("c")].join("\n"),
    ),
    file("array.json", `[${good("d")}, ${good("e")}, {"TimeGenerated": "2026-`),
    file("blob.bin.gz", gzipSync(Buffer.from([0x00, 0xff, 0x10, 0x80, 0x7f]))),
  ]);
  const keys = h.partitions.map((p) => p.partitionKey).sort();
  assert.deepEqual(keys, ["a", "c", "d", "e"]);
  assert.deepEqual(
    h.skippedExamples.slice(0, 3).map((s) => s.reason),
    ["4 fields; a version 1.0 entry has 30", "version '9.9' is not Storage Analytics logging 1.0", "its request-start-time is not a time"],
  );
  const array = h.files.find((f) => f.file.endsWith("array.json"))!;
  assert.match(array.problem ?? "", /2 elements were read before it/);
  assert.ok(h.lines - h.skipped >= 4);
});

test("a path that is no file or folder is refused with its reason; an empty folder reads nothing", async () => {
  await assert.rejects(readLogHeatmap(path.join(dir, "missing")), /cannot read .*missing: ENOENT/);
  const empty = mkdtempSync(path.join(dir, "empty-"));
  const h = await readLogHeatmap(empty);
  assert.deepEqual([h.lines, h.partitionCount, h.from], [0, 0, null]);
});
