/**
 * "Open a Heatmap from Storage Logs…" past its pickers (client/commands/
 * log-heatmap.ts → readLogsForPanel): the heatmap page's arguments for
 * readable logs, with the design beside them; and each failure reported
 * through the command wrapper by its kind — a path that cannot be read and
 * logs with no record are warnings with their sentence, a cancellation
 * says nothing — never VS Code's generic toast.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readLogsForPanel } from "@client/pages/heatmap";
import heatmap from "@client/pages/heatmap";
import { Notifier, runReported } from "@client/vscode/command-failure";
import { COMMANDS } from "@protocol/commands";
import { servePage } from "../../helpers/page-services";

const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-open-logs-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const TITLE = COMMANDS.openLogHeatmap.title;

function recorder() {
  const shown: Array<{ level: string; message: string }> = [];
  const show = (level: string) => (message: string) => {
    shown.push({ level, message });
    return Promise.resolve(undefined);
  };
  const notify: Notifier = { warning: show("warning"), error: show("error"), log: () => undefined, showLog: () => undefined };
  return { notify, shown };
}

const row = (pk: string) =>
  JSON.stringify({
    TimeGenerated: "2026-11-24T13:00:00Z",
    OperationName: "InsertEntity",
    StatusCode: 201,
    Uri: "https://a.table.core.windows.net/Orders",
    ObjectKey: `/a/Orders/${pk}/1`,
  });

test("readable logs: the page's arguments, titled by the file, the design beside them; the panel serves them whole", async () => {
  const file = path.join(dir, "PT1H.json");
  writeFileSync(file, [row("shop-a"), row("shop-a"), row("x")].join("\n"));
  const design = { text: 'table Orders {\n  Shop: string\n  partitionKey = "shop-" + Shop\n  rowKey = Shop\n}\n', label: "orders.tdl" };
  const args = await readLogsForPanel([file], { shown: "PT1H.json", design });
  assert.equal(args.title, "Heatmap: PT1H.json");
  assert.deepEqual(
    args.logs.partitions.map((p) => [p.partitionKey, p.entities.written, p.design?.partitionKey ?? null]),
    [
      ["shop-a", 2, '"shop-" + Shop'],
      ["x", 1, null],
    ],
  );
  const { spec } = servePage(heatmap, {}, args);
  const state = spec.state();
  assert.equal(state.logs?.title, "Heatmap: PT1H.json");
  assert.deepEqual(state.seconds, args.logs.seconds);
  assert.equal(heatmap.title!(args), "Heatmap: PT1H.json");
  assert.equal(heatmap.title!(undefined), "Key-space heatmap");
});

test("a path that cannot be read, and logs without a record: warnings with their sentence under the command's title", async () => {
  const missing = path.join(dir, "nope");
  const garbage = path.join(dir, "notes.txt");
  writeFileSync(garbage, "dear diary\nnothing here\n");
  const r = recorder();
  await runReported(TITLE, () => readLogsForPanel([missing], { shown: "nope" }), r.notify);
  await runReported(TITLE, () => readLogsForPanel([garbage], { shown: "notes.txt" }), r.notify);
  assert.deepEqual(r.shown, [
    { level: "warning", message: `Open a Heatmap from Storage Logs: Cannot read ${missing}: ENOENT.` },
    {
      level: "warning",
      message: `Open a Heatmap from Storage Logs: Nothing readable in notes.txt: no line is a StorageTableLogs, $logs or Cosmos DB RU record (${garbage}:2: no TimeGenerated or time).`,
    },
  ]);
});

test("cancelled while reading: nothing is shown", async () => {
  const file = path.join(dir, "big.json");
  writeFileSync(file, Array.from({ length: 20_000 }, (_, i) => row(`p${i % 50}`)).join("\n"));
  const abort = new AbortController();
  abort.abort();
  const r = recorder();
  assert.equal(await runReported(TITLE, () => readLogsForPanel([file], { shown: "big.json", signal: abort.signal }), r.notify), undefined);
  assert.deepEqual(r.shown, []);
});
