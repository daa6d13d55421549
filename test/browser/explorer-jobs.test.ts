/**
 * What a newcomer and a table's owner do in the explorer (issues 20.5, 20.6,
 * 22.5, 24.3), in real Chromium against a real Azurite (a fault proxy in
 * front of it for a job cancelled while a batch is on its way): completion
 * in the filter editor, a column's type from every row with each odd cell's
 * own type, an import's dry run with the user's choices before anything is
 * written, and the bulk jobs — export a whole table to a folder, delete
 * what a filter matches, clear a table — with the count in the
 * confirmation, progress, cancel, and a summary that says what remains.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { verifyTable } from "@runtime";
import { ExplorerController } from "@client/explorer/controller";
import type { EntityRow } from "@protocol/entities";
import { Harness, openHarness, typeIntoFilter } from "../helpers/webview-harness";
import { MemoryStore, ScriptedUi } from "../helpers/memory-store";
import { FaultProxy } from "../helpers/fault-proxy";
import { tableName } from "../helpers/azurite";

let emu: EmbeddedEmulator;
let proxy: FaultProxy;
let ui: ScriptedUi;
let controller: ExplorerController;
let harness: Harness<"explorer">;

before(async () => {
  emu = await EmbeddedEmulator.start();
  proxy = await FaultProxy.start(emu.port);
  ui = new ScriptedUi(emu);
  ui.emulatorRunning = true;
  controller = new ExplorerController(new MemoryStore(), ui, (e) => harness?.emit(e));
  await controller.open();
  harness = await openHarness(controller.view());
});
after(async () => {
  await harness?.close();
  await proxy?.close();
  await emu?.stop();
  for (const dir of ui?.made ?? []) rmSync(dir, { recursive: true, force: true });
});

const people = tableName("People");
const imports = tableName("Imports");
const jobs = tableName("Jobs");
const row = (partitionKey: string, rowKey: string, properties: EntityRow["properties"] = {}): EntityRow => ({
  partitionKey,
  rowKey,
  properties,
});
const seed = async (table: string, rows: EntityRow[]) => {
  const session = controller.activeConnection!;
  await session.createTable(table);
  await session.upsertRows(table, rows, () => undefined, new AbortController().signal);
};
const count = async (table: string, filter = "") =>
  (await controller.activeConnection!.query(table, filter, { limit: 100_000 })).entities.length;

/** Lists the tables again (switching to the connection lists them) and opens `table`. */
async function openTable(table: string, connection = "Emulator"): Promise<void> {
  const { page } = harness;
  await page.locator(".connections li", { hasText: connection }).locator("button.link").click();
  await page.locator(".tables li", { hasText: table }).locator("button.link").click();
  await page.locator(".title", { hasText: table }).waitFor();
}

/** Replaces the filter with `text`, typed. */
const typeFilter = (text: string) => typeIntoFilter(harness.page, text, 5);

/** The labels the filter editor's completion shows now, in order. */
async function suggestions(): Promise<string[]> {
  const { page } = harness;
  const rows = page.locator(".suggest-widget .monaco-list-row .label-name");
  await rows.first().waitFor();
  return rows.allInnerTexts();
}

