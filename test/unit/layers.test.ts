/**
 * The folders are the layers (README, "Layout"). Over the import graph of
 * every source file: each layer imports only the layers below it and the
 * packages it is allowed; its tsconfig.json references exactly those layers
 * (so `tsc -b` enforces the same boundary); no import climbs out of its layer
 * with `../`; inside a layer, each room imports only the rooms it declares
 * (below it); and no file is part of an import circle, type-only imports
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

/**
 * A room inside a layer: its folders or files (its own folder by default)
 * and the rooms of the same layer it may import, each declared before it.
 */
interface Room {
  name: string;
  paths?: string[];
  uses: string[];
}

/**
 * The rooms inside a layer, bottom to top, as the layers are declared: each
 * room imports only the rooms it lists and the layer's leaves; the entry
 * points may import every room, and nothing imports them. Every source file
 * of the layer is in exactly one room, leaf or entry point.
 */
interface Floor {
  leaves: string[];
  entries: string[];
  rooms: Room[];
  /**
   * What a file outside the declared rooms is: "leaves" (the layer's shared
   * engine, which imports no room), or "folders" (each top-level folder a
   * room of its own that uses only the leaves: a webview page imports no
   * other page). Without it, every file must be declared.
   */
  rest?: "leaves" | "folders";
}

const ROOMS: Record<string, Floor> = {
  core: {
    leaves: ["core/findings.ts", "core/positions.ts", "core/services.ts", "core/options.ts", "core/errors.ts", "core/text"],
    entries: ["core/index.ts"],
    rooms: [
      { name: "tdl", uses: [] },
      { name: "odata", uses: ["tdl"] },
      { name: "model", uses: ["tdl", "odata"] },
      // A rule's fix candidates live beside it (core/rules/fixes/); checking them on a copy of the design is core/fixes/.
      { name: "rules", uses: ["tdl", "odata", "model"] },
      { name: "analysis", uses: ["tdl", "odata", "model", "rules"] },
      { name: "fixes", uses: ["tdl", "odata", "model", "rules", "analysis"] },
      { name: "cost", uses: ["tdl", "odata", "model", "rules", "analysis"] },
      // A migration's plan and re-keying: two designs' keys, pure (the run is runtime/migrate/).
      { name: "migrate", uses: ["tdl", "model", "analysis"] },
    ],
  },
  runtime: {
    leaves: [],
    entries: ["runtime/index.ts"],
    rooms: [
      // The ground floor for networking: deadlines, retries, endpoints — for every room that talks to a service.
      { name: "net", uses: [] },
      { name: "account", uses: ["net"] },
      { name: "prices", uses: ["net"] },
      { name: "logs", uses: [] },
      { name: "transfer", uses: ["net", "account"] },
      { name: "infer", uses: ["net", "account"] },
      { name: "emulator", uses: ["net", "account"] },
      { name: "stress", uses: ["net", "account", "emulator"] },
      { name: "locust", uses: ["net", "account", "emulator", "stress"] },
      { name: "bulk", uses: ["net", "account", "transfer", "infer"] },
      // A migration runs beside the bulk jobs, on their copy and the transfer's records.
      { name: "migrate", uses: ["net", "account", "transfer", "bulk"] },
    ],
  },
  server: {
    leaves: [],
    entries: ["server/server.ts"],
    rooms: [
      // The transport-free features: nothing else of the server.
      { name: "ide", uses: [] },
      { name: "lsp", uses: ["ide"] },
      { name: "features", uses: ["ide", "lsp"] },
    ],
  },
  cli: {
    leaves: [],
    entries: ["cli/main.ts"],
    rooms: [
      {
        name: "plumbing",
        paths: [
          "cli/files.ts",
          "cli/destinations.ts",
          "cli/catalog.ts",
          "cli/version.ts",
          "cli/output.ts",
          "cli/options.ts",
          "cli/report.ts",
          "cli/report-entries.ts",
          "cli/failure.ts",
          "cli/account.ts",
          "cli/jobs.ts",
          "cli/validate.ts",
        ],
        uses: [],
      },
      { name: "declarations", paths: ["cli/command.ts", "cli/help.ts", "cli/args.ts", "cli/commands-doc.ts"], uses: ["plumbing"] },
      // Each command's module, and the parts of a large one in a folder of its name (commands/stress/).
      { name: "commands", uses: ["plumbing", "declarations"] },
    ],
  },
  client: {
    leaves: [],
    entries: ["client/extension.ts"],
    rooms: [
      { name: "webview-host", uses: [] },
      { name: "explorer", uses: ["webview-host"] },
      // Each page's host; the explorer's reaches its controller, and gives the commands its ActiveConnection.
      { name: "pages", uses: ["webview-host", "explorer"] },
      { name: "vscode", uses: ["explorer"] },
      { name: "commands", uses: ["explorer", "pages", "vscode"] },
      { name: "panels", uses: ["webview-host", "explorer", "pages", "vscode"] },
    ],
  },
  "ts-analysis": {
    leaves: [],
    entries: ["ts-analysis/analysis.ts", "ts-analysis/loader.ts"],
    rooms: [
      // Where code left its design: compared over the engine's facts.
      { name: "drift", uses: [] },
      { name: "rules", uses: ["drift"] },
    ],
    rest: "leaves",
  },
  codegen: {
    leaves: [],
    entries: ["codegen/index.ts"],
    // The migration's dual writes name the Python builders as the python room does.
    rooms: [
      { name: "python", uses: [] },
      { name: "migration", uses: ["python"] },
    ],
    rest: "leaves",
  },
  webview: {
    leaves: ["webview/dom.ts", "webview/page.ts", "webview/problem.ts", "webview/problem.css", "webview/rpc.ts", "webview/styles.css"],
    entries: ["webview/main.ts"],
    rooms: [],
    rest: "folders",
  },
};

