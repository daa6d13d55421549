/**
 * The agent tools in a real VS Code (issue 36): a probe extension, installed
 * beside the built one, calls `vscode.lm.invokeTool` on each design tool the
 * extension contributes — from inside the extension host, as an agent mode
 * would — and writes what each returned. check_design and check_code give
 * the findings `tdl check --format json` gives for the same files, and the
 * tools VS Code lists are the registry's.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { TOOLS, vscodeToolName } from "@agent-tools";
import { makeWorkspace, openVsCode, runCommand, VsCodeSession } from "../helpers/vscode";

const CLI = path.resolve("dist/cli.js");
const DESIGNS = ["ledger.tdl", "telemetry.tdl", "marathon.tdl", "student-cards/composite-colon.tdl"];
const CODE = "typescript/registrations.ts";

/** The calls the probe makes, by an id of each. */
const CALLS: Array<{ id: string; tool: string; input: Record<string, unknown> }> = [
  ...DESIGNS.map((p) => ({ id: p, tool: "check_design", input: { path: p } })),
  { id: CODE, tool: "check_code", input: { paths: [CODE] } },
  { id: "classify", tool: "classify_query", input: { filter: "PartitionKey eq 'Boston__Full'", path: "marathon.tdl" } },
  { id: "fix", tool: "preview_fix", input: { path: "telemetry.tdl" } },
  { id: "cost", tool: "estimate_cost", input: { path: "ledger.tdl", table: "Ledger" } },
  { id: "rule", tool: "explain_rule", input: { code: "partition/hot" } },
  { id: "outside", tool: "check_design", input: { path: "../../package.json" } },
];

/** The probe: one command that invokes each call's tool and writes the answers to lm-results.json in the workspace. */
const PROBE = `const vscode = require("vscode");
const fs = require("fs");
const path = require("path");
exports.activate = (context) => {
  context.subscriptions.push(vscode.commands.registerCommand("tdaProbe.invokeTools", async () => {
    const root = vscode.workspace.workspaceFolders[0].uri.fsPath;
    const calls = JSON.parse(fs.readFileSync(path.join(root, "lm-calls.json"), "utf8"));
    const out = { tools: vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith("tableDesign_")), answers: {} };
    for (const c of calls) {
      try {
        const r = await vscode.lm.invokeTool(c.tool, { input: c.input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
        out.answers[c.id] = { text: r.content.map((p) => p.value).join("") };
      } catch (e) {
        out.answers[c.id] = { error: String(e && e.message) };
      }
    }
    fs.writeFileSync(path.join(root, "lm-results.json"), JSON.stringify(out));
    vscode.window.showInformationMessage("Probe: the tools answered");
  }));
};
`;

let vscode: VsCodeSession;
let probeRoot: string;
let results: { tools: string[]; answers: Record<string, { text?: string; error?: string }> };

before(async () => {
  probeRoot = mkdtempSync(path.join(tmpdir(), "tda-probe-"));
  const probe = path.join(probeRoot, "tda-test.lm-probe-0.0.1");
  mkdirSync(probe);
  writeFileSync(
    path.join(probe, "package.json"),
    JSON.stringify({
      name: "lm-probe",
      publisher: "tda-test",
      version: "0.0.1",
      engines: { vscode: "^1.100.0" },
      main: "./extension.js",
      activationEvents: ["onCommand:tdaProbe.invokeTools"],
      extensionDependencies: ["table-design.table-design-assistant"],
      contributes: { commands: [{ command: "tdaProbe.invokeTools", title: "Probe: Invoke the Language Model Tools" }] },
    }),
  );
  writeFileSync(path.join(probe, "extension.js"), PROBE);
  const workspace = await makeWorkspace({ "lm-calls.json": JSON.stringify(CALLS.map((c) => ({ ...c, tool: vscodeToolName(c.tool) }))) });
  vscode = await openVsCode(workspace, { extensions: [probe] });
  await runCommand(vscode.page, "Probe: Invoke the Language Model Tools");
  await vscode.page.locator(".notification-toast", { hasText: "Probe: the tools answered" }).first().waitFor({ timeout: 120_000 });
  const file = path.join(workspace, "lm-results.json");
  assert.ok(existsSync(file));
  results = JSON.parse(readFileSync(file, "utf8")) as typeof results;
});

after(async () => {
  await vscode?.close();
  if (probeRoot) rmSync(probeRoot, { recursive: true, force: true });
});

/** `tdl check --format json FILE` in the workspace: the file's diagnostics and queries. */
function tdlCheck(file: string): { diagnostics: unknown[]; queries: unknown[] } {
  const r = spawnSync(process.execPath, [CLI, "check", "--format", "json", file], { cwd: vscode.workspace, encoding: "utf8" });
  return (JSON.parse(r.stdout) as { files: Array<{ diagnostics: unknown[]; queries: unknown[] }> }).files[0];
}

const answer = (id: string) => {
  const a = results.answers[id];
  assert.ok(a.text !== undefined, `${id}: ${a.error}`);
  return JSON.parse(a.text) as Record<string, unknown>;
};

test("VS Code lists every tool of the registry, by the name the extension contributes", () => {
  assert.deepEqual([...results.tools].sort(), TOOLS.map((t) => vscodeToolName(t.name)).sort());
});

test("check_design through vscode.lm.invokeTool gives each design's findings and queries as tdl check does", () => {
  for (const design of DESIGNS) {
    const expected = tdlCheck(design);
    const got = answer(design);
    assert.deepEqual(got.findings, expected.diagnostics, design);
    assert.deepEqual(got.queries, expected.queries, design);
  }
});

test("check_code through vscode.lm.invokeTool gives the code's findings as tdl check does", () => {
  const [file] = answer(CODE).files as Array<{ path: string; findings: unknown[]; queries: unknown[] }>;
  const expected = tdlCheck(CODE);
  assert.equal(file.path, CODE);
  assert.deepEqual(file.findings, expected.diagnostics);
  assert.deepEqual(file.queries, expected.queries);
});

test("the other design tools answer in VS Code as over MCP, and a path outside the workspace is refused", () => {
  assert.deepEqual([answer("classify").class, answer("classify").scanned], ["row-range", 6667]);
  assert.deepEqual(
    (answer("fix").applied as Array<{ code: string }>).map((a) => a.code),
    ["partition/append-only"],
  );
  assert.equal((answer("cost").tables as Array<{ estimates: Array<{ monthlyUsd: number }> }>)[0].estimates[0].monthlyUsd, 37.4);
  assert.equal(answer("rule").section, "Partitions and load");
  assert.match(results.answers.outside.error ?? "", /is outside the workspace/);
});
