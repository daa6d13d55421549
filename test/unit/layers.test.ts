/**
 * The layer boundaries of the README's "Layout", checked over the import
 * graph of every source file: a layer imports only what is below it, and
 * other layers reach the core and the runtime through their entry points.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(__dirname, "..", "..");

interface Layer {
  name: string;
  /** Files of the layer: a folder or a file, relative to the root. */
  paths: string[];
  /** Project files it may import (folders or files); its own files always. */
  may: string[];
  /** Packages it may import (exact names or prefixes ending in `/` or `:`). */
  packages: string[];
}

const CORE = "server/src/core/index.ts";
const RUNTIME = "client/src/runtime/index.ts";
const SHAPES = "client/src/runtime/shapes.ts";
const CODEGEN = "server/src/codegen/index.ts";

/** The core's leaf modules: result types, positions, the services table and the options; every room may use them. */
const LEAVES = ["server/src/core/findings.ts", "server/src/core/positions.ts", "server/src/core/services.ts", "server/src/core/options.ts"];

/** Inside the core, each room imports only the rooms below it. */
const coreRoom = (room: string, below: string[]): Layer => ({
  name: `core/${room}`,
  paths: [`server/src/core/${room}`],
  may: [...LEAVES, ...below.map((b) => `server/src/core/${b}`)],
  packages: ["js-md5"],
});

const LAYERS: Layer[] = [
  { name: "core leaves", paths: LEAVES, may: ["server/src/core/services.ts"], packages: [] },
  coreRoom("tdl", []),
  coreRoom("odata", ["tdl"]),
  coreRoom("model", ["tdl", "odata"]),
  coreRoom("rules", ["tdl", "odata", "model"]),
  coreRoom("analysis", ["tdl", "odata", "model", "rules"]),
  { name: "core entry", paths: [CORE], may: ["server/src/core"], packages: [] },
  { name: "ide", paths: ["server/src/ide"], may: [CORE], packages: [] },
  { name: "typescript", paths: ["server/src/typescript"], may: [CORE], packages: ["typescript", "node:fs", "node:path"] },
  // Pure like the core: a design model in, TypeScript text out.
  { name: "codegen", paths: ["server/src/codegen"], may: [CORE], packages: [] },
  {
    name: "language server",
    paths: ["server/src/server.ts", "server/src/lsp", "server/src/errors.ts"],
    may: [CORE, "server/src/ide/index.ts", "server/src/typescript", "server/src/errors.ts", CODEGEN],
    packages: ["vscode-languageserver", "vscode-languageserver/", "vscode-languageserver-textdocument", "node:"],
  },
  {
    name: "runtime",
    paths: ["client/src/runtime"],
    may: [CORE],
    packages: ["@azure/data-tables", "@azure/identity", "bloom-filters", "hdr-histogram-js", "node:"],
  },
  {
    name: "cli",
    paths: ["server/src/cli"],
    may: [CORE, RUNTIME, "server/src/typescript", "server/src/errors.ts", CODEGEN],
    packages: ["ignore", "node:"],
  },
  {
    name: "panel hosts",
    paths: ["client/src/panel"],
    may: [CORE, RUNTIME, "webview/src/protocol.ts"],
    packages: ["@azure/data-tables", "node:"],
  },
  {
    name: "extension",
    paths: ["client/src/extension.ts", "client/src/vscode"],
    may: [CORE, RUNTIME, "client/src/panel", "webview/src/protocol.ts", CODEGEN],
    packages: ["vscode", "vscode-languageclient/", "node:"],
  },
  { name: "webview", paths: ["webview/src"], may: [CORE, SHAPES], packages: ["monaco-editor", "monaco-editor/", "chart.js"] },
];

function sourceFiles(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (statSync(abs).isFile()) return [rel];
  return readdirSync(abs, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts"))
    .map((f) => path.join(rel, f));
}

/** Every import and export specifier of a file, type-only ones included. */
function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(path.join(ROOT, file), "utf8"), true, true).importedFiles.map((f) => f.fileName);
}

function resolveProject(from: string, spec: string): string {
  const base = path.normalize(path.join(path.dirname(from), spec));
  for (const candidate of [`${base}.ts`, path.join(base, "index.ts"), base]) {
    try {
      if (statSync(path.join(ROOT, candidate)).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return base;
}

const inside = (file: string, p: string) => file === p || file.startsWith(p.endsWith(".ts") ? `${p}\u0000` : `${p}/`);
const layerOf = (file: string) => LAYERS.find((l) => l.paths.some((p) => inside(file, p)));

test("every source file belongs to a layer", () => {
  const all = ["server/src", "client/src", "webview/src"].flatMap(sourceFiles);
  assert.deepEqual(
    all.filter((f) => !layerOf(f)),
    [],
  );
});

test("no layer imports upward, and other layers reach the core and the runtime through their entry points", () => {
  const problems: string[] = [];
  for (const layer of LAYERS) {
    for (const file of layer.paths.flatMap(sourceFiles)) {
      for (const spec of importsOf(file)) {
        if (spec.startsWith(".")) {
          const target = resolveProject(file, spec);
          const own = layerOf(target) === layer;
          if (!own && !layer.may.some((p) => inside(target, p))) problems.push(`${file} (${layer.name}) imports ${target}`);
        } else if (!layer.packages.some((p) => spec === p || ((p.endsWith("/") || p.endsWith(":")) && spec.startsWith(p)))) {
          problems.push(`${file} (${layer.name}) imports the package '${spec}'`);
        }
      }
    }
  }
  assert.deepEqual(problems, []);
});

test("the check itself catches an upward import", () => {
  const rules = layerOf("server/src/core/rules/keys.ts")!;
  assert.equal(rules.name, "core/rules");
  assert.ok(!rules.may.some((p) => inside("server/src/core/analysis/analyze.ts", p)), "rules may not import the analysis above them");
  assert.ok(!layerOf("server/src/core/tdl/parser.ts")!.packages.includes("node:"), "the core may not use Node");
});
