/**
 * The folders are the layers (README, "Layout"). Over the import graph of
 * every source file: each layer imports only the layers below it and the
 * packages it is allowed; its tsconfig.json references exactly those layers
 * (so `tsc -b` enforces the same boundary); no import climbs out of its layer
 * with `../`; and no file is part of an import circle, type-only imports
 * included.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(__dirname, "..", "..");

interface Layer {
  name: string;
  /** The layers it may import, all below it. */
  below: string[];
  /** Packages it may import (exact names, or prefixes ending in `/` or `:`). */
  packages: string[];
}

/** Bottom to top: each layer may import only layers listed before it. */
const LAYERS: Layer[] = [
  { name: "core", below: [], packages: ["js-md5"] },
  { name: "protocol", below: ["core"], packages: [] },
  { name: "codegen", below: ["core"], packages: [] },
  { name: "ts-analysis", below: ["core", "protocol"], packages: ["typescript", "node:fs", "node:path"] },
  {
    name: "runtime",
    // The Locust export writes the Python key builders codegen makes (runtime/locust/).
    below: ["core", "protocol", "codegen"],
    packages: ["@azure/data-tables", "@azure/core-rest-pipeline", "@azure/identity", "hdr-histogram-js", "jsonc-parser", "node:"],
  },
  {
    name: "agent-tools",
    // The tools agents call (`tdl mcp`, VS Code's language model tools): transport-free, over the analysis and the runtime.
    below: ["core", "protocol", "codegen", "ts-analysis", "runtime"],
    packages: ["node:"],
  },
  {
    name: "server",
    below: ["core", "protocol", "ts-analysis"],
    packages: ["vscode-languageserver", "vscode-languageserver/", "vscode-languageserver-textdocument", "node:"],
  },
  {
    name: "cli",
    below: ["core", "protocol", "codegen", "ts-analysis", "runtime", "agent-tools"],
    packages: ["ignore", "node:", "@modelcontextprotocol/sdk/"],
  },
  {
    name: "client",
    below: ["core", "protocol", "codegen", "runtime", "agent-tools"],
    packages: ["vscode", "vscode-languageclient/", "@azure/data-tables", "node:"],
  },
  { name: "webview", below: ["core", "protocol"], packages: ["monaco-editor", "monaco-editor/", "chart.js"] },
];

/** Inside the core, each room imports only the rooms below it; the leaves are for every room. */
const CORE_LEAVES = ["core/findings.ts", "core/positions.ts", "core/services.ts", "core/options.ts", "core/errors.ts", "core/text"];
const CORE_ROOMS = ["tdl", "odata", "model", "rules", "analysis", "cost"];

/** Parts of the client that stay free of `vscode`, so tests run them in plain Node. */
const VSCODE_FREE = ["client/explorer", "client/webview-host", "client/commands/stress-options.ts"];

function sourceFiles(rel: string): string[] {
  return readdirSync(path.join(ROOT, rel), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.ts$/.test(f) && !f.endsWith(".d.ts"))
    .map((f) => path.posix.join(rel, f.split(path.sep).join("/")));
}

/** Every import and export specifier of a file, type-only ones and `import("…")` types included. */
function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(path.join(ROOT, file), "utf8"), true, true).importedFiles.map((f) => f.fileName);
}

