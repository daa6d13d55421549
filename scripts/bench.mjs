// `npm run bench`: language server latency on a 5,000-line design, measured
// over JSON-RPC against the real server, side by side in the same run with
// Prisma's language server (its schema engine is compiled to Wasm) on a
// 5,000-line Prisma schema — the compiled peer the project compares with.
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const rpc = require("vscode-languageserver-protocol/node");
const LINES = 5000;
const EDITS = Number(process.env.BENCH_EDITS ?? 40);
const WARMUP = 5;

/** A design of ~5,000 lines: tables shaped like the guides' examples, each with keys, an index, estimates and patterns. */
export function generateDesign(lines = LINES) {
  const out = ["// generated benchmark design", "service azure-table", ""];
  for (let t = 0; out.length < lines; t++) {
    out.push(
      `table Registrations${t} {`,
      `  Event:    string(60) charset "a-z0-9" distinct ${100 + t}`,
      "  Distance: enum(Full, Half, TenK)",
      "  Bib:      int(0..99999)",
      "  Name:     string(40)",
      "  Gender:   enum(M, F)",
      "  Age:      int(0..120)",
      "  Club:     string(30) distinct 500 hot 5%",
      "  At:       datetime increasing",
      "",
      "  partitionKey = Event + \",\" + Distance",
      "  rowKey       = \"BIB:\" + pad(Bib, 5) + \"__\" + Name + \"__\" + Gender + \"__\" + pad(Age, 3)",
      "  index ByAge rowKey = \"AGE:\" + pad(Age, 3) + \"__\" + pad(Bib, 5) + \"__\" + Name",
      "  index ByClub rowKey = \"CLUB:\" + Club + \"__\" + pad(Bib, 5)",
      "",
      "  rows 2M",
      "  entitySize 1KB",
      "",
      "  query ByBib 200/s where Event = ? and Distance = ? and Bib = ?",
      "  query ByAge 20/s where Event = ? and Distance = ? and Age between ?",
      "  query Recent 5/s filter \"PartitionKey eq 'a,Full' and RowKey ge 'BIB:00000'\" select Name, Age",
      "  insert Register 300/s",
      "  transaction Enrol 10/s entities 2 sharing Event, Distance",
      "}",
      "",
    );
  }
  return out.slice(0, lines).join("\n") + "\n}\n";
}

/** A Prisma schema of ~5,000 lines: models with scalar fields, relations and indexes. */
export function generatePrismaSchema(lines = LINES) {
  const out = ["datasource db {", "  provider = \"postgresql\"", "  url      = env(\"DATABASE_URL\")", "}", ""];
  for (let m = 0; out.length < lines - 20; m++) {
    out.push(
      `model Registration${m} {`,
      "  id        Int      @id @default(autoincrement())",
      "  event     String   @db.VarChar(60)",
      "  distance  String",
      "  bib       Int",
      "  name      String   @db.VarChar(40)",
      "  gender    String",
      "  age       Int",
      "  club      String?",
      "  createdAt DateTime @default(now())",
      `  clubId    Int?`,
      `  owner     Club${m}?   @relation(fields: [clubId], references: [id])`,
      "",
      "  @@unique([event, distance, bib])",
      "  @@index([event, distance, age])",
      "}",
      "",
      `model Club${m} {`,
      "  id      Int    @id @default(autoincrement())",
      "  name    String",
      `  members Registration${m}[]`,
      "}",
      "",
    );
  }
  return out.join("\n");
}

