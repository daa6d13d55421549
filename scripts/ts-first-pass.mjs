// TypeScript's own first pass, in a fresh process as an editor meets it (tsserver starts cold):
// loads the compiler, builds a LanguageService over a project and asks for every file's semantic
// diagnostics. Used by scripts/bench.mjs to compare cold with cold; prints one JSON line.
// Usage: node scripts/ts-first-pass.mjs <project folder> <file>...
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { readFileSync } from "node:fs";

const started = performance.now();
const cpu0 = process.cpuUsage();
const ts = createRequire(import.meta.url)("typescript");
const loaded = performance.now() - started;
const [dir, ...files] = process.argv.slice(2);
const parsed = ts.parseJsonConfigFileContent(JSON.parse(readFileSync(`${dir}/tsconfig.json`, "utf8")), ts.sys, dir);
const texts = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: () => "1",
  getScriptSnapshot: (f) => {
    const t = texts.get(f) ?? ts.sys.readFile(f);
    return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
  },
  getCurrentDirectory: () => dir,
  getCompilationSettings: () => parsed.options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const ls = ts.createLanguageService(host, ts.createDocumentRegistry());
let diagnostics = 0;
for (const f of files) diagnostics += ls.getSemanticDiagnostics(f).length;
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ wall: performance.now() - started, cpu: (cpu.user + cpu.system) / 1000, loaded, diagnostics }));
