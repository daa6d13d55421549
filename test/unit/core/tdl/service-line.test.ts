/**
 * The leading `service` line, read before the chunks are analysed
 * (`leadingServiceLine`), says what the whole parse says, whatever the
 * length of the name: a name of many hyphenated pieces does not fall out of
 * a window of tokens.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { analyzeTdl } from "@core";
import { leadingService, leadingServiceLine, parse } from "@core/tdl/parser";
import { fuzz } from "../../../helpers/fuzz";

test("a service name of any number of pieces is read whole, as the parser reads it", () => {
  for (const pieces of [1, 2, 3, 4, 5, 8, 40]) {
    const name = Array.from({ length: pieces }, (_, i) => `p${i}`).join("-");
    const text = `service ${name}\n\ntable T {\n  Id: string(8)\n  partitionKey = Id\n  rowKey = Id\n}\n`;
    assert.equal(leadingServiceLine(text)?.name.text, name, `${pieces} pieces`);
    assert.equal(parse(text).file.service?.name.text, name);
  }
});

test("a known profile is found after comments and before any amount of text; an extended name is no profile", () => {
  const body = "\ntable T {\n  Id: string(8)\n  partitionKey = Id\n  rowKey = Id\n}\n".repeat(50);
  assert.equal(leadingService(`// the design\n/* of orders */\nservice cosmos-table${body}`), "cosmos-table");
  // `azure-table` followed by more pieces is another name: never read as azure-table.
  assert.equal(leadingService(`service azure-table-x-y-z-w${body}`), undefined);
  const analysis = analyzeTdl(`service azure-table-x-y-z-w${body}`);
  assert.deepEqual(
    analysis.findings.filter((f) => f.code === "syntax").map((f) => f.message),
    ["unknown service 'azure-table-x-y-z-w': expected azure-table, cosmos-table, tablestore"],
  );
});

test("a name of 50,000 pieces is read in linear time", () => {
  const name = Array.from({ length: 50_000 }, () => "ab").join("-");
  const t0 = performance.now();
  const line = leadingServiceLine(`service ${name}\n`);
  const ms = performance.now() - t0;
  assert.equal(line?.name.text.length, name.length);
  // Generous: a window that grew one token at a time would lex ~10^10 tokens; doubling lexes under 4 × 100,000.
  assert.ok(ms < 5_000, `${ms.toFixed(0)} ms`);
});

const piece = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/);
/** What may follow a name: another line, a space, a `-` that is not glued, a comment, a brace, nothing. */
const after = fc.constantFrom("", "\n", " ", " -x", "- x", "-\nx", "-1", "//c", "/*c*/-x", "{", "\ntable T {}");

test("on random names and what follows them, the early read and the parse agree", () => {
  fuzz(
    "tdl-service-line",
    fc.tuple(fc.array(piece, { minLength: 1, maxLength: 30 }), after),
    ([pieces, tail]) => {
      const text = `service ${pieces.join("-")}${tail}`;
      const early = leadingServiceLine(text);
      const full = parse(text).file.service;
      assert.deepEqual(
        early && { name: early.name.text, value: early.value, end: early.end },
        full && { name: full.name.text, value: full.value, end: full.end },
      );
    },
    500,
  );
});