test("the filter editor completes what fits next: a property, an operator, a literal of the property's type, and/or", async () => {
  const { page } = harness;
  await seed(people, [
    row("p1", "a", { Age: { type: "Int32", value: "31" }, Name: { type: "String", value: "Ann" } }),
    row("p1", "b", { Age: { type: "Int32", value: "45" }, Name: { type: "String", value: "Bo" } }),
  ]);
  await openTable(people);
  await typeFilter("");
  await page.keyboard.press("Control+Space");
  assert.deepEqual(await suggestions(), ["PartitionKey", "RowKey", "Timestamp", "Age", "Name", "not", "("]);
  await page.keyboard.type("Ag", { delay: 5 });
  await page.keyboard.press("Enter");
  await page.keyboard.type(" ", { delay: 5 });
  assert.deepEqual(await suggestions(), ["eq", "ne", "gt", "ge", "lt", "le"]);
  // Each with what it means (the details beside the list).
  await page.keyboard.press("Control+Space");
  await page.locator(".suggest-details", { hasText: "equal to" }).waitFor();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.keyboard.type(" ", { delay: 5 });
  // Age is an Int32 in every sampled row: its literal first.
  assert.deepEqual((await suggestions()).slice(0, 2), ["42", "'text'"]);
  await page.keyboard.press("Escape");
  await page.keyboard.type("40 ", { delay: 5 });
  assert.deepEqual(await suggestions(), ["and", "or"]);
  await page.keyboard.press("Escape");
  assert.equal((await page.locator(".filter-editor .view-lines").innerText()).replace(/\u00a0/g, " "), "Age gt 40 ");
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: /^1 entity$/ }).waitFor();
});

test("a column's type comes from every row: Int32 and Double show as Double, others as mixed; each odd cell says its own type", async () => {
  const { page } = harness;
  const mixed = tableName("Mixed");
  await seed(mixed, [
    row("p", "1", { Total: { type: "Int32", value: "5" }, Code: { type: "Int32", value: "7" } }),
    row("p", "2", { Total: { type: "Double", value: "7.5" }, Code: { type: "String", value: "A7" } }),
    row("p", "3", { Total: { type: "Double", value: "150.25" }, Code: { type: "Int32", value: "9" } }),
  ]);
  await openTable(mixed);
  await typeFilter("");
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: /^3 entities$/ }).waitFor();
  const header = await page
    .locator(".grid-header .cell")
    .evaluateAll((cells) => cells.slice(1).map((c) => [c.firstChild?.textContent, c.querySelector(".type")?.textContent]));
  assert.deepEqual(header, [
    ["PartitionKey", "key"],
    ["RowKey", "key"],
    ["Timestamp", "system"],
    ["Total", "Double"],
    ["Code", "mixed: Int32, String"],
  ]);
  assert.equal(
    await page.locator(".grid-header .cell", { hasText: "Code" }).getAttribute("title"),
    "Code (mixed: Int32, String: 2 Int32, 1 String)",
  );
  // Per row: Total's cell type only where it is not Double; Code's in every row.
  const cells = await page
    .locator(".grid-row")
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll(".cell")].slice(4).map((c) => c.textContent)));
  assert.deepEqual(cells, [
    ["5Int32", "7Int32"],
    ["7.5", "A7String"],
    ["150.25", "9Int32"],
  ]);
});

