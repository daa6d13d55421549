/**
 * The key-space arithmetic the sampler spreads its reads with: a midpoint
 * lies strictly between its ends (in the service's UTF-16 order), widths
 * order gaps, and the characters the keys use guide the split.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { fuzz } from "../../../helpers/fuzz";
import { END, logWidth, midpoint } from "@runtime/infer/key-space";

const key = fc.string({ unit: fc.constantFrom("0", "1", "9", "A", "P", "_", "z", "~", " ", "\u0000", "\u00e9", "\uffff"), maxLength: 12 });

test("a midpoint lies strictly between its ends, whatever the keys", () => {
  fuzz(
    "infer-midpoint",
    fc.tuple(key, key, fc.array(fc.integer({ min: 0x20, max: 0x7e }), { maxLength: 10 })),
    ([x, y, alphabet]) => {
      const [a, b] = x < y ? [x, y] : [y, x];
      const m = midpoint(
        a,
        b,
        [...new Set(alphabet)].sort((p, q) => p - q),
      );
      if (m === undefined) return true;
      return a < m && m < b;
    },
    2000,
  );
});

/** Regression: below a shared prefix the candidate was compared without the prefix, and no probe went deeper than one character. */
test("gaps under a shared prefix still split", () => {
  const m = midpoint("P0007", "PW");
  assert.ok(m !== undefined && m > "P0007" && m < "PW", String(m));
  assert.ok(midpoint("P0007", "P1") !== undefined);
});

test("the characters the keys use choose the split: digits for numeric keys", () => {
  const digits = [..."0123456789"].map((c) => c.charCodeAt(0));
  assert.equal(midpoint("P0", "P9", digits), "P5");
  // With no such character in the gap, the plain middle of printable ASCII.
  assert.equal(midpoint("a", "c", digits), "b");
  assert.equal(midpoint("a", "a\u0000"), undefined);
  assert.equal(midpoint("b", "a"), undefined);
});

test("widths order gaps, also deep below a long shared prefix", () => {
  assert.equal(logWidth("b", "a"), -Infinity);
  assert.ok(logWidth("", END) > logWidth("A", "B"));
  assert.ok(logWidth("A", "B") > logWidth("A0", "A1"));
  const deep = "x".repeat(1000);
  assert.ok(Number.isFinite(logWidth(deep + "a", deep + "b")));
  assert.ok(logWidth(deep + "a", deep + "z") > logWidth(deep + "a", deep + "b"));
});
