/**
 * Every surface tells the same truth (issue 34, "done when"): a real stress
 * run of examples/ledger.tdl on `tdl emulator` (fidelity on, recording
 * StorageTableLogs), then in real Chromium the report page and the log
 * heatmap page on what that run produced — and the figures they show agree
 * with `tdl stress --format json` and `tdl cost`, each computed by the
 * CLI, not by the test; and the explorer's import dry run of a CSV without
 * types, whose column types are the types of the entities read back from
 * Azurite after the import.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";
import report from "@client/pages/report";
import heatmap from "@client/pages/heatmap";
import { readLogHeatmap } from "@runtime";
import { dollars, formatCount, formatFactor } from "@core/text/words";
import { FIGURE_NAMES, figureRows } from "@protocol/run-figures";
import type { LogDesignChoice } from "@protocol/pages";
import type { StressReport } from "@protocol/stress-report";
import { servePage } from "../helpers/page-services";
import { openHarness } from "../helpers/webview-harness";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { ExplorerController } from "@client/explorer/controller";
import { MemoryStore, ScriptedUi } from "../helpers/memory-store";
import { tableName } from "../helpers/azurite";
import { applyTheme, type ThemeName } from "./themes";
import { measureContrast } from "./contrast";

const CLI = path.resolve("dist/cli.js");
const DESIGN = "examples/ledger.tdl";
let dir: string;
let emulator: ChildProcess;
let connectionString: string;
let stressed: StressReport;
let costed: number;

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "tdl-surfaces-"));
  emulator = spawn(
    process.execPath,
    [CLI, "emulator", "--port", "0", "--record", path.join(dir, "logs.json"), "--record-format", "storage-table-logs"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: emulator.stdout! }).once("line", resolve);
    emulator.once("exit", (code) => reject(new Error(`tdl emulator exited ${code}`)));
  });
  connectionString = (JSON.parse(first) as { connectionString: string }).connectionString;
  const run = spawnSync(
    process.execPath,
    [CLI, "stress", "--design", DESIGN, "--table", "Ledger", "--mode", "design", "--duration", "2s", "--concurrency", "4"].concat([
      "--connection-string-env",
      "TDL_SURFACES",
      "--format",
      "json",
    ]),
    { env: { ...process.env, TDL_SURFACES: connectionString }, encoding: "utf8" },
  );
  assert.equal(run.status, 0, run.stderr);
  stressed = JSON.parse(run.stdout) as StressReport;
  const cost = spawnSync(process.execPath, [CLI, "cost", DESIGN, "--table", "Ledger", "--format", "json"], { encoding: "utf8" });
  const tables = (JSON.parse(cost.stdout) as { tables: Array<{ estimates: Array<{ service: string; monthlyUsd: number }> }> }).tables;
  costed = tables[0].estimates.find((e) => e.service === "azure-table")!.monthlyUsd;
});
after(async () => {
  if (emulator && emulator.exitCode === null) {
    emulator.kill("SIGINT");
    await new Promise((resolve) => emulator.once("exit", resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

test("the report page shows tdl stress --format json's figures side by side, and tdl cost's price of the design", async () => {
  const harness = await openHarness(
    servePage(report, { execute: async () => undefined }, { title: "Stress test", runs: [{ label: "Ledger", report: stressed }] }).spec,
  );
  try {
    const { page } = harness;
    await page.locator(".run .patterns-table").waitFor();
    // One row per pattern, the five figures in the vocabulary's order, each as the JSON says it.
    assert.deepEqual(await page.locator(".patterns-table thead th").allInnerTexts(), [
      "pattern",
      "ran as",
      ...FIGURE_NAMES,
      "calls",
      "failed",
    ]);
    const rows = figureRows(stressed);
    assert.deepEqual(
      rows.map((r) => r.name),
      ["Transfer", "ByTransfer"],
    );
    for (const row of rows) {
      const cells = await page.locator(`.patterns-table tr[data-pattern="${row.name}"] td[data-figure]`).allInnerTexts();
      assert.deepEqual(
        cells,
        FIGURE_NAMES.map((f) => formatCount(row.figures[f]!)),
        row.name,
      );
    }
    // Transfer is declared at 300 transactions/s: planned is the design's, offered is it × the run's scale.
    const transfer = stressed.patterns!.find((p) => p.name === "Transfer")!;
    assert.equal(transfer.plannedPerSecond, 300);
    assert.equal(transfer.callsPerSecond, Math.round(300 * (stressed.calibration?.scale ?? 1) * 100) / 100);
    // The legend defines each word once.
    assert.deepEqual(await page.locator(".legend dt").allInnerTexts(), [
      "planned (calls/s)",
      "offered (calls/s)",
      "sent (calls/s)",
      "served (calls/s)",
      "throttled (answers/s)",
    ]);
    // The month is tdl cost's, to the cent.
    assert.ok(stressed.cost?.designMonthlyUsd === costed, `${stressed.cost?.designMonthlyUsd} and tdl cost's ${costed}`);
    assert.match(
      await page.locator(".run .run-cost").innerText(),
      new RegExp(
        `^The design's declared load \\(table Ledger\\) costs ≈ ${dollars(costed).replace(/[$.]/g, "\\$&")} a month on Table Storage`,
      ),
    );
    // The headline: a sentence of verdict, then one of cause.
    assert.equal(await page.locator(".run .verdict-line").innerText(), stressed.verdict.verdictSentence);
    assert.equal(await page.locator(".run .cause").innerText(), stressed.verdict.cause);
    // The figures' table, its legend and the verdict read at 4.5:1 in every theme.
    for (const theme of ["light", "dark", "hc-dark", "hc-light"] as ThemeName[]) {
      await applyTheme(page, theme);
      for (const selector of [".run .patterns", ".run .verdict", ".run .run-cost"]) {
        const low = (await measureContrast(page, selector)).filter((x) => x.ratio < 4.5);
        assert.deepEqual(low, [], `${theme}: ${selector}`);
      }
    }
  } finally {
    await harness.close();
  }
});

test("the log heatmap of the same run: the design and its table picked on the page, the stress table read as Ledger, the choice remembered", async () => {
  // The recorder writes a second out shortly after it ends.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const logs = await readLogHeatmap(path.join(dir, "logs.json"));
  const remembered: LogDesignChoice[] = [];
  const served = servePage(
    heatmap,
    {},
    {
      logs,
      title: "Heatmap: logs.json",
      designs: [{ label: DESIGN, text: readFileSync(DESIGN, "utf8") }],
      remember: (c: LogDesignChoice) => void remembered.push(c),
    },
  );
  const harness = await openHarness(served.spec, { viewport: { width: 1000, height: 800 } });
  try {
    const { page } = harness;
    await page.locator(".design-picker").waitFor();
    assert.equal(await page.locator(".heatmap-design").count(), 0, "no design until one is picked");
    await page.locator(".design-choice").selectOption(DESIGN);
    await page.locator(".heatmap-design").first().waitFor();
    await page.locator(".table-choice").selectOption("Ledger");
    const scale = formatFactor(stressed.calibration?.scale ?? 1);
    await page.locator(".scale-choice").fill(scale);
    await page.locator(".scale-choice").press("Enter");
    await page.waitForFunction(() => document.querySelector(".heatmap-design h3")?.textContent?.includes(" as Ledger"));
    const heading = await page.locator(".heatmap-design h3").first().innerText();
    assert.match(heading, new RegExp(`^${stressed.table} as Ledger: partitionKey = `));
    assert.deepEqual(remembered.at(-1), { design: DESIGN, table: "Ledger", ...(scale === "1" ? { scale: "1" } : { scale }) });
    // Only the patterns the run sent are predicted, at the run's scale printed exactly.
    const said = await page.locator(".heatmap-design p").first().innerText();
    for (const p of stressed.patterns!.filter((x) => x.calls === 0)) assert.ok(!said.includes(`${p.name} `), said);
    if (scale !== "1") assert.ok(said.includes(`(the design's rates × ${scale})`), said);
    for (const theme of ["light", "dark", "hc-dark", "hc-light"] as ThemeName[]) {
      await applyTheme(page, theme);
      const low = (await measureContrast(page, ".design-picker")).filter((x) => x.ratio < 4.5);
      assert.deepEqual(low, [], `${theme}: the design picker`);
    }
  } finally {
    await harness.close();
    served.served.dispose?.();
  }
});

test("the import dry run's column types are the types Azurite holds after the import, with a type chosen for a column of mixed values", async () => {
  const emu = await EmbeddedEmulator.start();
  const ui = new ScriptedUi(emu);
  ui.emulatorRunning = true;
  let harness: Awaited<ReturnType<typeof openHarness<"explorer">>> | undefined;
  const controller = new ExplorerController(new MemoryStore(), ui, (e) => harness?.emit(e));
  try {
    await controller.open();
    harness = await openHarness(controller.view());
    const { page } = harness;
    const table = tableName("Typed");
    await controller.activeConnection!.createTable(table);
    await page.locator(".connections li", { hasText: "Emulator" }).locator("button.link").click();
    await page.locator(".tables li", { hasText: table }).locator("button.link").click();
    await page.locator(".title", { hasText: table }).waitFor();
    // A CSV without type columns: integers beside a decimal, dates with one word among them, GUIDs, booleans, big integers.
    ui.importText.csv = [
      "PartitionKey,RowKey,Total,BookedAt,Id,Express,Visits",
      "p,1,12,2026-11-24T13:00:00Z,3f2504e0-4f89-11d3-9a0c-0305e82c3301,true,9007199254740993",
      "p,2,7.5,soon,5a2504e0-4f89-11d3-9a0c-0305e82c3302,false,3",
      "p,3,30,2026-11-24T14:00:00Z,6b2504e0-4f89-11d3-9a0c-0305e82c3303,true,4",
      "",
    ].join("\r\n");
    await page.locator("button.menu-button.import").click();
    await page.locator("button.import-csv").click();
    await page.locator(".import-plan").waitFor();
    const written = async () =>
      Object.fromEntries(
        await page
          .locator(".import-columns tbody tr")
          .evaluateAll((rows) => rows.map((r) => [(r as HTMLElement).dataset.column!, r.querySelector(".written-types")!.textContent!])),
      ) as Record<string, string>;
    assert.deepEqual(await written(), {
      Total: "Double ×3",
      BookedAt: "DateTime ×2, String ×1",
      Id: "Guid ×3",
      Express: "Boolean ×3",
      Visits: "Int64 ×3",
    });
    // The word among the dates is shown by its line, and the column is offered a type.
    assert.equal(await page.locator('.import-columns tr[data-column="BookedAt"] td.conflicts').innerText(), "1: line 3");
    await page.locator('.import-columns tr[data-column="BookedAt"] select.column-type').selectOption("String");
    await page.waitForFunction(() =>
      document.querySelector('.import-columns tr[data-column="BookedAt"] .written-types')?.textContent?.startsWith("String ×3"),
    );
    const shown = await written();
    await page.locator("button.import-run", { hasText: "Import 3 entities" }).click();
    await page.locator(".import-report", { hasText: "Imported 3 entities in 1 batch." }).waitFor();
    // Read back from Azurite: each property's type is the one the dry run showed for its column.
    const stored = (await controller.activeConnection!.query(table, "")).entities;
    const types: Record<string, Record<string, number>> = {};
    for (const e of stored)
      for (const [name, v] of Object.entries(e.properties)) {
        types[name] ??= {};
        types[name][v.type] = (types[name][v.type] ?? 0) + 1;
      }
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(types).map(([name, t]) => [
          name,
          Object.entries(t)
            .map(([type, n]) => `${type} ×${n}`)
            .join(", "),
        ]),
      ),
      shown,
    );
    assert.equal(stored.find((e) => e.rowKey === "1")!.properties.Visits.value, "9007199254740993", "Int64 digits kept");
  } finally {
    await harness?.close();
    await emu.stop();
  }
});
