import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { ExplorerController } from "@client/explorer/controller";
import { DEV_KEY } from "@runtime/account/connection-string";
import { toJson } from "@runtime/transfer/json";
import { Harness, openHarness, typeIntoFilter } from "../helpers/webview-harness";
import { MemoryStore, ScriptedUi } from "../helpers/memory-store";
import { tableName } from "../helpers/azurite";

let emu: EmbeddedEmulator;
let ui: ScriptedUi;
let controller: ExplorerController;
let harness: Harness<"explorer">;

before(async () => {
  emu = await EmbeddedEmulator.start();
  ui = new ScriptedUi(emu);
  controller = new ExplorerController(new MemoryStore(), ui, (e) => harness?.emit(e));
  harness = await openHarness(controller.view());
});
after(async () => {
  await harness?.close();
  await emu?.stop();
});

const table = tableName("Orders");
const rows = Array.from({ length: 1200 }, (_, i) => ({
  partitionKey: `p${i % 3}`,
  rowKey: String(i).padStart(5, "0"),
  properties: {
    Age: { type: "Int32" as const, value: String(i % 90) },
    Big: { type: "Int64" as const, value: String(9007199254740993n + BigInt(i)) },
  },
}));

/** Replaces the filter with `text`, typed. */
const typeFilter = (text: string) => typeIntoFilter(harness.page, text, 5);

test("connect to the emulator, create a table, import data, page through it", async () => {
  const { page } = harness;
  await page.locator("button.emulator").click();
  await page.locator(".connections li.active", { hasText: "Emulator" }).waitFor();
  await page.locator("input.new-table").fill(table);
  await page.locator("button.create").click();
  await page.locator(".tables li.active", { hasText: table }).waitFor();
  ui.importText.json = toJson(rows);
  await page.locator("button.menu-button.import").click();
  await page.locator("button.import-json").click();
  // The dry run first: nothing is written until Import.
  await page.locator(".import-plan").waitFor();
  assert.equal(
    await page.locator(".import-plan").innerText(),
    "A dry run — nothing is written yet. 1,200 records → 1,200 entities in 3 partitions, 12 batches (each written whole or not at all).",
  );
  assert.deepEqual(await page.locator(".import-columns tbody td.written-types").allInnerTexts(), ["Int32 ×1,200", "Int64 ×1,200"]);
  await page.locator("button.import-run", { hasText: "Import 1,200 entities" }).click();
  await page.locator(".count", { hasText: "1,000 entities (more available)" }).waitFor();
  assert.equal(await page.locator(".import-report").innerText(), "Imported 1,200 entities in 12 batches.");
  await page.locator("button.import-close").click();
  assert.match(
    await page.locator(".cost").innerText(),
    /^Imported 1,200 entities in 12 batches\. 1 request · 1 page · 0 continuation tokens followed · 1,000 entities/,
  );
  await page.locator("button.more").click();
  await page.locator(".count", { hasText: "1,200 entities" }).waitFor();
  // Virtualised: far fewer row elements than entities.
  const rendered = await page.locator(".grid-row").count();
  assert.ok(rendered > 10 && rendered < 100, `${rendered} rows in the DOM`);
  assert.match(await page.locator(".grid-header").innerText(), /Age\s*Int32[\s\S]*Big\s*Int64/);
});

test("the badge follows the filter as it is typed; a bad filter gets a marker", async () => {
  const { page } = harness;
  await typeFilter("PartitionKey eq 'p1'");
  await page.locator(".badge", { hasText: "row-range · 1 partition" }).waitFor();
  await page.keyboard.type(" and RowKey eq '00001'", { delay: 5 });
  await page.locator(".badge", { hasText: /^point$/ }).waitFor();
  await page.keyboard.type(" or", { delay: 5 });
  await page.locator(".badge", { hasText: "does not parse" }).waitFor();
  await page.locator(".filter-editor .squiggly-error").first().waitFor();
  await typeFilter("Age gt 80");
  await page.locator(".badge", { hasText: "table-scan · every partition" }).waitFor();
});

