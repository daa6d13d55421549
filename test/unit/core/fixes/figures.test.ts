/**
 * Figures that agree with each other (issue #32, defects 3 and 8), on every
 * generated design and on the design after each of its offered fixes:
 *
 * - partitions × entities per partition = rows, and no more partitions than rows;
 * - a query's figures agree with the key: it returns no more than it scans,
 *   touches no more partitions than the table has, and scans no more than
 *   the table holds;
 * - a point read or a row-range reads one partition;
 * - a table scan reads the whole table: when a fix makes the PartitionKey an
 *   entity's own id, a query by another property reads every entity, not
 *   "≈ 30 partitions · scans ≈ 30".
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, applyFixEdits, tableFacts, TdlAnalysis, vetFixes } from "@core";
import { fuzz } from "../../../helpers/fuzz";
import { designTextArb } from "../../../helpers/design-arbitraries";

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

/** Every way the analysis' figures contradict each other, in words. */
export function contradictions(a: TdlAnalysis): string[] {
  const out: string[] = [];
  for (const tm of a.tables) {
    if (!tm.checked) continue;
    const { est, queries } = tableFacts(tm.table, tm.props);
    const t = tm.table.name.text;
    const { rows, partitions, entitiesPerPartition: per } = est;
    if (rows !== undefined && partitions !== undefined) {
      if (partitions > rows * (1 + 1e-9)) out.push(`${t}: ${partitions} partitions for ${rows} rows`);
      if (per !== undefined && !close(partitions * per, rows)) out.push(`${t}: ${partitions} partitions × ${per} entities ≠ ${rows} rows`);
    }
    const stored = rows === undefined ? undefined : rows * est.rowsPerEntity;
    for (const { query, classification: c } of queries) {
      if (!c) continue;
      const q = `${t}/${query.name.text} (${c.class})`;
      if (c.returned !== null && c.scanned !== null && c.returned > c.scanned * (1 + 1e-9))
        out.push(`${q} returns ${c.returned}, more than it scans (${c.scanned})`);
      if (c.partitions !== null && partitions !== undefined && c.partitions > partitions * (1 + 1e-9))
        out.push(`${q} touches ${c.partitions} partitions of ${partitions}`);
      if (c.scanned !== null && stored !== undefined && c.scanned > stored * (1 + 1e-9))
        out.push(`${q} scans ${c.scanned} of ${stored} stored`);
      if ((c.class === "point" || c.class === "row-range") && c.partitions !== null && c.partitions > (c.requests ?? 1))
        out.push(`${q} reads ${c.partitions} partitions`);
      if (c.class === "table-scan" && !c.via && rows !== undefined && c.scanned !== null && !close(c.scanned, rows))
        out.push(`${q} scans ${c.scanned}, not the table's ${rows} rows`);
    }
  }
  return out;
}

test("a generated design's figures agree with each other, before and after each offered fix", () => {
  fuzz(
    "figures",
    designTextArb,
    (text) => {
      const a = analyzeTdl(text);
      assert.deepEqual(contradictions(a), [], text);
      for (const finding of a.findings)
        for (const fix of vetFixes(a, finding).offered) {
          const after = applyFixEdits(text, fix.edits);
          assert.deepEqual(contradictions(analyzeTdl(after)), [], `after "${fix.title}":\n${after}`);
        }
    },
    60,
  );
});
