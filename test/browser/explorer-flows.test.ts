/**
 * The explorer's flows as a user meets them, in real Chromium against a
 * real Azurite (and a fault proxy in front of it for a connection that
 * fails): connect on open, a failed connection that keeps the working one,
 * no stale rows beside an error, a filter that does not parse, inserts in
 * the service's order with a cost line that agrees, service errors in a
 * sentence with the answer behind "Details", actions disabled with no
 * table open, export of the result or the whole table with progress and
 * cancel, deleting the open table, and the grid's keyboard.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { ExplorerController } from "@client/explorer/controller";
import { Harness, openHarness, typeIntoFilter } from "../helpers/webview-harness";
import { MemoryStore, ScriptedUi } from "../helpers/memory-store";
import { FaultProxy } from "../helpers/fault-proxy";
import { tableName } from "../helpers/azurite";
import type { EntityRow } from "@protocol/entities";

let emu: EmbeddedEmulator;
let proxy: FaultProxy;
let ui: ScriptedUi;
let store: MemoryStore;
let controller: ExplorerController;
let harness: Harness<"explorer">;

before(async () => {
  emu = await EmbeddedEmulator.start();
  proxy = await FaultProxy.start(emu.port);
  ui = new ScriptedUi(emu);
  ui.emulatorRunning = true;
  store = new MemoryStore();
  controller = new ExplorerController(store, ui, (e) => harness?.emit(e));
  // As the panel does: connect before the page asks for its start state.
  await controller.open();
  harness = await openHarness(controller.view());
});
after(async () => {
  await harness?.close();
  await proxy?.close();
  await emu?.stop();
});

const first = tableName("First");
const big = tableName("Big");
const row = (partitionKey: string, rowKey: string, properties: EntityRow["properties"] = {}): EntityRow => ({
  partitionKey,
  rowKey,
  properties,
});
const broken = () => ({
  info: { id: "broken", name: "Broken", kind: "connection-string" as const, endpoint: proxy.endpoint },
  secret: { connectionString: proxy.connectionString(emu.connectionString, emu.endpoint) },
});

/** Replaces the filter with `text`, typed. */
const typeFilter = (text: string) => typeIntoFilter(harness.page, text);

async function gridKeys(): Promise<string[]> {
  return harness.page.locator(".grid-row").evaluateAll((rows) => rows.map((r) => JSON.parse((r as HTMLElement).dataset.key!).join("/")));
}

async function disabled(): Promise<Record<string, boolean>> {
  const { page } = harness;
  const of = (s: string) => page.locator(s).isDisabled();
  return {
    insert: await of("button.insert-new"),
    more: await of("button.more"),
    import: await of("button.menu-button.import"),
    export: await of("button.menu-button.export"),
  };
}

test("on open it is connected to the running emulator; with no table, the page says what to do and the table actions are off", async () => {
  const { page } = harness;
  await page.locator(".connections li.active", { hasText: "Emulator" }).waitFor();
  await page.locator(".tables li.empty", { hasText: "No tables yet — create one" }).waitFor();
  assert.equal(await page.locator(".grid-empty p").innerText(), "No tables yet — create one.");
  assert.equal(await page.locator(".grid-empty button").innerText(), "Create a table");
  assert.equal(await page.locator(".title").innerText(), "No table open");
  assert.deepEqual(await disabled(), { insert: true, more: true, import: true, export: true });
  await page.locator(".grid-empty button").click();
  assert.ok(
    await page.locator("input.new-table").evaluate((el) => el === document.activeElement),
    "the empty state's action focuses the new table's name",
  );
});

test("the explorer reopens on the connection used last when the emulator is not running", async () => {
  ui.emulatorRunning = false;
  const again = new ExplorerController(store, ui, () => undefined);
  await again.open();
  assert.equal(again.view().state().active, "emulator");
  assert.deepEqual(await again.activeConnection!.listTables(), []);
  ui.emulatorRunning = true;
});