test("running a query shows the entities and what it cost", async () => {
  const { page } = harness;
  await typeFilter("PartitionKey eq 'p1' and RowKey eq '00001'");
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: /^1 entity$/ }).waitFor();
  assert.match(
    await page.locator(".cost").innerText(),
    /^1 request · 1 page · 0 continuation tokens followed · 1 entity · \d+ ms · point$/,
  );
  await page.locator("input.select").fill("Age");
  await typeFilter("PartitionKey eq 'p2'");
  await page.locator("input.limit").fill("50");
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: "50 entities (more available)" }).waitFor();
  assert.doesNotMatch(await page.locator(".grid-header").innerText(), /Big/);
});

test("an edit saves with its ETag; a conflicting edit is refused, overwrites nothing, and Reload shows the current version", async () => {
  const { page } = harness;
  await typeFilter("PartitionKey eq 'p1' and RowKey eq '00001'");
  await page.locator("input.select").fill("");
  await page.locator("button.run").click();
  // The row of this query (not one the grid showed before the answer came).
  await page.locator(".grid-row", { hasText: "00001" }).first().click();
  await page.locator(".detail input.prop-name[value='Age']").waitFor();
  const age = page
    .locator(".detail .prop")
    .filter({ has: page.locator("input.prop-name[value='Age']") })
    .locator("input.prop-value");
  await age.fill("33");
  await page.locator(".detail button.save").click();
  await page.locator(".detail .status", { hasText: "Saved." }).waitFor();
  // Someone else changes the entity now.
  const other = controller.activeConnection!;
  const current = await other.getEntity(table, "p1", "00001");
  await other.updateEntity(
    table,
    { ...current, properties: { ...current.properties, Age: { type: "Int32", value: "77" } } },
    current.etag!,
  );
  await age.fill("44");
  await page.locator(".detail button.save").click();
  await page.locator(".detail .status.error", { hasText: "changed by someone else" }).waitFor();
  assert.equal((await other.getEntity(table, "p1", "00001")).properties.Age.value, "77");
  // Reload: the entity as it is now (the other edit), the user's edit set aside; a save from there goes through.
  await page.locator(".detail .status.error button.reload").click();
  await page.locator(".detail .status", { hasText: "Reloaded: these are the current values (your edits were not saved" }).waitFor();
  assert.equal(await age.inputValue(), "77");
  const etag = (await other.getEntity(table, "p1", "00001")).etag!;
  assert.equal(await page.locator(".detail .etag").innerText(), `ETag ${etag}`);
  await age.fill("44");
  await page.locator(".detail button.save").click();
  await page.locator(".detail .status", { hasText: "Saved." }).waitFor();
  assert.equal((await other.getEntity(table, "p1", "00001")).properties.Age.value, "44");
  // The grid shows the saved version too.
  await page.locator(".grid-row", { hasText: "00001" }).first().locator(".cell", { hasText: /^44$/ }).waitFor();
});

test("delete selected entities (confirmed), export CSV with types, and state survives a reload", async () => {
  const { page } = harness;
  await typeFilter("PartitionKey eq 'p0'");
  await page.locator("input.limit").fill("1000");
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: "400 entities" }).waitFor();
  await page.locator(".grid-header input[type=checkbox]").check();
  await page.locator("button.delete", { hasText: "Delete 400 selected" }).click();
  await page
    .locator(".cost", {
      hasText:
        /^Deleted 400 entities\. 1 request · 1 page · 0 continuation tokens followed · 400 entities · \d+ ms · row-range · 1 partition · since then 400 deleted$/,
    })
    .waitFor();
  assert.match(ui.confirmations.at(-1)!, /Delete 400 entities/);
  await typeFilter("");
  await page.locator("button.menu-button.export").click();
  await page.locator("button.export-table-csv").click();
  await page.locator(".cost", { hasText: /^Exported 800 entities of the whole table to \/tmp\/\w+\.csv\.$/ }).waitFor();
  const csv = ui.saved.at(-1)!.text;
  assert.equal(csv.split("\r\n")[0], "PartitionKey,RowKey,Age,Age@type,Big,Big@type");
  await typeFilter("PartitionKey eq 'p2'");
  await page.reload();
  await page.locator(".tables li.active", { hasText: table }).waitFor();
  await page.locator(".badge", { hasText: "row-range · 1 partition" }).waitFor();
  assert.ok(!harness.sent.some((m) => JSON.stringify(m).includes(DEV_KEY)), "no message to the webview carried the account key");
});