class Server {
  constructor(command, args, languageId) {
    this.languageId = languageId;
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"] });
    this.conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(this.child.stdout), new rpc.StreamMessageWriter(this.child.stdin));
    this.waiters = [];
    this.conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
      const w = this.waiters.shift();
      if (w) w(p);
    });
    this.conn.onRequest(rpc.ConfigurationRequest.type, (p) => p.items.map(() => ({})));
    this.conn.onRequest(rpc.RegistrationRequest.type, () => undefined);
    this.conn.onRequest("window/workDoneProgress/create", () => null);
    this.conn.onNotification(() => undefined);
    this.child.once("exit", (code) => {
      for (const w of this.waiters.splice(0)) w(Promise.reject(new Error(`${command} ${args.join(" ")} exited with code ${code}`)));
    });
    this.conn.listen();
  }

  async init() {
    await this.conn.sendRequest(rpc.InitializeRequest.type, {
      processId: process.pid, rootUri: null, workspaceFolders: null, capabilities: { workspace: { configuration: true } },
    });
    await this.conn.sendNotification(rpc.InitializedNotification.type, {});
  }

  nextDiagnostics() {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async open(uri, text) {
    const started = performance.now();
    const got = this.nextDiagnostics();
    await this.conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: this.languageId, version: 1, text } });
    const d = await got;
    return { ms: performance.now() - started, count: d.diagnostics.length };
  }

  /** Replaces one line (an incremental change, as an editor sends per keystroke) and waits for the diagnostics. */
  async edit(uri, version, line, oldLength, newText) {
    const started = performance.now();
    const got = this.nextDiagnostics();
    await this.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: oldLength } }, text: newText }],
    });
    await got;
    return performance.now() - started;
  }

  async stop() {
    try {
      await Promise.race([this.conn.sendRequest(rpc.ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000))]);
      await this.conn.sendNotification(rpc.ExitNotification.type);
    } catch { /* already gone */ }
    this.conn.dispose();
    this.child.kill();
  }
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function measure(name, server, uri, text, editLine, variants) {
  await server.init();
  const open = await server.open(uri, text);
  const lines = text.split("\n");
  let current = lines[editLine];
  const samples = [];
  for (let i = 0; i < WARMUP + EDITS; i++) {
    const next = variants[i % variants.length];
    const ms = await server.edit(uri, i + 2, editLine, current.length, next);
    current = next;
    if (i >= WARMUP) samples.push(ms);
  }
  await server.stop();
  return { name, lines: lines.length, openMs: open.ms, diagnostics: open.count, p50: pct(samples, 50), p90: pct(samples, 90) };
}

async function main() {
  const build = spawnSync(process.execPath, [path.join(ROOT, "esbuild.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);

  // Real files in a real folder: Prisma's server reads the schema's folder.
  const dir = mkdtempSync(path.join(tmpdir(), "tda-bench-"));
  const fileUri = (name, text) => { writeFileSync(path.join(dir, name), text); return pathToFileURL(path.join(dir, name)).href; };
  const design = generateDesign();
  const designLines = design.split("\n");
  const tdlLine = designLines.findIndex((l, i) => i > designLines.length / 2 && l.startsWith("  Bib:"));
  const ours = await measure("Table Design (tdl)", new Server(process.execPath, [path.join(ROOT, "dist/server.js"), "--stdio"], "tdl"),
    fileUri("design.tdl", design), design, tdlLine,
    ["  Bib:      int(0..9999)", "  Bib:      int(0..99999)", "  Bib:      int(0..999999)"]);

  const schema = generatePrismaSchema();
  const schemaLines = schema.split("\n");
  const prismaLine = schemaLines.findIndex((l, i) => i > schemaLines.length / 2 && l.startsWith("  bib"));
  const prismaBin = path.join(path.dirname(require.resolve("@prisma/language-server")), "bin.js");
  const peer = await measure("Prisma (compiled peer)", new Server(process.execPath, [prismaBin, "--stdio"], "prisma"),
    fileUri("schema.prisma", schema), schema, prismaLine,
    ["  bibNo     Int", "  bib       Int", "  bibs      Int"]);

  const row = (r) => `${r.name.padEnd(24)} ${String(r.lines).padStart(6)} ${r.openMs.toFixed(1).padStart(9)} ${r.p50.toFixed(1).padStart(9)} ${r.p90.toFixed(1).padStart(9)} ${String(r.diagnostics).padStart(6)}`;
  console.log(`\nEdit-to-diagnostics latency over JSON-RPC, ${EDITS} edits after ${WARMUP} warm-up edits (ms)\n`);
  console.log(`${"server".padEnd(24)} ${"lines".padStart(6)} ${"open".padStart(9)} ${"edit p50".padStart(9)} ${"edit p90".padStart(9)} ${"diags".padStart(6)}`);
  rmSync(dir, { recursive: true, force: true });
  console.log(row(ours));
  console.log(row(peer));
  console.log(`\nratio (ours / peer) at p50: ${(ours.p50 / peer.p50).toFixed(2)}; target ≤ 1.00 (the peer answered ≈ 18 ms p50 when the target was set)`);
}

await main();
