/**
 * `tdl check` on TypeScript and JavaScript: JavaScript files are analysed,
 * test files keep their load findings only with --test-files, and a project
 * whose SDK types do not resolve gets one line on stderr.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const CLI = path.resolve("dist/cli.js");
const made: string[] = [];
after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tdl(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

/** A project folder: inside the repository (the SDK resolves) or in the system's temp folder (it does not). */
function project(files: Record<string, string>, resolvable: boolean): string {
  const base = resolvable ? path.resolve("test/fixtures/ts") : tmpdir();
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(path.join(base, resolvable ? ".tmp-cli-" : "tdl-cli-code-"));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const CLIENTS = `const { TableClient } = require("@azure/data-tables");
exports.visits = TableClient.fromConnectionString(process.env.CONN || "", "Visits");
`;
const HANDLER = `const { visits } = require("../clients.cjs");
module.exports = async function (context, req) {
  await visits.upsertEntity({ partitionKey: "VISIT", rowKey: String(req.query.page) });
};
`;

test("JavaScript is analysed: a client from a helper module writes a constant partition key, one warning for the table", () => {
  const OTHER = HANDLER.replace("upsertEntity", "createEntity").replace("req.query.page", "req.query.ref");
  const dir = project(
    { "jsconfig.json": "{}", "clients.cjs": CLIENTS, "api/visit.js": HANDLER, "api/welcome.js": OTHER, "bundle.min.js": HANDLER },
    true,
  );
  const r = tdl(["check", ".", "--format", "json"], dir);
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.deepEqual(
    json.files.map((f: { path: string }) => f.path),
    ["api/visit.js", "api/welcome.js", "clients.cjs"],
  );
  const [d] = json.files[0].diagnostics;
  assert.equal(d.code, "ts/constant-partition-key");
  assert.equal(d.severity, "warning");
  assert.match(d.message, /\(1 other site: welcome\.js:3\): the whole table is one partition/);
  assert.deepEqual(d.range, { start: { line: 2, character: 44 }, end: { line: 2, character: 51 } });
  // The other write of the table is a related place of the one warning, and a hint where it is.
  assert.deepEqual(d.related, [
    { path: "api/welcome.js", line: 2, character: 44, message: 'another write to table "Visits" with a constant partition key' },
  ]);
  assert.deepEqual(
    json.files[1].diagnostics.map((x: { code: string; severity: string }) => [x.code, x.severity]),
    [["ts/constant-partition-key", "hint"]],
  );
  const sarif = JSON.parse(tdl(["check", ".", "--format", "sarif"], dir).stdout);
  const warning = sarif.runs[0].results.find((x: { level: string }) => x.level === "warning");
  assert.deepEqual(warning.relatedLocations[0].physicalLocation, {
    artifactLocation: { uri: "api/welcome.js" },
    region: { startLine: 3, startColumn: 45 },
  });
  assert.equal(r.stderr, "");
});

test("test files: load rules only with --test-files", () => {
  const dir = project({ "jsconfig.json": "{}", "clients.cjs": CLIENTS, "__tests__/visit.js": HANDLER }, true);
  const codes = (args: string[]) =>
    JSON.parse(tdl(["check", ".", "--format", "json", ...args], dir).stdout).files.flatMap((f: { diagnostics: Array<{ code: string }> }) =>
      f.diagnostics.map((x) => x.code),
    );
  assert.deepEqual(codes([]), []);
  assert.deepEqual(codes(["--test-files"]), ["ts/constant-partition-key"]);
  const bad = tdl(["check", ".", "--test-files=yes"], dir);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--test-files takes no value/);
});

test("when @azure/data-tables does not resolve, one line on stderr says so; the run goes on", () => {
  const source = `import { TableClient } from "@azure/data-tables";
const client = new TableClient("https://x.table.core.windows.net", "Orders");
export const save = (id: string) => client.createEntity({ partitionKey: \`\${Date.now()}\`, rowKey: id });
`;
  const dir = project(
    {
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, module: "Node16", moduleResolution: "Node16", types: [] } }),
      "a.ts": source,
      "b.ts": source,
    },
    false,
  );
  const r = tdl(["check", "."], dir);
  assert.equal(r.code, 0);
  const lines = r.stderr.split("\n").filter(Boolean);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /^tdl: @azure\/data-tables's types do not resolve from .* \(no node_modules yet\? run npm install\)/);
  assert.match(r.stdout, /a\.ts:3:\d+ warning ts\/append-only-key/);
});