test("an import shows its dry run first; the user's choices convert what Azure cannot store, and only then is anything written", async () => {
  const { page } = harness;
  await controller.activeConnection!.createTable(imports);
  await openTable(imports);
  ui.importText.json = JSON.stringify(
    [
      { PartitionKey: "p", RowKey: "1", Name: "first", Age: 30, "Age@odata.type": "Edm.Int32" },
      { PartitionKey: "p", RowKey: "2", Name: "Bo", Note: null },
      { PartitionKey: "p", RowKey: "1", Name: "again", Age: 31.5, "Age@odata.type": "Edm.Double" },
      { PartitionKey: "q", RowKey: "3", Name: "Cy", Address: { city: "Oslo" } },
    ],
    null,
    2,
  );
  await page.locator("button.menu-button.import").click();
  await page.locator("button.import-json").click();
  await page.locator(".import-plan").waitFor();
  assert.equal(
    await page.locator(".import-plan").innerText(),
    "A dry run — nothing is written yet. 4 records → 3 entities in 2 partitions, 2 batches (each written whole or not at all).",
  );
  assert.deepEqual(await page.locator(".import-problem").allInnerTexts(), [
    "1 null value: \nRefuse the import\nLeave the property out of that entity",
    "1 nested object or array: \nRefuse the import\nStore its JSON text as a String",
    "1 repeated PartitionKey and RowKey: \nRefuse the import\nKeep the later record",
  ]);
  assert.deepEqual(await page.locator(".import-lines li").allInnerTexts(), [
    "line 13 (record 2): Note is null: Azure has no null (the property can be left out)",
    "line 15 (record 3): record 3 has the keys of record 1 (line 2): PartitionKey 'p', RowKey '1'",
    "line 26 (record 4): Address is a nested object: Azure stores only flat values (it can be kept as JSON text)",
  ]);
  assert.match(await page.locator(".import-verdict").innerText(), /^Nothing will be written while a problem above is refused/);
  assert.ok(await page.locator("button.import-run").isDisabled());
  assert.equal(await count(imports), 0, "nothing written by the dry run");

  await page.locator("select.choice.nulls").selectOption("omit");
  await page.locator("select.choice.nested").selectOption("json");
  await page.locator("select.choice.duplicateKeys").selectOption("last");
  await page.locator(".import-verdict", { hasText: "Ready: 3 entities will be written." }).waitFor();
  // The later record's Age is a decimal: the whole column is inferred Double.
  assert.match(await page.locator('.import-columns tr[data-column="Age"] td.written-types').innerText(), /^Double ×\d+$/);
  assert.equal(await count(imports), 0, "nothing written by changing a choice");
  await page.locator("button.import-run", { hasText: "Import 3 entities" }).click();
  await page.locator(".import-report", { hasText: "Imported 3 entities in 2 batches." }).waitFor();
  const stored = (await controller.activeConnection!.query(imports, "")).entities;
  assert.deepEqual(
    stored.slice(0, 2).map((e) => [e.rowKey, e.properties]),
    [
      // The later record of the two with keys p/1; no "null" string where the null was.
      ["1", { Name: { type: "String", value: "again" }, Age: { type: "Double", value: "31.5" } }],
      ["2", { Name: { type: "String", value: "Bo" } }],
    ],
  );
  // The nested object as its JSON text, never "[object Object]".
  assert.equal(stored[2].properties.Address.type, "String");
  assert.deepEqual(JSON.parse(stored[2].properties.Address.value), { city: "Oslo" });
  await page.locator("button.import-close").click();

  // A value that does not fit its type is never converted: nothing of the file is written.
  ui.importText.json = JSON.stringify([
    { PartitionKey: "p", RowKey: "9", Name: "ok" },
    { PartitionKey: "p", RowKey: "10", Age: "abc", "Age@odata.type": "Edm.Int32" },
  ]);
  await page.locator("button.menu-button.import").click();
  await page.locator("button.import-json").click();
  await page
    .locator(".import-problem.invalid", { hasText: "1 value that does not fit its type: never converted — fix them in the file" })
    .waitFor();
  assert.ok(await page.locator("button.import-run").isDisabled());
  await page.locator("button.import-cancel").click();
  assert.ok(await page.locator(".import-review").isHidden());
  assert.equal(await count(imports), 3);
});

test("Export… writes the whole table to a folder with its manifest; the export checks against the table", async () => {
  const { page } = harness;
  await seed(
    jobs,
    Array.from({ length: 2500 }, (_, i) => row(`p${i % 5}`, String(i).padStart(5, "0"), { N: { type: "Int32", value: String(i) } })),
  );
  await openTable(jobs);
  await page.locator("button.menu-button.export").click();
  await page.locator("button.export-table-folder").click();
  const said = await page.locator(".cost", { hasText: /^Exported 2,500 entities of / }).innerText();
  const m = /^Exported 2,500 entities of (\w+) to (\S+): (\d+) key ranges?, checksum ([0-9a-f]{16}) in manifest\.json\.$/.exec(said);
  assert.ok(m, said);
  assert.equal(m[1], jobs);
  const manifest = JSON.parse(readFileSync(path.join(m[2], "manifest.json"), "utf8")) as {
    count: number;
    checksum: string;
    ranges: unknown[];
  };
  assert.deepEqual([manifest.count, manifest.checksum, String(manifest.ranges.length)], [2500, m[4], m[3]]);
  const check = await verifyTable({ session: controller.activeConnection!, table: jobs, dir: m[2] });
  assert.deepEqual([check.count, check.checksum, check.differ], [2500, m[4], []]);
});

