/**
 * The stress run's vocabulary is defined once (core/text/figures.ts): the
 * page docs/stress-figures.md prints the same definitions, word for word,
 * so the docs, the report's legend and `tdl stress`'s legend cannot drift.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { FIGURE_NAMES, FIGURES, figureLegendLine } from "@core/text/figures";

test("docs/stress-figures.md defines each figure exactly as the registry does, in the registry's order", () => {
  const doc = readFileSync("docs/stress-figures.md", "utf8");
  const table = doc.slice(doc.indexOf("<!-- figures:"), doc.indexOf("<!-- /figures -->"));
  const rows = table
    .split("\n")
    .filter((l) => l.startsWith("| ") && !l.startsWith("| figure") && !l.startsWith("| ---"))
    .map((l) => l.split(" | ").map((c) => c.replace(/^\| |\s\|$/g, "").trim()));
  assert.deepEqual(
    rows,
    FIGURE_NAMES.map((f) => [FIGURES[f].word, FIGURES[f].unit, FIGURES[f].definition]),
  );
});

test("the five figures are planned, offered, sent, served and throttled, and a legend line names the unit", () => {
  assert.deepEqual([...FIGURE_NAMES], ["planned", "offered", "sent", "served", "throttled"]);
  assert.equal(figureLegendLine("served"), "served (calls/s): the calls the service answered with success, per second of the run.");
});