test("the host refuses an edit with '*' or without its ETag, and overwrites nothing", async () => {
  const other = controller.activeConnection!;
  const before = await other.getEntity(table, "p1", "00004");
  const row = { ...before, properties: { ...before.properties, Note: { type: "String" as const, value: "do-not-echo-7f3a" } } };
  const wildcard = await harness.sendRaw(
    { type: "request", id: 900001, method: "entity.update", params: { table, row, etag: "*" } },
    900001,
  );
  assert.deepEqual(wildcard, {
    type: "response",
    id: 900001,
    ok: false,
    kind: "usage",
    error: "refused: params.etag: a wildcard ('*') matches any version: send the ETag the entity was read with",
  });
  const { etag: _, ...withoutEtag } = { table, row, etag: "" };
  const missing = await harness.sendRaw({ type: "request", id: 900002, method: "entity.update", params: withoutEtag }, 900002);
  assert.deepEqual(missing, { type: "response", id: 900002, ok: false, kind: "usage", error: "refused: params.etag: is required" });
  const after = await other.getEntity(table, "p1", "00004");
  assert.equal(after.etag, before.etag, "the entity was not written");
  assert.equal(after.properties.Note, undefined);
  assert.ok(
    harness.logs.some((l) => l.startsWith("[explorer] refused request 900001 (entity.update): params.etag: a wildcard")),
    harness.logs.join("\n"),
  );
  assert.ok(!harness.logs.some((l) => l.includes("do-not-echo-7f3a")), "the log names the rule, not the payload");
});

test("a delete passes each entity's ETag: a changed entity is kept, the others are deleted", async () => {
  const { page } = harness;
  const other = controller.activeConnection!;
  await typeFilter("PartitionKey eq 'p1' and RowKey ge '00010' and RowKey le '00016'");
  await page.locator("input.select").fill("");
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: /^3 entities$/ }).waitFor();
  await page.locator(".grid-header input[type=checkbox]").check();
  // Someone else changes 00013 after the page read it.
  const changed = await other.getEntity(table, "p1", "00013");
  await other.updateEntity(
    table,
    { ...changed, properties: { ...changed.properties, Age: { type: "Int32", value: "55" } } },
    changed.etag!,
  );
  await page.locator("button.delete", { hasText: "Delete 3 selected" }).click();
  await page.locator(".cost", { hasText: "Deleted 2 entities. Kept 1: changed since it was loaded" }).waitFor();
  await page.locator(".count", { hasText: /^1 entity$/ }).waitFor();
  assert.equal((await other.getEntity(table, "p1", "00013")).properties.Age.value, "55");
  await assert.rejects(other.getEntity(table, "p1", "00010"), /does not exist/);
  await assert.rejects(other.getEntity(table, "p1", "00016"), /does not exist/);
  // A page that sends a stale ETag deletes nothing; one that sends '*' is refused before anything is asked.
  const stale = {
    type: "request",
    id: 900003,
    method: "entities.delete",
    params: { table, entities: [{ partitionKey: "p1", rowKey: "00013", etag: changed.etag }] },
  };
  const answer = await harness.sendRaw(stale, 900003);
  assert.deepEqual(answer, { type: "response", id: 900003, ok: true, result: { deleted: 0, kept: 1, missing: 0 } });
  const asked = ui.confirmations.length;
  const wildcard = await harness.sendRaw(
    { ...stale, id: 900004, params: { table, entities: [{ partitionKey: "p1", rowKey: "00013", etag: "*" }] } },
    900004,
  );
  assert.match((wildcard as { error: string }).error, /^refused: params\.entities\[0\]\.etag: a wildcard/);
  assert.equal(ui.confirmations.length, asked, "a refused request never reaches the confirmation");
  assert.equal((await other.getEntity(table, "p1", "00013")).properties.Age.value, "55");
});