/** Parts of the client that stay free of `vscode`, so tests run them in plain Node. */
const VSCODE_FREE = [
  "client/explorer",
  "client/webview-host",
  "client/pages",
  "client/vscode/command-failure.ts",
  "client/commands/stress-options.ts",
];

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
  if (to === layer) return roomProblem(layer.name, file, target);
  return undefined;
}

type Place = Room | "leaf" | "entry" | undefined;

/** Where a file of `layer` sits among its rooms (undefined: in none of them). */
function placeOf(layer: string, file: string): Place {
  const floor = ROOMS[layer];
  if (floor.entries.some((p) => inside(file, p))) return "entry";
  if (floor.leaves.some((p) => inside(file, p))) return "leaf";
  const room = floor.rooms.find((r) => (r.paths ?? [`${layer}/${r.name}`]).some((p) => inside(file, p)));
  if (room || !floor.rest) return room;
  if (floor.rest === "leaves") return "leaf";
  const folder = file.split("/").length > 2 ? file.split("/")[1] : undefined;
  return folder === undefined ? undefined : { name: folder, uses: [] };
}

/** What is wrong with an import between two files of the same layer, by the layer's rooms. */
function roomProblem(layer: string, file: string, target: string): string | undefined {
  const floor = ROOMS[layer];
  if (!floor) return undefined;
  const from = placeOf(layer, file);
  const to = placeOf(layer, target);
  // A file in no room is reported once, by the test that every file has its room.
  if (from === undefined || to === undefined || from === "entry" || to === "leaf") return undefined;
  if (to !== "entry" && from !== "leaf" && from.name === to.name) return undefined;
  if (to === "entry") return `imports the entry point ${target}`;
  if (from === "leaf") return `is a leaf of ${layer} but imports ${target}`;
  if (from.uses.includes(to.name)) return undefined;
  const above = floor.rooms.findIndex((r) => r.name === to.name) > floor.rooms.findIndex((r) => r.name === from.name);
  return above
    ? `${layer}/${from.name} imports ${target} from the room above it`
    : `${layer}/${from.name} imports ${target}: ${to.name} is not among the rooms ${from.name} uses`;
}

test("every import points down: layers, their packages, the rooms inside each layer, the client's vscode-free parts", () => {
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

test("each layer's rooms are declared bottom to top, every source file is in exactly one, and every declared path exists", () => {
  const problems: string[] = [];
  for (const [layer, floor] of Object.entries(ROOMS)) {
    floor.rooms.forEach((room, i) => {
      for (const used of room.uses)
        if (!floor.rooms.slice(0, i).some((r) => r.name === used))
          problems.push(`${layer}/${room.name} uses ${used}, which is not declared below it`);
    });
    const paths = [...floor.leaves, ...floor.entries, ...floor.rooms.flatMap((r) => r.paths ?? [`${layer}/${r.name}`])];
    // A room may be declared before its folder exists (the coming migrate room of runtime); a file path must exist.
    for (const p of paths) if (p.endsWith(".ts") && existing(p) === undefined) problems.push(`${p} is declared but does not exist`);
    for (const file of sourceFiles(layer)) {
      const places = paths.filter((p) => inside(file, p));
      if (places.length === 0 && placeOf(layer, file) !== undefined) continue; // a leaf or a folder's own room, by `rest`
      if (places.length !== 1) problems.push(`${file} is in ${places.length ? places.join(" and ") : "no room"} of ${layer}`);
    }
  }
  assert.deepEqual(problems, []);
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

test("the checks themselves catch an upward import (between layers and between rooms), a climb, a vscode import where it must not be, and a circle", () => {
  assert.match(problemOf("core/rules/keys.ts", "@runtime", "runtime/index.ts") ?? "", /runtime is not below core/);
  assert.match(problemOf("core/rules/keys.ts", "../analysis/analyze", "core/analysis/analyze.ts") ?? "", /room above it/);
  assert.match(
    problemOf("core/rules/partitions.ts", "../fixes/vet", "core/fixes/vet.ts") ?? "",
    /core\/rules imports core\/fixes\/vet.ts from the room above it/,
  );
  assert.equal(problemOf("core/rules/partitions.ts", "./fixes/candidates", "core/rules/fixes/candidates.ts"), undefined);
  assert.match(
    problemOf("runtime/net/retry.ts", "../stress/engine", "runtime/stress/engine.ts") ?? "",
    /runtime\/net imports .* from the room above it/,
  );
  assert.match(problemOf("runtime/infer/sample.ts", "../logs/csv", "runtime/logs/csv.ts") ?? "", /logs is not among the rooms infer uses/);
  assert.match(problemOf("runtime/bulk/export.ts", "../index", "runtime/index.ts") ?? "", /imports the entry point/);
  assert.equal(problemOf("runtime/index.ts", "./bulk/export", "runtime/bulk/export.ts"), undefined);
  assert.match(problemOf("client/webview-host/host.ts", "../explorer/controller", "client/explorer/controller.ts") ?? "", /room above it/);
  assert.match(
    problemOf("server/ide/hover.ts", "../lsp/budget", "server/lsp/budget.ts") ?? "",
    /server\/ide imports .* from the room above it/,
  );
  assert.match(
    problemOf("webview/explorer/app.ts", "../heatmap/model", "webview/heatmap/model.ts") ?? "",
    /heatmap is not among the rooms explorer uses/,
  );
  assert.equal(problemOf("webview/explorer/app.ts", "../dom", "webview/dom.ts"), undefined);
  assert.match(
    problemOf("ts-analysis/calls.ts", "./rules/keys", "ts-analysis/rules/keys.ts") ?? "",
    /is a leaf of ts-analysis but imports/,
  );
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
