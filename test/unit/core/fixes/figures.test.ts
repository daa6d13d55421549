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
import { analyzeTdl, applyFixEdits, vetFixes } from "@core";
import { fuzz } from "../../../helpers/fuzz";
import { designTextArb } from "../../../helpers/design-arbitraries";
import { contradictions } from "../../../helpers/fix-properties";

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