test("inserted rows go where the service orders them, and the cost line agrees with the grid", async () => {
  const { page } = harness;
  await page.locator("input.new-table").fill(first);
  await page.locator("button.create").click();
  await page.locator(".title", { hasText: first }).waitFor();
  const session = controller.activeConnection!;
  for (const r of [row("p1", "b"), row("p1", "d")]) await session.insertEntity(first, r);
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: /^2 entities$/ }).waitFor();
  assert.deepEqual(await disabled(), { insert: false, more: true, import: false, export: false });
  for (const [pk, rk] of [
    ["p1", "c"],
    ["p0", "z"],
    ["p2", "a"],
  ]) {
    await page.locator("button.insert-new").click();
    await page.locator(".detail input.pk").fill(pk);
    await page.locator(".detail input.rk").fill(rk);
    await page.locator(".detail button.insert").click();
    await page.locator(".detail .status", { hasText: /^Inserted\.$/ }).waitFor();
  }
  assert.deepEqual(await gridKeys(), ["p0/z", "p1/b", "p1/c", "p1/d", "p2/a"]);
  assert.equal(await page.locator(".count").innerText(), "5 entities");
  assert.match(
    await page.locator(".cost").innerText(),
    /^1 request · 1 page · 0 continuation tokens followed · 2 entities · \d+ ms · table-scan · every partition · since then 3 inserted$/,
  );
  // The service agrees: the same rows in the same order when read again.
  await page.locator("button.run").click();
  await page.locator(".cost", { hasText: /· 5 entities ·/ }).waitFor();
  assert.deepEqual(await gridKeys(), ["p0/z", "p1/b", "p1/c", "p1/d", "p2/a"]);
});

test("a key the service refuses is explained in a sentence, the service's answer behind Details", async () => {
  const { page } = harness;
  await page.locator("button.insert-new").click();
  await page.locator(".detail input.pk").fill("p1");
  await page.locator(".detail input.rk").fill("order#7");
  await page.locator(".detail button.insert").click();
  const status = page.locator(".detail .status.error");
  await status.locator(".error-message", { hasText: "The RowKey contains '#', which keys may not hold" }).waitFor();
  assert.doesNotMatch(await status.locator(".error-message").innerText(), /odata|InvalidInput|OutOfRangeInput|\{/);
  assert.ok(!(await status.locator(".error-details pre").isVisible()), "the raw answer is folded away");
  await status.locator(".error-details summary").click();
  assert.match(await status.locator(".error-details pre").innerText(), /^HTTP 400 (InvalidInput|OutOfRangeInput)\n/);
  assert.equal(await page.locator(".count").innerText(), "5 entities", "nothing was added");
  await page.locator(".detail button.close").click();
});

test("a filter that does not parse runs nothing and leaves no earlier rows in the grid", async () => {
  const { page } = harness;
  await typeFilter("PartitionKey eq");
  await page.locator("button.run").click();
  await page.locator(".grid-empty p", { hasText: "No result: the filter does not parse." }).waitFor();
  assert.equal(await page.locator(".grid-row").count(), 0);
  assert.match(
    await page.locator("main .error .error-message").innerText(),
    /^The filter does not parse at character \d+: .*Fix the part underlined in red, then run again\.$/,
  );
  assert.equal(await page.locator(".cost").innerText(), "", 'no "Running…"');
  await typeFilter("PartitionKey eq 'p1'");
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: /^3 entities$/ }).waitFor();
  assert.ok(await page.locator("main .error").isHidden(), "the error went with the fixed filter");
});

test("a connection that fails does not replace the working one; an answer that fails leaves no stale rows", async () => {
  const { page } = harness;
  await proxy.down();
  ui.nextConnection = broken();
  await page.locator("button.connect").click();
  await page
    .locator("main .error .error-message", { hasText: /^Could not connect to 'Broken': .*; still connected to 'Emulator'\.$/ })
    .waitFor();
  await page.locator(".connections li.active", { hasText: "Emulator" }).waitFor();
  assert.equal(await page.locator(".title").innerText(), first, "the working connection's table stays open");
  assert.equal(await page.locator(".grid-row").count(), 3, "its rows are current: it still answers");
  // Back up: choosing it switches, and nothing of the other account stays on screen.
  await proxy.up();
  await page.locator(".connections li", { hasText: "Broken" }).locator("button.link").click();
  await page.locator(".connections li.active", { hasText: "Broken" }).waitFor();
  assert.equal(await page.locator(".title").innerText(), "No table open");
  assert.equal(await page.locator(".grid-row").count(), 0);
  assert.ok(await page.locator("main .error").isHidden());
  await page.locator(".tables li", { hasText: first }).locator("button.link").click();
  await page.locator(".count", { hasText: /^3 entities$/ }).waitFor();
  // It goes down while the table is open: the next query empties the grid and says why.
  await proxy.down();
  await page.locator("button.run").click();
  await page.locator(".grid-empty p", { hasText: "No result: the query failed (see the error above)." }).waitFor();
  assert.equal(await page.locator(".grid-row").count(), 0);
  assert.ok(await page.locator("main .error").isVisible());
  await proxy.up();
  await page.locator(".connections li", { hasText: "Emulator" }).locator("button.link").click();
  await page.locator(".connections li.active", { hasText: "Emulator" }).waitFor();
});

