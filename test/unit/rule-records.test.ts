/**
 * A rule is one record: its traits are the only lists of codes (every set
 * the product keeps is a filter over them), its findings say one of its
 * named messages with their parameters, and the tests assert those rather
 * than the sentences (scripts/count-prose-asserts.mjs keeps the count of
 * patterns over prose below 100).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { analyzeTdl, BROKEN_CODES, codesWith, CORE_RECORDS, PARTITION_CODES, RULES } from "@core";
import { DRIFT_CODES, TS_RULES } from "@ts-analysis/analysis";
import { LOAD_RULES } from "@ts-analysis/rules";
import { proposedAlternative } from "@runtime/stress/compare";
import { ignoreEdit } from "@server/ide/ignore-fix";
import { catalog } from "@cli/catalog";

test("partition/date-not-increasing is a partition code: a stress comparison proposes declaring the time increasing", () => {
  // The set was a list of four codes beside the stress test, and missed the rule added after it.
  assert.deepEqual([...PARTITION_CODES].sort(), [
    "partition/append-only",
    "partition/date-not-increasing",
    "partition/hot",
    "partition/single-value",
    "partition/too-large",
  ]);
  const design = `table Readings {
  DeviceId: string(12..12) charset "0-9a-f" distinct 5K
  At:       datetime
  partitionKey = date(At, "yyyyMMddHH")
  rowKey       = DeviceId
}
`;
  const alternative = proposedAlternative(design, "Readings");
  assert.equal(alternative?.code, "partition/date-not-increasing");
  assert.equal(alternative?.text, design.replace("At:       datetime", "At:       datetime increasing"));
});

test("every set of codes is the filter of a trait over the records", () => {
  assert.deepEqual([...BROKEN_CODES].sort(), [
    "duplicate-name",
    "internal",
    "invalid-argument",
    "missing-key",
    "syntax",
    "unknown-property",
  ]);
  assert.deepEqual([...LOAD_RULES].sort(), ["ts/append-only-key", "ts/constant-partition-key", "ts/unpadded-number"]);
  assert.deepEqual([...DRIFT_CODES].sort(), ["ts/design-drift-key", "ts/design-drift-query"]);
  const never = [...codesWith(CORE_RECORDS, "neverSuppress"), ...codesWith(TS_RULES, "neverSuppress")].sort();
  assert.deepEqual(never, ["internal", "syntax", "ts/filter-syntax"]);
  // The ignore fix reads the trait, for a design's codes and a TypeScript rule's alike.
  const text = "a\nb\n";
  for (const code of never) assert.equal(ignoreEdit(text, 1, code), undefined, code);
  assert.ok(ignoreEdit(text, 1, "ts/table-scan"));
  assert.ok(ignoreEdit(text, 1, "partition/hot"));
});

/** Product sources: every folder of the layers, and the scripts. */
function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (/\.(ts|mjs)$/.test(name)) yield p;
  }
}

/** The `.tdl` files below some folders. */
function tdlFiles(roots: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".tdl")) out.push(p);
    }
  };
  for (const r of roots) walk(r);
  return out;
}

test("no list of rule codes lives outside the rule records", () => {
  const codes = new Set(catalog().map((r) => r.code));
  const quoted = /"([a-z-]+(?:\/[a-z-]+)?)"/g;
  const lists: string[] = [];
  for (const root of ["core", "protocol", "codegen", "ts-analysis", "runtime", "server", "cli", "client", "webview", "scripts"]) {
    for (const file of sources(root)) {
      // The records themselves name their codes.
      if (/^(core|ts-analysis)\/rules\/|^core\/analysis\/records\.ts$/.test(file)) continue;
      const text = readFileSync(file, "utf8");
      // An array (or a set's array) of string literals naming two codes or more is a list kept beside the records;
      // an array of inputs that each name a code (a bench's or a test's cases) is not.
      for (const m of text.matchAll(/\[\s*"[^"\n]*"(?:\s*,\s*"[^"\n]*")+\s*,?\s*\]/g)) {
        const named = [...m[0].matchAll(quoted)].map((q) => q[1]).filter((c) => codes.has(c) && c.includes("/"));
        if (named.length >= 2) lists.push(`${file}: ${m[0].slice(0, 120)}`);
      }
    }
  }
  assert.deepEqual(lists, []);
});

test("every finding of the examples and fixtures says a message its rule's record lists", () => {
  const records = new Map(catalog().map((r) => [r.code, r]));
  const designs = tdlFiles(["examples", "test/fixtures"]);
  let said = 0;
  const ids = new Set<string>();
  for (const name of designs) {
    for (const f of analyzeTdl(readFileSync(name, "utf8")).findings) {
      const record = records.get(f.code);
      assert.ok(record, `${name}: ${f.code} has a record`);
      assert.ok(f.messageId && f.messageId in record.messages, `${name}: ${f.code} says a message of its record (${f.messageId})`);
      said++;
      ids.add(`${f.code} ${f.messageId}`);
    }
  }
  assert.ok(said >= 20 && ids.size >= 10, `the designs yield findings (${said}, ${ids.size} messages)`);
  for (const r of [...RULES, ...TS_RULES]) assert.ok(Object.keys(r.messages).length, `${r.code} names its messages`);
});

test("fewer than 100 regular-expression assertions over message prose remain in the tests", () => {
  // The script exits 1 above --max; its output is the figure.
  const out = execFileSync(process.execPath, ["scripts/count-prose-asserts.mjs", "--max", "99"], { encoding: "utf8" });
  assert.match(out, /^\d+ regular-expression assertions over message prose/);
});
