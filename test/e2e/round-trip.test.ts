/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The loop of issue 14 in a real VS Code on the embedded emulator: a table
 * populated as the marathon design keys it → Infer a Design from a Table →
 * the inferred design is linted and a quick fix applied → Generate key
 * builders writes the module → code that builds keys by hand is checked
 * against the design → a change of the design shows as drift in the code.
 * Screenshots of the steps illustrate the README's walkthrough.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { TableClient } from "@azure/data-tables";
import { emulatorConnectionString } from "@runtime/account/connection-string";
import { generatedEntities, modelOf, populate } from "../helpers/generated-tables";
import { goTo, makeWorkspace, openFile, openVsCode, quickFix, runCommand, VsCodeSession, waitForLine } from "../helpers/vscode";

const ROOT = path.resolve(__dirname, "../..");
const IMAGES = path.join(ROOT, "docs", "images");

let vscode: VsCodeSession;
let workspace: string;

before(async () => {
  // The inferred design is to be the only design of a table named Registrations here, so the code is checked against it alone.
  workspace = await makeWorkspace();
  for (const f of ["marathon.tdl", path.join("typescript", "registrations.ts")]) rmSync(path.join(workspace, f));
  vscode = await openVsCode(workspace);
});
after(async () => vscode?.close());

/**
 * A screenshot of the step: into docs/images/ for the README when
 * TDA_SCREENSHOTS=docs (they hold ports and folder names that change every
 * run), else into test-results/.
 */
async function shot(name: string): Promise<void> {
  const dir = process.env.TDA_SCREENSHOTS === "docs" ? IMAGES : path.join(ROOT, "test-results");
  mkdirSync(dir, { recursive: true });
  await vscode.page.screenshot({ path: path.join(dir, name) });
}

/** Picks `text` in the open quick pick. */
async function pick(text: string): Promise<void> {
  const { page } = vscode;
  await page.locator(".quick-input-list .monaco-list-row", { hasText: text }).first().waitFor({ timeout: 30_000 });
  await page.locator(".quick-input-widget input").fill(text);
  await page.keyboard.press("Enter");
}

test("a table on the embedded emulator becomes a design: Infer a Design from a Table", async () => {
  const { page } = vscode;
  await runCommand(page, "Table Design: Start the Embedded Emulator");
  const toast = page.locator(".notification-toast", { hasText: "Table emulator running at" });
  await toast.first().waitFor({ timeout: 60_000 });
  const endpoint = /(http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1)/.exec(await toast.first().innerText())?.[1];
  assert.ok(endpoint, "the notification names the emulator's endpoint");

  // 300 registrations keyed as examples/marathon.tdl says, each with its ByAge index row.
  const design = readFileSync(path.join(ROOT, "examples", "marathon.tdl"), "utf8");
  const client = TableClient.fromConnectionString(emulatorConnectionString(endpoint), "Registrations", { allowInsecureConnection: true });
  await client.createTable();
  await populate(client, generatedEntities(modelOf(design, "Registrations"), 300));

  await runCommand(page, "Table Design: Infer a Design from a Table…");
  await pick("Registrations");
  // The sample size: the default.
  await page.locator(".quick-input-widget input").waitFor();
  await page.keyboard.press("Enter");
  await waitForLine(page, 'partitionKey = Event + "__" + Distance');
  await waitForLine(page, 'rowKey       = "BIB:" + pad(Bib, 5) + "__" + Name + "__" + Gender + "__" + pad(Age, 3)');
  await waitForLine(page, 'index ByAge rowKey = "AGE:" + pad(Age, 3)');

  // Saved into the workspace, as a user keeps it.
  await page.keyboard.press("Control+S");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor();
  // The simple dialog proposes a path once it has read the folder; typing before that is overwritten.
  await page.waitForFunction(
    () => (document.querySelector(".quick-input-widget input") as HTMLInputElement | null)?.value.endsWith(".tdl"),
    undefined,
    { timeout: 15_000 },
  );
  await input.fill(path.join(workspace, "registrations.tdl"));
  await page.keyboard.press("Enter");
  await page.locator('.tab[data-resource-name="registrations.tdl"]').first().waitFor({ timeout: 15_000 });
  await waitForFile(path.join(workspace, "registrations.tdl"), (text) => text.includes("table Registrations {"));
});

