import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeTdl, formatTdl } from "../../../server/src/core";
import { complete, hover, outline } from "../../../server/src/ide";
import { parseFilter } from "../../../server/src/core/odata/parser";
import { classifyFilter } from "../../../server/src/core/odata/classify";

/** A small deterministic PRNG, so a failure can be replayed from its seed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SOURCES = ["marathon", "ledger", "telemetry", "student-cards/composite-colon", "student-cards/by-seller"]
  .map((f) => readFileSync(`examples/${f}.tdl`, "utf8"));
const PIECES = ["{", "}", "(", ")", "+", ":", "=", "..", "\"", "/*", "*/", "//", "\n", " ", "pad(", "hash(", "table ", "query Q ", "where ",
  "filter \"", "'", "1_000", "2.5M", "-3", "%", "?", "rowKey = ", "partitionKey = ", "index I rowKey = ", "between", "\\u12", "é", "\u0000", "𝄞"];

function mutate(text: string, r: () => number): string {
  let t = text;
  const n = 1 + Math.floor(r() * 6);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(r() * (t.length + 1));
    const op = r();
    if (op < 0.4) t = t.slice(0, at) + PIECES[Math.floor(r() * PIECES.length)] + t.slice(at);
    else if (op < 0.8) t = t.slice(0, at) + t.slice(Math.min(t.length, at + 1 + Math.floor(r() * 20)));
    else { const from = Math.floor(r() * t.length); t = t.slice(0, at) + t.slice(from, from + 30) + t.slice(at); }
  }
  return t;
}

test("mutated designs never throw and stay within a time budget", () => {
  const r = rng(20261121);
  let slowest = 0;
  for (let i = 0; i < 600; i++) {
    const text = mutate(SOURCES[i % SOURCES.length], r);
    const started = performance.now();
    try {
      const a = analyzeTdl(text);
      outline(a);
      const at = Math.floor(r() * (text.length + 1));
      hover(a, at);
      complete(a, at);
      formatTdl(text);
    } catch (e) {
      assert.fail(`case ${i} threw ${(e as Error).stack}\n--- input ---\n${text}`);
    }
    slowest = Math.max(slowest, performance.now() - started);
  }
  assert.ok(slowest < 250, `slowest case took ${slowest.toFixed(1)} ms`);
});

test("random filters parse or fail cleanly, and classify without throwing", () => {
  const r = rng(7);
  const atoms = ["PartitionKey", "RowKey", "Name", "eq", "ne", "gt", "ge", "lt", "le", "and", "or", "not", "(", ")", "'a'", "'it''s'",
    "datetime'2026-01-01T00:00:00Z'", "guid'0f8fad5b-d9cb-469f-a165-70867728950e'", "X'0a'", "5L", "2.5", "true", "'", "&"];
  for (let i = 0; i < 3000; i++) {
    const n = 1 + Math.floor(r() * 12);
    const filter = Array.from({ length: n }, () => atoms[Math.floor(r() * atoms.length)]).join(" ");
    const p = parseFilter(filter);
    if (p.ok) classifyFilter(p.expr, { rows: 1000, partitions: 10 });
    else assert.ok(p.error.start >= 0 && p.error.start <= filter.length && p.error.message.length > 10, filter);
  }
});
