// TypeScript's own first pass, in a fresh process as an editor meets it (tsserver starts cold):
// loads the compiler, builds a LanguageService over a project and asks for every file's semantic
// diagnostics. Used by scripts/bench.mjs to compare cold with cold; prints one JSON line.
// Usage: node scripts/ts-first-pass.mjs <project folder> <file>...
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { readFileSync } from "node:fs";
import { languageService } from "./ts-service.mjs";

const started = performance.now();
const cpu0 = process.cpuUsage();
const ts = createRequire(import.meta.url)("typescript");
const loaded = performance.now() - started;
const [dir, ...files] = process.argv.slice(2);
const parsed = ts.parseJsonConfigFileContent(JSON.parse(readFileSync(`${dir}/tsconfig.json`, "utf8")), ts.sys, dir);
const texts = new Map(files.map((f) => [f, { text: readFileSync(f, "utf8"), version: 1 }]));
const ls = languageService(ts, dir, files, parsed.options, texts);
let diagnostics = 0;
for (const f of files) diagnostics += ls.getSemanticDiagnostics(f).length;
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ wall: performance.now() - started, cpu: (cpu.user + cpu.system) / 1000, loaded, diagnostics }));