test("the inferred design is linted, and its quick fix applies", async () => {
  const { page } = vscode;
  // "__" after Event: the separator sorts above characters Event holds.
  await page.locator(".squiggly-warning").first().waitFor({ timeout: 30_000 });
  const lines = readFileSync(path.join(workspace, "registrations.tdl"), "utf8").split("\n");
  const line = lines.findIndex((l) => l.startsWith("  partitionKey = Event"));
  await goTo(page, line + 1, lines[line].indexOf('"__"') + 2);
  await shot("round-trip-inferred.png");
  await quickFix(page, 'Use "," as the separator');
  await page.keyboard.press("Enter");
  await waitForLine(page, 'partitionKey = Event + "," + Distance');
  await page.keyboard.press("Control+S");
  await waitForFile(path.join(workspace, "registrations.tdl"), (text) => text.includes('partitionKey = Event + "," + Distance'));
});

test("Generate key builders writes the module beside the design and opens it", async () => {
  const { page } = vscode;
  await page.locator(".codelens-decoration a", { hasText: "Generate key builders" }).first().click();
  const module = path.join(workspace, "Registrations.keys.ts");
  await page.locator('.tab[data-resource-name="Registrations.keys.ts"]').first().waitFor({ timeout: 30_000 });
  const text = await waitForFile(module, (t) => t.includes("export function partitionKey("));
  // The builders render the fixed design: "," between Event and Distance.
  assert.match(text, /","/);
  await shot("round-trip-builders.png");
});

/** Application code: the PartitionKey from the generated builder, the RowKey built by hand as the design says today. */
const REGISTER = `import { TableClient } from "@azure/data-tables";
import { partitionKey } from "./Registrations.keys";

const client = TableClient.fromConnectionString(process.env.TABLES ?? "", "Registrations");

export interface Registration { event: string; distance: "Full" | "Half" | "TenK"; bib: number; name: string; gender: "F" | "M"; age: number }

export async function register(r: Registration): Promise<void> {
  await client.createEntity({
    partitionKey: partitionKey({ Event: r.event, Distance: r.distance }),
    rowKey: \`BIB:\${String(r.bib).padStart(5, "0")}__\${r.name}__\${r.gender}__\${String(r.age).padStart(3, "0")}\`,
  });
}
`;

test("code that uses the builders follows the design; a change of the design shows as drift in the code", async () => {
  const { page } = vscode;
  writeFileSync(path.join(workspace, "register.ts"), REGISTER);
  await openFile(page, "register.ts");
  await page.keyboard.press("Control+Shift+M");
  const problems = page.locator(".markers-panel .monaco-list-row");
  // The code is analysed (the RowKey's query-free write has no finding), and nothing drifts yet.
  await page.locator(".markers-panel").waitFor({ timeout: 15_000 });
  assert.equal(await problems.filter({ hasText: "design" }).count(), 0);

  // The design's RowKey now pads Bib to 6 digits (unsaved: the editor's text is what counts).
  await openFile(page, "registrations.tdl");
  const lines = readFileSync(path.join(workspace, "registrations.tdl"), "utf8").split("\n");
  const line = lines.findIndex((l) => l.startsWith("  rowKey "));
  const column = lines[line].indexOf("pad(Bib, 5)") + "pad(Bib, ".length + 1;
  await goTo(page, line + 1, column);
  await page.keyboard.press("Shift+ArrowRight");
  await page.keyboard.type("6");
  await waitForLine(page, '"BIB:" + pad(Bib, 6)');

  await openFile(page, "register.ts");
  const drift = problems.filter({ hasText: "pads to 5 digits; the design pads Bib to 6" });
  await drift.first().waitFor({ timeout: 60_000 });
  assert.match(await drift.first().innerText(), /ts\/design-drift-key/);
  await shot("round-trip-drift.png");
});

/** Waits until `file` exists and `ready` says its text is there; returns the text. */
async function waitForFile(file: string, ready: (text: string) => boolean, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, "utf8") : "";
    if (ready(text)) return text;
    if (Date.now() > deadline) throw new Error(`${path.basename(file)} was not written as expected:\n${text.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
