/**
 * Text from outside reaches the terminal shown, never obeyed: escape
 * sequences (clear the screen, set the title, colour), a carriage return
 * that would forge a line, NUL, and bidi overrides — in a log's request
 * URIs (tdl heatmap, text and JSON), a filter (tdl classify), a design's
 * text (tdl check) and a path in an error. Through the built CLI: the bytes
 * a terminal would get hold no raw control character, and the JSON still
 * parses to the values the log holds.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { terminalJson, terminalText } from "@core/text/words";

const CLI = path.resolve("dist/cli.js");
const dir = mkdtempSync(path.join(tmpdir(), "tdl-control-chars-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

/** Every character a terminal would act on or reorder by: C0 but line end and tab, DEL, C1, bidi controls, separators. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

const ESC = "\u001b";
const HOSTILE = [`${ESC}[2J`, `${ESC}]0;owned\u0007`, `${ESC}[31m`, "\rFORGED", "\u0000", "\u202e", "\u2066", "\u0085"];

function tdl(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function assertShown(what: string, text: string): void {
  const raw = RAW.exec(text);
  assert.equal(
    raw,
    null,
    `${what}: a raw U+${raw?.[0].codePointAt(0)!.toString(16).padStart(4, "0")} in ${JSON.stringify(text).slice(0, 300)}`,
  );
}

// Percent-encoded in the URI as a service logs it; each decodes to a partition key that holds the hostile text.
const keys = HOSTILE.map((h, i) => `p${i}${h}end`);
writeFileSync(
  path.join(dir, "logs.csv"),
  [
    "TimeGenerated [UTC],OperationName,StatusCode,StatusText,Uri",
    ...keys.map(
      (k, i) =>
        `"11/24/2026, 1:00:0${i}.000 PM",QueryEntity,200,,"https://acct.table.core.windows.net/Orders(PartitionKey='${encodeURIComponent(k)}',RowKey='1')"`,
    ),
  ].join("\r\n"),
);

test("tdl heatmap --logs: partition keys decoded from the URIs are shown by their codes in text, and escaped in JSON that parses to them", () => {
  const text = tdl("heatmap", "--logs", "logs.csv");
  assert.equal(text.code, 0, text.stderr);
  assertShown("heatmap text", text.stdout + text.stderr);
  assert.match(text.stdout, /Orders\/p0U\+001B\[2Jend /);
  assert.match(text.stdout, /Orders\/p3U\+000DFORGEDend /);
  assert.match(text.stdout, /Orders\/p5U\+202Eend /);

  const json = tdl("heatmap", "--logs", "logs.csv", "--format", "json");
  assert.equal(json.code, 0, json.stderr);
  assertShown("heatmap json", json.stdout);
  const shown = (JSON.parse(json.stdout) as { partitions: Array<{ partitionKey: string }> }).partitions.map((p) => p.partitionKey).sort();
  assert.deepEqual(shown, [...keys].sort(), "the JSON holds the log's values exactly");
});

test("tdl classify: a filter's literal with escape sequences and overrides is echoed by codes", () => {
  // An argument cannot hold NUL (the operating system ends it there).
  for (const h of HOSTILE.filter((x) => !x.includes("\u0000"))) {
    const r = tdl("classify", `PartitionKey eq 'a${h}b' and Status eq '${h}`);
    assertShown(`classify ${JSON.stringify(h)}`, r.stdout + r.stderr);
  }
});

test("tdl check: a design with control characters in its text, and a path in an error, are shown by codes", () => {
  for (const [i, h] of HOSTILE.entries()) {
    writeFileSync(path.join(dir, `d${i}.tdl`), `table Orders${h} {\n  A: string charset "${h}"\n  partitionKey = A\n  rowKey = A\n}\n`);
    const r = tdl("check", `d${i}.tdl`);
    assertShown(`check ${JSON.stringify(h)}`, r.stdout + r.stderr);
    const json = tdl("check", `d${i}.tdl`, "--format", "json");
    assertShown(`check json ${JSON.stringify(h)}`, json.stdout);
    JSON.parse(json.stdout);
  }
  const missing = tdl("check", `gone${ESC}[2J\rFORGED\u202e.tdl`);
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr, "tdl: goneU+001B[2JU+000DFORGEDU+202E.tdl: no such file or folder\n");
});

test("terminalText keeps the text's own line ends, tabs and a leading carriage return (a progress line); terminalJson escapes as JSON does", () => {
  assert.equal(terminalText("\r3.5 s · 10 entities\n"), "\r3.5 s · 10 entities\n");
  assert.equal(terminalText(`a\tb\nc${ESC}[2J\rd\u0000\u202e😀\ud800`), "a\tb\ncU+001B[2JU+000DdU+0000U+202E😀U+D800");
  const doc = JSON.stringify({ k: `x\u202e\u0085\u2028y😀` }, null, 2);
  assert.equal(terminalJson(doc), '{\n  "k": "x\\u202e\\u0085\\u2028y😀"\n}');
  assert.deepEqual(JSON.parse(terminalJson(doc)), { k: `x\u202e\u0085\u2028y😀` });
});
