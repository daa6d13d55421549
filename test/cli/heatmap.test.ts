/**
 * `tdl heatmap --logs` as a user runs it: a folder of logs in three formats
 * (a Log Analytics CSV export, a diagnostic setting's JSON lines, `$logs`)
 * read into one heatmap; the text's hottest partitions and the design
 * beside them; JSON in the documented shape; a self-contained HTML page;
 * malformed lines said on stderr and skipped; the exit codes (0, 1 nothing
 * readable, 2 bad usage or an unreadable path).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const CLI = path.resolve("dist/cli.js");
const tdl = (...args: string[]) => spawnSync(process.execPath, [CLI, "heatmap", ...args], { encoding: "utf8" });
const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-heatmap-cli-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const HOST = "https://acct.table.core.windows.net";
const logs = path.join(dir, "logs");
mkdirSync(path.join(logs, "y=2026", "m=11"), { recursive: true });
// Log Analytics' CSV: shop-a read 3 times, one of them throttled.
writeFileSync(
  path.join(logs, "export.csv"),
  [
    "TimeGenerated [UTC],OperationName,StatusCode,StatusText,Uri",
    ...[200, 200, 503].map(
      (s, i) => `"11/24/2026, 1:00:0${i}.000 PM",QueryEntity,${s},,"${HOST}/Orders(PartitionKey='shop-a',RowKey='${i}')"`,
    ),
  ].join("\r\n"),
);
// A diagnostic setting's blob: shop-b gets a batch of 4, a query page pins shop-a; one line is cut short.
const resource = (o: Record<string, unknown>) => JSON.stringify({ time: "2026-11-24T13:00:05.0000000Z", statusCode: 202, ...o });
writeFileSync(
  path.join(logs, "y=2026", "m=11", "PT1H.json"),
  [
    resource({
      operationName: "EntityGroupTransaction",
      uri: `${HOST}/$batch`,
      correlationId: "r1",
      properties: { objectKey: "/acct/Orders/shop-b" },
    }),
    ...[1, 2, 3, 4].map((k) =>
      resource({
        operationName: "InsertEntity",
        uri: `${HOST}/Orders`,
        correlationId: "r1",
        operationCount: k,
        properties: { objectKey: `/acct/Orders/shop-b/${k}` },
      }),
    ),
    resource({ operationName: "QueryEntities", statusCode: 200, uri: `${HOST}/Orders()?$filter=PartitionKey%20eq%20'shop-a'` }),
    '{"time": "2026-11-24T13:00:06Z", "operationName": "Query',
  ].join("\n") + "\n",
);
// Classic $logs: a delete on shop-c.
writeFileSync(
  path.join(logs, "000000.log"),
  `1.0;2026-11-24T13:00:07.0000000Z;DeleteEntity;Success;204;4;4;authenticated;acct;acct;table;"${HOST}/Orders(PartitionKey='shop-c',RowKey='1')";"/acct/Orders/shop-c/1";id1;0;1.2.3.4:5;2019-02-02;;;;;;;;;;;"agent";;\n`,
);
const design = path.join(dir, "orders.tdl");
writeFileSync(
  design,
  'table Orders {\n  Shop: string(1) charset "a-z" distinct 3\n  partitionKey = "shop-" + Shop\n  rowKey = Shop\n  insert Place 100/s\n}\n',
);

test("text: every format of the folder in one heatmap, hottest first, the design beside it; the cut line on stderr", () => {
  const r = tdl("--logs", logs, "--design", design);
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout.split("\n");
  assert.equal(
    out[0],
    "11 log entries read (1 skipped as malformed), 2026-11-24T13:00:00.000Z – 2026-11-24T13:00:07.000Z; cells of a second; 3 partitions",
  );
  assert.deepEqual(out.slice(2, 6), [
    "hottest partitions: entities read, written, throttled; requests (failed); busiest bucket",
    '  Orders/shop-a  3, 0, 1; 4 (0); 1/s  Orders: "shop-" + Shop',
    '  Orders/shop-b  0, 4, 0; 1 (0); 4/s  Orders: "shop-" + Shop',
    '  Orders/shop-c  0, 1, 0; 1 (0); 1/s  Orders: "shop-" + Shop',
  ]);
  assert.match(
    r.stdout,
    /\n {2}Orders as Orders \(partitionKey = "shop-" \+ Shop; 3 of 3 keys match\)\n {4}Predicted hottest partition: [\d.,]+ entities\/s, [\d.]+ % of the load \(Place [\d.,]+\/s\)\.\n {4}Observed hottest: shop-b 4\/s \(50\.0 %\), shop-a 1\/s \(37\.5 %\), shop-c 1\/s \(12\.5 %\)\.\n {4}Observed hottest against it: [+-][\d.]+ % in rate, [+-][\d.]+ points in share\.\n/,
  );
  assert.match(r.stdout, /1 query page counted as one entity read each/);
  // Logs of a stress run scaled by K are compared with the design's rates × K.
  const scaled = tdl("--logs", logs, "--design", design, "--scale", "0.03");
  assert.match(
    scaled.stdout,
    /\n {4}Predicted hottest partition \(the design's rates × 0\.03\): 1 entity\/s, 33\.3 % of the load \(Place 1\/s\)\.\n/,
  );
  assert.match(scaled.stdout, /\n {4}Observed hottest against it: \+300\.0 % in rate, \+16\.7 points in share\.\n/);
  assert.match(r.stderr, /^tdl: 1 malformed log entry skipped \(.*PT1H\.json:7: not JSON\)\n$/);
});

test("json: the documented fields (lines, skipped, from, to, partitions with operations and throttled) and the cells", () => {
  const r = tdl("--logs", logs, "--format", "json", "--from", "2026-11-24T13:00:01Z", "--to", "2026-11-24T14:00:06+01:00");
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual([j.lines, j.skipped, j.from, j.to, j.filteredOut], [11, 1, "2026-11-24T13:00:01.000Z", "2026-11-24T13:00:05.000Z", 2]);
  assert.deepEqual(
    j.partitions.map((p: { partitionKey: string; operations: number; throttled: number }) => [p.partitionKey, p.operations, p.throttled]),
    [
      ["shop-b", 1, 0],
      ["shop-a", 3, 1],
    ],
  );
  assert.equal(j.seconds.length, 3);
});

test("html: a self-contained page written to --out, stdout a one-line summary", () => {
  const out = path.join(dir, "heatmap.html");
  const r = tdl("--logs", logs, "--out", out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^11 log entries read .*; 3 partitions\nwritten to ${out.replace(/[.\\/]/g, "\\$&")}\n$`));
  const html = readFileSync(out, "utf8");
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">/);
  assert.ok(!/<script|https?:\/\/(?!acct)/.test(html.replace(/http:\/\/www\.w3\.org\/2000\/svg/g, "")), "no script, no network");
  assert.match(html, /<svg [^>]*aria-label="Heatmap of 3 partitions in 3 rows over 8 columns of 1 s"/);
  assert.match(html, /stroke="#e51400"/, "the throttled cell is outlined");
});

test("exit codes: 1 when nothing is readable, 2 for bad usage or a path that cannot be read", () => {
  const junk = path.join(dir, "junk.txt");
  writeFileSync(junk, "hello\nworld\n");
  const none = tdl("--logs", junk);
  assert.equal(none.status, 1);
  assert.match(none.stderr, /tdl: nothing readable in .*junk\.txt: no line is a StorageTableLogs, \$logs or Cosmos DB RU record\n$/);
  const missing = tdl("--logs", path.join(dir, "missing"));
  assert.equal(missing.status, 2);
  assert.equal(missing.stderr, `tdl: ${path.join(dir, "missing")}: no such file or folder\n`);
  assert.equal(tdl().status, 2);
  const badTime = tdl("--logs", logs, "--from", "yesterday");
  assert.equal(badTime.status, 2);
  assert.match(badTime.stderr, /--from must be a time such as 2026-11-24T13:00:00Z, not 'yesterday'/);
  const table = tdl("--logs", logs, "--design-table", "Orders");
  assert.equal(table.status, 2);
  assert.match(table.stderr, /--design-table needs --design/);
  const unknown = tdl("--logs", logs, "--design", design, "--design-table", "Nope");
  assert.equal(unknown.status, 2);
  assert.equal(unknown.stderr, `tdl: ${design}: no table 'Nope' (tables: Orders)\n`);
});
