/**
 * The server's guards as units: the document cache with a rule that throws
 * (injected into the real TdlAnalyzer, which takes its rule list), the
 * request guard, and the formatter's safety net.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ErrorCodes, LSPErrorCodes, ResponseError } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { TdlAnalyzer } from "@core";
import { InputError } from "@core/errors";
import { RULES } from "@core/rules";
import { Rule } from "@core/rules/rule";
import { AnalysisCache } from "@server/lsp/documents";
import { Guard, InvalidParams } from "@server/lsp/guard";
import { keepsEveryCharacter } from "@server/lsp/format-check";

const MARATHON = readFileSync("examples/marathon.tdl", "utf8");

/** A rule that fails on tables whose text mentions BOOM, as a buggy rule fails on one shape of input. */
const throwing: Rule = {
  code: "test/throws",
  severity: "error",
  family: "Syntax and meaning",
  docs: { summary: "throws on tables that mention BOOM", why: "a buggy rule, for the test" },
  messages: {},
  checkTable(ctx) {
    if (ctx.text.includes("BOOM")) throw new Error("boom in a rule");
  },
};

test("a rule that throws yields an internal error naming the failure and a logged stack; the next version analyses normally", () => {
  const logs: string[] = [];
  const cache = new AnalysisCache(
    (m) => logs.push(m),
    () => new TdlAnalyzer([...RULES, throwing]),
  );
  const uri = "file:///work/boom.tdl";
  const broken = MARATHON.replace("Name:     string(40)", "Name:     string(40) // BOOM");
  const first = cache.get(TextDocument.create(uri, "tdl", 1, broken));
  const internal = first.analysis.findings.filter((f) => f.code === "internal");
  assert.equal(internal.length, 1);
  assert.equal(internal[0].severity, "error");
  assert.match(internal[0].message, /boom in a rule/);
  assert.ok(
    logs.some((l) => /boom in a rule/.test(l) && /\n\s+at /.test(l)),
    `a stack in the log: ${logs.join("\n---\n")}`,
  );

  // The same document once the input no longer trips the rule: exactly what a fresh analysis finds.
  const second = cache.get(TextDocument.create(uri, "tdl", 2, MARATHON));
  const fresh = new TdlAnalyzer([...RULES, throwing]).analyze(MARATHON);
  assert.deepEqual(second.analysis.findings, fresh.findings);
  assert.deepEqual(
    second.analysis.findings.filter((f) => f.code === "internal"),
    [],
  );
});

test("a document whose analysis fails does not change another document's analysis", () => {
  const cache = new AnalysisCache(
    () => undefined,
    () => new TdlAnalyzer([...RULES, throwing]),
  );
  const good = cache.get(TextDocument.create("file:///work/good.tdl", "tdl", 1, MARATHON));
  cache.get(TextDocument.create("file:///work/bad.tdl", "tdl", 1, MARATHON + "\n// BOOM\n"));
  const again = cache.get(TextDocument.create("file:///work/good.tdl", "tdl", 1, MARATHON));
  assert.equal(again, good);
  assert.deepEqual(
    good.analysis.findings.map((f) => f.code),
    new TdlAnalyzer(RULES).analyze(MARATHON).findings.map((f) => f.code),
  );
});

test("the request guard answers by the error's kind: InvalidParams, RequestFailed with the sentence, InternalError with the log line", () => {
  const logs: string[] = [];
  const guard = new Guard({ error: (m) => logs.push(`error ${m}`), warn: (m) => logs.push(`warn ${m}`) });
  const fail = (e: unknown) =>
    guard.request("hover", () => {
      throw e;
    })();
  const codeAndMessage = (r: unknown) => (r instanceof ResponseError ? [r.code, r.message] : r);
  assert.deepEqual(codeAndMessage(fail(new InvalidParams("position.line must be an unsigned integer"))), [
    ErrorCodes.InvalidParams,
    "position.line must be an unsigned integer",
  ]);
  assert.deepEqual(codeAndMessage(fail(new InputError("'9x' is not a property name"))), [
    LSPErrorCodes.RequestFailed,
    "'9x' is not a property name",
  ]);
  assert.deepEqual(codeAndMessage(fail(new RangeError("Maximum call stack size exceeded"))), [
    ErrorCodes.InternalError,
    "hover failed: Maximum call stack size exceeded (the stack is in the Table Design Language Server's log)",
  ]);
  assert.deepEqual(guard.request("completion", () => [1])(), [1]);
  guard.run("timer", () => {
    throw "a string, not an Error";
  })();
  assert.equal(logs[0], "warn hover: invalid params: position.line must be an unsigned integer");
  assert.equal(logs[1], "warn hover: '9x' is not a property name");
  assert.match(logs[2], /^error hover failed: RangeError: Maximum call stack size exceeded\n\s+at /);
  assert.equal(logs[3], "error timer failed: a string, not an Error");
});

test("the formatting safety net accepts whitespace changes only", () => {
  assert.equal(keepsEveryCharacter("table A {\n  B:int\n}", "table A {\n  B: int\n}\n"), true);
  assert.equal(keepsEveryCharacter("a\r\rb", "a\n\nb\n"), true);
  assert.equal(keepsEveryCharacter("table A {\n  B:int\n}", "table A {\n  B: int\n"), false);
  assert.equal(keepsEveryCharacter("ab", "ba"), false);
  assert.equal(keepsEveryCharacter("", "\n"), true);
  // Linear: a 4 MB document is compared in well under a second on an idle machine; the bound only has to
  // catch a quadratic comparison (minutes), so it leaves room for a machine busy with other work.
  const big = "x = 1\n".repeat(700_000);
  const started = performance.now();
  assert.equal(keepsEveryCharacter(big, big.replaceAll("=", " = ")), true);
  assert.ok(performance.now() - started < 10_000);
});