function existing(base: string): string | undefined {
  for (const candidate of [`${base}.ts`, path.posix.join(base, "index.ts"), base]) {
    try {
      if (statSync(path.join(ROOT, candidate)).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** The project file an import names (a relative path or a layer's `@alias`), or undefined for a package. */
function resolveImport(from: string, spec: string): string | undefined {
  if (spec.startsWith(".")) return existing(path.posix.normalize(path.posix.join(path.posix.dirname(from), spec))) ?? spec;
  const alias = /^@([\w-]+)(\/.*)?$/.exec(spec);
  if (alias && LAYERS.some((l) => l.name === alias[1])) return existing(`${alias[1]}${alias[2] ?? ""}`) ?? spec;
  return undefined;
}

const layerOf = (file: string) => LAYERS.find((l) => file.startsWith(`${l.name}/`));
const inside = (file: string, p: string) => file === p || file.startsWith(`${p}/`);
const allFiles = () => LAYERS.flatMap((l) => sourceFiles(l.name));

/** What is wrong with one import of a file, or undefined. */
function problemOf(file: string, spec: string, target: string | undefined): string | undefined {
  const layer = layerOf(file)!;
  if (VSCODE_FREE.some((p) => inside(file, p)) && spec === "vscode") return "imports vscode in a part that must stay free of it";
  if (target === undefined) {
    const ok = layer.packages.some((p) => spec === p || ((p.endsWith("/") || p.endsWith(":")) && spec.startsWith(p)));
    return ok ? undefined : `imports the package '${spec}'`;
  }
  if (/(^|\/)\.\.\/\.\.\/\.\.\//.test(spec)) return `climbs three folders: '${spec}'`;
  const to = layerOf(target);
  if (!to) return `imports '${spec}', which is in no layer`;
  if (to !== layer) {
    if (spec.startsWith(".")) return `reaches into ${to.name} with a relative path: '${spec}'`;
    if (!layer.below.includes(to.name)) return `imports ${target}: ${to.name} is not below ${layer.name}`;
  }
  if (layer.name === "core") return coreRoomProblem(file, target);
  if (inside(file, "server/ide") && to.name === "server" && !inside(target, "server/ide")) return `the IDE features import ${target}`;
  return undefined;
}

function coreRoomProblem(file: string, target: string): string | undefined {
  if (CORE_LEAVES.some((p) => inside(target, p))) return undefined;
  const roomOf = (f: string) => CORE_ROOMS.indexOf(f.split("/")[1]);
  const from = roomOf(file);
  const to = roomOf(target);
  if (from < 0) return undefined; // the entry point and the leaves
  return to <= from ? undefined : `core/${CORE_ROOMS[from]} imports ${target} from the room above it`;
}

test("every import points down: layers, their packages, the core's rooms, the client's vscode-free parts", () => {
  const problems: string[] = [];
  for (const file of allFiles())
    for (const spec of importsOf(file)) {
      const p = problemOf(file, spec, resolveImport(file, spec));
      if (p) problems.push(`${file} ${p}`);
    }
  assert.deepEqual(problems, []);
});

test("each layer's tsconfig.json references exactly the layers below it that it may import, so tsc -b enforces the stack", () => {
  for (const layer of LAYERS) {
    const config = ts.readConfigFile(path.join(ROOT, layer.name, "tsconfig.json"), ts.sys.readFile).config as {
      references?: Array<{ path: string }>;
      compilerOptions?: { composite?: boolean };
    };
    assert.equal(config.compilerOptions?.composite, true, `${layer.name} is a composite project`);
    const refs = (config.references ?? []).map((r) => path.posix.basename(r.path)).sort();
    assert.deepEqual(refs, [...layer.below].sort(), `${layer.name}/tsconfig.json references`);
  }
});

/** The files on import circles: Tarjan's strongly connected components of more than one file (or a self-import). */
function circles(files: string[], edges: (f: string) => string[]): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string) => {
    // An explicit stack of (node, next edge) keeps deep graphs off the call stack.
    const work: Array<[string, number]> = [[v, 0]];
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    while (work.length) {
      const top = work[work.length - 1];
      const [node, i] = top;
      const next = edges(node)[i];
      if (next !== undefined) {
        top[1]++;
        if (!idx.has(next)) {
          idx.set(next, index);
          low.set(next, index++);
          stack.push(next);
          on.add(next);
          work.push([next, 0]);
        } else if (on.has(next)) low.set(node, Math.min(low.get(node)!, idx.get(next)!));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1][0], Math.min(low.get(work[work.length - 1][0])!, low.get(node)!));
      if (low.get(node) === idx.get(node)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          on.delete(w);
          component.push(w);
        } while (w !== node);
        if (component.length > 1 || edges(node).includes(node)) out.push(component.sort());
      }
    }
  };
  for (const f of files) if (!idx.has(f)) connect(f);
  return out;
}

test("no file is part of an import circle, type-only imports included", () => {
  const files = allFiles();
  const graph = new Map(
    files.map((f) => [
      f,
      importsOf(f)
        .map((s) => resolveImport(f, s))
        .filter((t): t is string => t !== undefined && t.endsWith(".ts")),
    ]),
  );
  assert.deepEqual(
    circles(files, (f) => graph.get(f) ?? []),
    [],
  );
});

test("the checks themselves catch an upward import, a climb, a vscode import where it must not be, and a circle", () => {
  assert.match(problemOf("core/rules/keys.ts", "@runtime", "runtime/index.ts") ?? "", /runtime is not below core/);
  assert.match(problemOf("core/rules/keys.ts", "../analysis/analyze", "core/analysis/analyze.ts") ?? "", /room above it/);
  assert.match(problemOf("core/tdl/parser.ts", "node:fs", undefined) ?? "", /package 'node:fs'/);
  assert.match(problemOf("runtime/a/b/c.ts", "../../../core", "core/index.ts") ?? "", /climbs three folders/);
  assert.match(problemOf("client/explorer/controller.ts", "vscode", undefined) ?? "", /free of it/);
  assert.equal(problemOf("client/extension.ts", "vscode", undefined), undefined);
  const ring = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a"]],
    ["d", ["a"]],
  ]);
  assert.deepEqual(
    circles([...ring.keys()], (f) => ring.get(f) ?? []),
    [["a", "b", "c"]],
  );
});
