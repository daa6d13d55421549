/**
 * `tdl check --design-drift`: the designs among the paths are compared with
 * the code; drift makes the run fail (exit 1) for CI, and the same drift
 * without the flag is a warning (exit 0). The seeded project's unchanged
 * code passes.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { driftCorpus } from "../helpers/drift-corpus";

const CLI = path.resolve("dist/cli.js");
const base = path.resolve("test/fixtures/ts");
mkdirSync(base, { recursive: true });
const dir = mkdtempSync(path.join(base, ".tmp-cli-drift-"));
const corpus = driftCorpus(5);
after(() => {
  rmSync(dir, { recursive: true, force: true });
  corpus.dispose();
});

function tdl(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, "check", ...args], { cwd: dir, encoding: "utf8" });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

copyFileSync(path.resolve("examples/marathon.tdl"), path.join(dir, "marathon.tdl"));
writeFileSync(
  path.join(dir, "tsconfig.json"),
  JSON.stringify({ compilerOptions: { strict: true, module: "Node16", moduleResolution: "Node16", noEmit: true } }),
);
writeFileSync(
  path.join(dir, "register.ts"),
  `import { TableClient } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Registrations");
export async function register(r: { event: string; distance: string; bib: number; name: string; gender: string; age: number }) {
  await client.createEntity({ partitionKey: r.event + "-" + r.distance, rowKey: \`BIB:\${String(r.bib).padStart(5, "0")}__\${r.name}__\${r.gender}__\${String(r.age).padStart(3, "0")}\` });
}
`,
);

writeFileSync(
  path.join(dir, "walk.cjs"),
  `const { TableClient } = require("@azure/data-tables");
const client = TableClient.fromConnectionString(process.env.CONN || "", "Registrations");
exports.walk = (r) => client.upsertEntity({ partitionKey: r.event + "__" + r.distance, rowKey: "AGE:" + String(r.age).padStart(3, "0") + "__" + String(r.bib).padStart(4, "0") + "__" + r.name + "__" + r.gender });
`,
);

test("--design-drift: drift from a design among the paths is an error, exit 1; the design's own file is checked too", () => {
  const r = tdl(["--design-drift", "--format", "json", "."]);
  assert.equal(r.code, 1, r.stderr);
  const report = JSON.parse(r.stdout) as {
    files: Array<{
      path: string;
      diagnostics: Array<{ code: string; severity: string; message: string; range: { start: { line: number } } }>;
    }>;
  };
  const drift = report.files
    .flatMap((f) => f.diagnostics.map((d) => ({ ...d, path: f.path })))
    .filter((d) => d.code.startsWith("ts/design-drift"));
  assert.deepEqual(
    drift.map((d) => [d.path, d.code, d.severity, d.range.start.line]),
    [
      ["register.ts", "ts/design-drift-key", "error", 3],
      ["walk.cjs", "ts/design-drift-key", "error", 2],
    ],
  );
  assert.match(drift[0].message, /"-" between its parts where the design has "__"/);
  // JavaScript too: the index row's Bib padded to 4, where the design pads it to 5.
  assert.match(drift[1].message, /index ByAge.*pads to 4 digits; the design pads Bib to 5/);
  assert.ok(report.files.some((f) => f.path === "marathon.tdl"));
});

test("without --design-drift the same finding is a warning: exit 0; without the design among the paths, no drift at all", () => {
  const r = tdl(["--format", "json", "."]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /"code": "ts\/design-drift-key",\s*"severity": "warning"/);
  const codeOnly = tdl(["--design-drift", "register.ts", "walk.cjs"]);
  assert.equal(codeOnly.code, 0, codeOnly.stdout);
  assert.doesNotMatch(codeOnly.stdout, /design-drift/);
});

test("the seeded project: its unchanged code passes --design-drift; its seeded files fail it", () => {
  // ledger.tdl's cross-partition transaction is an error of the design on purpose (its walkthrough): not what this run is about.
  const designs = ["--rule", "transaction/cross-partition=warning", ...corpus.designs];
  const clean = spawnSync(process.execPath, [CLI, "check", "--design-drift", "--format", "json", ...designs, ...corpus.correct], {
    encoding: "utf8",
  });
  assert.equal(clean.status, 0, clean.stdout.slice(0, 2000) + clean.stderr);
  const seeded = spawnSync(process.execPath, [CLI, "check", "--design-drift", "--format", "json", ...designs, ...corpus.seeded], {
    encoding: "utf8",
  });
  assert.equal(seeded.status, 1, seeded.stderr);
  const errors = (JSON.parse(seeded.stdout) as { files: Array<{ diagnostics: Array<{ code: string; severity: string }> }> }).files
    .flatMap((f) => f.diagnostics)
    .filter((d) => d.code.startsWith("ts/design-drift") && d.severity === "error");
  assert.equal(errors.length, corpus.seeds.length);
});
