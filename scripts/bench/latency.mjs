// Keystroke latency (`npm run bench`'s first section; `node scripts/bench.mjs latency`):
// the language server on a 5,000-line design, measured over JSON-RPC against the
// real server, side by side in the same run with Prisma's language server (its
// schema engine is compiled to Wasm) on a 5,000-line Prisma schema — the compiled
// peer the project compares with.
import * as path from "node:path";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";
import { EDITS, ROOT, Server, WARMUP, measure, require } from "./shared.mjs";

const LINES = 5000;

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
      '  partitionKey = Event + "," + Distance',
      '  rowKey       = "BIB:" + pad(Bib, 5) + "__" + Name + "__" + Gender + "__" + pad(Age, 3)',
      '  index ByAge rowKey = "AGE:" + pad(Age, 3) + "__" + pad(Bib, 5) + "__" + Name',
      '  index ByClub rowKey = "CLUB:" + Club + "__" + pad(Bib, 5)',
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
  const out = ["datasource db {", '  provider = "postgresql"', '  url      = env("DATABASE_URL")', "}", ""];
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

/** The section: our server and Prisma's, each on its 5,000-line file, edit by edit. */
export async function run() {
  // Real files in a real folder: Prisma's server reads the schema's folder.
  const dir = mkdtempSync(path.join(tmpdir(), "tda-bench-"));
  const fileUri = (name, text) => {
    writeFileSync(path.join(dir, name), text);
    return pathToFileURL(path.join(dir, name)).href;
  };
  const design = generateDesign();
  const designLines = design.split("\n");
  const tdlLine = designLines.findIndex((l, i) => i > designLines.length / 2 && l.startsWith("  Bib:"));
  const ours = await measure(
    "Table Design (tdl)",
    new Server(process.execPath, [path.join(ROOT, "dist/server.js"), "--stdio"], "tdl"),
    fileUri("design.tdl", design),
    design,
    tdlLine,
    ["  Bib:      int(0..9999)", "  Bib:      int(0..99999)", "  Bib:      int(0..999999)"],
    // The first tables' diagnostics come without a version; the complete set carries it.
    (p) => p.version !== undefined,
  );

  const schema = generatePrismaSchema();
  const schemaLines = schema.split("\n");
  const prismaLine = schemaLines.findIndex((l, i) => i > schemaLines.length / 2 && l.startsWith("  bib"));
  const prismaBin = path.join(path.dirname(require.resolve("@prisma/language-server")), "bin.js");
  const peer = await measure(
    "Prisma (compiled peer)",
    new Server(process.execPath, [prismaBin, "--stdio"], "prisma"),
    fileUri("schema.prisma", schema),
    schema,
    prismaLine,
    ["  bibNo     Int", "  bib       Int", "  bibs      Int"],
  );
  rmSync(dir, { recursive: true, force: true });

  const row = (r) =>
    `${r.name.padEnd(24)} ${String(r.lines).padStart(6)} ${r.openMs.toFixed(1).padStart(9)} ${String(r.diagnostics).padStart(6)} ` +
    `${r.completeMs.toFixed(1).padStart(9)} ${String(r.completeDiagnostics).padStart(6)} ${r.p50.toFixed(1).padStart(9)} ${r.p90.toFixed(1).padStart(9)} ${r.max.toFixed(1).padStart(9)}`;
  console.log(`\nEdit-to-diagnostics latency over JSON-RPC, ${EDITS} edits after ${WARMUP} warm-up edits (ms)\n`);
  console.log(
    `${"server".padEnd(24)} ${"lines".padStart(6)} ${"first".padStart(9)} ${"diags".padStart(6)} ${"complete".padStart(9)} ${"diags".padStart(6)} ` +
      `${"edit p50".padStart(9)} ${"edit p90".padStart(9)} ${"edit max".padStart(9)}`,
  );
  console.log(row(ours));
  console.log(row(peer));
  console.log(`\nedit p50, ours / peer: ${(ours.p50 / peer.p50).toFixed(2)}; target ≤ 0.50 (issue #32)`);
  console.log(
    `first diagnostics after opening, ours / peer: ${(ours.openMs / peer.openMs).toFixed(2)}; target ≤ 1.00 (complete: ${(ours.completeMs / peer.completeMs).toFixed(2)})`,
  );
  console.log(`slowest of our ${EDITS} edits: ${ours.max.toFixed(0)} ms; target ≤ 50 ms`);
}