test("Delete matching… counts first, names the count, deletes, and says where the keys went; declined, nothing goes", async () => {
  const { page } = harness;
  await openTable(jobs);
  await typeFilter("PartitionKey eq 'p1'");
  ui.answer = false;
  const asked = ui.confirmations.length;
  await page.locator("button.delete-matching").click();
  // The button works again once the job has ended (declined).
  await page.locator("button.delete-matching:not([disabled])").waitFor();
  assert.equal(ui.confirmations.length, asked + 1);
  assert.equal(
    ui.confirmations.at(-1),
    `Delete the 500 entities in 1 partition of '${jobs}' that match PartitionKey eq 'p1'? Each is deleted only if it has not changed since it was counted. This cannot be undone.`,
  );
  assert.equal(await count(jobs, "PartitionKey eq 'p1'"), 500, "declined: nothing deleted");

  ui.answer = true;
  await page.locator("button.delete-matching").click();
  const said = await page.locator(".cost", { hasText: /^Deleted 500 of 500 entities counted\./ }).innerText();
  const log = /Their keys are in (\S+)\.\s/.exec(said)?.[1];
  assert.ok(log, said);
  const lines = readFileSync(log, "utf8").trim().split("\n");
  assert.equal(lines.length, 500);
  assert.deepEqual(JSON.parse(lines[0]), { PartitionKey: "p1", RowKey: "00001" });
  await page.locator(".grid-empty", { hasText: "No entities match this filter." }).waitFor();
  assert.equal(await count(jobs), 2000);
});

test("Clear table… cancelled while a batch is on its way: the summary says what remains, and the batch in doubt", async () => {
  const { page } = harness;
  ui.nextConnection = {
    info: { id: "slow", name: "Slow", kind: "connection-string", endpoint: proxy.endpoint },
    secret: { connectionString: proxy.connectionString(emu.connectionString, emu.endpoint) },
  };
  await page.locator("button.connect").click();
  await page.locator(".connections li.active", { hasText: "Slow" }).waitFor();
  await openTable(jobs, "Slow");
  // The service's answers stall once the user has confirmed: the first batch is on its way.
  ui.onConfirm = () => proxy.stall("answers");
  await page.locator(".tables li", { hasText: jobs }).locator("button.link").click({ button: "right" });
  await page.locator(".table-menu button.clear-table").click();
  await page.locator(".progress .progress-text", { hasText: "Deleting: 0 of 2,000" }).waitFor();
  assert.equal(
    ui.confirmations.at(-1),
    `Clear '${jobs}': delete all 2,000 entities in 4 partitions? Each is deleted only if it has not changed since it was counted; the table stays. This cannot be undone.`,
  );
  await page.locator(".progress button.cancel").click();
  await page.locator(".progress").waitFor({ state: "hidden" });
  ui.onConfirm = undefined;
  proxy.resume();
  await page.locator(".cost", { hasText: "Deleted 0 of 2,000 entities counted." }).waitFor();
  assert.match(
    await page.locator(".cost").innerText(),
    /^Deleted 0 of 2,000 entities counted\. Cancelled: 1,900 entities of those counted remain in \w+\. The last batch \(100 entities\) was on its way when you cancelled: deleted whole or not at all — read the table to see which\./,
  );
  // The 1,900 not attempted are there; the batch in doubt is there or not, whole.
  const left = await count(jobs);
  assert.ok(left === 1900 || left === 2000, `${left} entities left`);
});