test("export offers this result or the whole table, with progress; a slow export can be cancelled and writes nothing", async () => {
  const { page } = harness;
  const session = controller.activeConnection!;
  await session.createTable(big);
  await session.upsertRows(
    big,
    Array.from({ length: 2500 }, (_, i) => row(`p${i % 2}`, String(i).padStart(5, "0"))),
    () => undefined,
    new AbortController().signal,
  );
  // The table list learns of the new table when it is listed again: switching connections lists it.
  await page.locator(".connections li", { hasText: "Emulator" }).locator("button.link").click();
  await page.locator(".tables li", { hasText: big }).locator("button.link").click();
  await typeFilter("PartitionKey eq 'p1'");
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: "1,000 entities (more available)" }).waitFor();
  await page.locator("button.menu-button.export").click();
  await page.locator("button.export-result-json").click();
  await page.locator(".cost", { hasText: `Exported 1,250 entities of this result to /tmp/${big}-result.json.` }).waitFor();
  assert.equal((JSON.parse(ui.saved.at(-1)!.text) as unknown[]).length, 1250);
  const sentBefore = harness.sent.length;
  await page.locator("button.menu-button.export").click();
  await page.locator("button.export-table-csv").click();
  await page.locator(".cost", { hasText: `Exported 2,500 entities of the whole table to /tmp/${big}.csv.` }).waitFor();
  const progress = harness.sent.slice(sentBefore).flatMap((m) => (m.type === "event" && m.event.type === "progress" ? [m.event.done] : []));
  assert.deepEqual(progress, [0, 1000, 2000, 2500]);
  // Through a connection whose answers stall: the export waits, shows its progress and a Cancel button.
  ui.nextConnection = broken();
  await page.locator(".connections li", { hasText: "Broken" }).locator("button.link").click();
  await page.locator(".tables li", { hasText: big }).locator("button.link").click();
  await page.locator(".count", { hasText: "1,000 entities (more available)" }).waitFor();
  const saved = ui.saved.length;
  proxy.stall("answers");
  await page.locator("button.menu-button.export").click();
  await page.locator("button.export-table-json").click();
  await page.locator(".progress .progress-text", { hasText: "Exporting: entities read: 0" }).waitFor();
  await page.locator(".progress button.cancel").click();
  await page.locator(".cost", { hasText: "Export cancelled after reading 0 entities of the whole table: nothing was written." }).waitFor();
  proxy.resume();
  assert.equal(ui.saved.length, saved, "no file written");
  assert.ok(await page.locator(".progress").isHidden());
  await page.locator(".connections li", { hasText: "Emulator" }).locator("button.link").click();
  await page.locator(".connections li.active", { hasText: "Emulator" }).waitFor();
});

test("the grid works from the keyboard: arrows, Home/End, Space selects, Enter opens", async () => {
  const { page } = harness;
  await page.locator(".tables li", { hasText: first }).locator("button.link").click();
  await typeFilter("");
  await page.locator("button.run").click();
  await page.locator(".count", { hasText: /^5 entities$/ }).waitFor();
  await page.locator(".grid").focus();
  await page.keyboard.press("End");
  await page.keyboard.press("Space");
  await page.locator("button.delete", { hasText: "Delete 1 selected" }).waitFor();
  assert.equal(await page.locator(".grid-row.selected").getAttribute("data-key"), JSON.stringify(["p2", "a"]));
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.locator(".detail input.rk").waitFor();
  assert.equal(await page.locator(".detail input.rk").inputValue(), "b");
  assert.equal(await page.locator(".grid").getAttribute("aria-activedescendant"), "grid-row-1");
  await page.locator(".detail button.close").click();
});

test("deleting the open table closes it; Run then says what to do", async () => {
  const { page } = harness;
  await page.locator(".tables li", { hasText: first }).locator("button.delete-table").click();
  await page.locator(".title", { hasText: /^No table open$/ }).waitFor();
  assert.equal(await page.locator(".cost").innerText(), `Deleted the table ${first}.`);
  assert.equal(await page.locator(".grid-row").count(), 0);
  assert.ok(!(await page.locator(".tables li", { hasText: first }).count()));
  assert.deepEqual(await disabled(), { insert: true, more: true, import: true, export: true });
  await page.locator("button.run").click();
  assert.equal(await page.locator(".cost").innerText(), "Open a table first: pick one under Tables, or create one.");
});
