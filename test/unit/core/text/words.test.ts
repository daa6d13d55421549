/**
 * The words every surface prints (core/text/words.ts): figures, plurals,
 * clipped text, characters shown by their code — and what the callers that
 * used their own copies before now print with them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { badge, Classification, queryMarkdown, summary } from "@core";
import {
  agree,
  clip,
  clipVisible,
  codePointLabel,
  entityRate,
  errorsInWords,
  dollars,
  formatBytes,
  formatCount,
  formatDuration,
  formatPercent,
  formatQuantity,
  listNames,
  plural,
  showChar,
  showInvisibles,
} from "@core/text/words";

test("formatCount: separators, decimals by size (none from 100 or for whole numbers, one from 1, two below 1), billions in words, ∞ when unbounded", () => {
  const cases: Array<[number, string]> = [
    [0, "0"],
    [7, "7"],
    [12345, "12,345"],
    [2400.4, "2,400"],
    [240, "240"],
    [99.96, "100"],
    [12.54, "12.5"],
    [1, "1"],
    [0.25, "0.25"],
    [0.004, "0"],
    [-0.5, "-0.5"],
    [-1234.5, "-1,235"],
    [-12.34, "-12.3"],
    [Infinity, "∞"],
    [-Infinity, "-∞"],
    [NaN, "unknown"],
    // Ten digits and more are said in words (issue #20: "≈ 2,500,000,500 entities/s").
    [999_999_999, "999,999,999"],
    [2_500_000_500, "2.5 billion"],
    [12_000_004_000, "12 billion"],
    [250_000_000_000, "250 billion"],
    [4.2e12, "4.2 trillion"],
    [-3e9, "-3 billion"],
    [1.23e18, "1.2 × 10^18"],
    [Number.MAX_VALUE, "1.8 × 10^308"],
  ];
  assert.deepEqual(
    cases.map(([n]) => [n, formatCount(n)]),
    cases,
  );
});

test("plural and entityRate agree with the count and print it as formatCount does", () => {
  assert.equal(plural(1, "partition"), "1 partition");
  assert.equal(plural(0, "entity", "entities"), "0 entities");
  assert.equal(plural(12000, "request"), "12,000 requests");
  assert.equal(plural(2, "retry", "retries"), "2 retries");
  assert.equal(entityRate(1), "1 entity/s");
  assert.equal(entityRate(2400), "2,400 entities/s");
  assert.equal(entityRate(0.5), "0.5 entities/s");
  assert.equal(errorsInWords({ ServerBusy: 12, EntityAlreadyExists: 3 }), "12 ServerBusy, 3 EntityAlreadyExists");
  assert.equal(errorsInWords({}, { "503": 1200 }), "1,200 503");
  assert.equal(errorsInWords({}), "none");
});

test("clip: at most max characters with the ellipsis, never half a surrogate pair", () => {
  assert.equal(clip("short", 10), "short");
  assert.equal(clip("exactly10!", 10), "exactly10!");
  assert.equal(clip("abcdefghijk", 10), "abcdefghi…");
  assert.equal(clip("abcdefghijk", 10).length, 10);
  // The pair 😀 would be cut after its first half: it is left out whole.
  assert.equal(clip("abcdefgh😀xyz", 10), "abcdefgh…");
  assert.equal(clip("x".repeat(1_000_000)).length, 60);
  assert.equal(listNames(["a", "b", "c"], 2), "a, b and 1 more");
  assert.equal(listNames(["n".repeat(100)]), "n".repeat(59) + "…");
});

test("characters a reader cannot see are shown by their code, uppercase and four digits at least", () => {
  assert.equal(codePointLabel(9), "U+0009");
  assert.equal(codePointLabel(0x1f600), "U+1F600");
  assert.equal(showChar("#"), "'#'");
  assert.equal(showChar("\u0000"), "U+0000");
  assert.equal(showChar("\u0085"), "U+0085");
  assert.equal(showChar("\ud800"), "U+D800");
  assert.equal(showChar("\ufeff"), "U+FEFF");
  assert.equal(showChar("\u2028"), "U+2028");
  assert.equal(showChar("😀"), "'😀'");
  assert.equal(showInvisibles("a\tb\u007f"), "aU+0009bU+007F");
  assert.equal(clipVisible("x\t" + "y".repeat(100), 5), "xU+0009yy…");
});

const classification = (c: Partial<Classification>): Classification => ({
  class: "partition-range",
  partitions: 2.5,
  scanned: 10000,
  returned: 0.25,
  selectivity: 0.000025,
  reasons: [],
  ...c,
});

test("callers print sub-unit estimates with two decimals and unknown figures as such: badges, summaries, hovers", () => {
  const c = classification({});
  assert.equal(badge(c), "partition-range · ≈ 2.5 partitions");
  assert.equal(summary(c), "partition-range · ≈ 2.5 partitions · scans ≈ 10,000 to return ≈ 0.25");
  assert.match(queryMarkdown("Q", c), /- entities returned: ≈ 0\.25\n/);
  assert.equal(
    summary(classification({ class: "table-scan", scanned: Infinity, returned: NaN })),
    "table-scan · every partition · scans ≈ ∞ to return ≈ unknown",
  );
  assert.equal(formatPercent(0.5), "50%");
  assert.equal(formatPercent(0.00025), "0.025%");
});

test("dollars: cents, grouped; a run's own small cost keeps two significant digits and never reads as free", () => {
  assert.equal(dollars(1234.5), "$1,234.50");
  assert.equal(dollars(0.004), "$0.00");
  assert.equal(dollars(0), "$0.00");
  assert.equal(dollars(186.624), "$186.62");
  assert.equal(dollars(0.00432, "small"), "$0.0043");
  assert.equal(dollars(0.00005, "small"), "under $0.0001");
  assert.equal(dollars(0, "small"), "$0.00");
  assert.equal(dollars(933.12, "small"), "$933.12");
});

test("formatQuantity: two decimals below 10, whole and grouped from 10", () => {
  assert.equal(formatQuantity(0.256), "0.26");
  assert.equal(formatQuantity(7.5), "7.5");
  assert.equal(formatQuantity(3), "3");
  assert.equal(formatQuantity(1234.6), "1,235");
});

test("formatDuration: the largest unit that gives at least 2, ≈ when rounded, the noun agreeing", () => {
  assert.equal(formatDuration(90 * 86400), "90 days");
  assert.equal(formatDuration(1), "1 second");
  assert.equal(formatDuration(83_160), "23.1 hours");
  assert.equal(formatDuration(83_200), "≈ 23.1 hours");
  assert.equal(formatDuration(Infinity), "unbounded");
  assert.equal(formatDuration(400 * 365.2425 * 86400), "400 years");
});

test("formatBytes: binary units, whole from 100 or in bytes, one decimal below", () => {
  assert.equal(formatBytes(1000), "1,000 B");
  assert.equal(formatBytes(1536), "1.5 KiB");
  assert.equal(formatBytes(20 * 1024 ** 3), "20 GiB");
  assert.equal(formatBytes(1023 * 1024), "1,023 KiB");
});

test("agree: the word that agrees with a count, without it", () => {
  assert.equal(agree(1, "it", "them"), "it");
  assert.equal(agree(0, "it", "them"), "them");
  assert.equal(agree(3, "remains", "remain"), "remain");
});
