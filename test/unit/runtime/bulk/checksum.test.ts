/**
 * The export's checksum, as its definition says: the sum, modulo 2^64, of
 * the first 8 bytes of the SHA-256 of each entity's canonical line
 * (`JSON.stringify([pk, rk, [[name, type, value]…]])`, names sorted) — the
 * same figure in any order, split in any way and merged.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { EDM_TYPES, EntityRow } from "@protocol/entities";
import { canonical, Checksum } from "@runtime/bulk/checksum";
import { fuzz } from "../../../helpers/fuzz";

const text = fc.string({ unit: fc.constantFrom("a", "Z", "0", '"', "\\", "\n", "\u0000", "é", "😀", "\ud800", " "), maxLength: 8 });
const row: fc.Arbitrary<EntityRow> = fc.record({
  partitionKey: text,
  rowKey: text,
  properties: fc.dictionary(
    text.filter((k) => k !== "__proto__"),
    fc.record({ type: fc.constantFrom(...EDM_TYPES), value: text }),
    { maxKeys: 6 },
  ),
});

/** The definition, written the slow and obvious way. */
function reference(rows: EntityRow[]): string {
  let sum = 0n;
  for (const r of rows) {
    const props = Object.keys(r.properties)
      .sort()
      .map((k) => [k, r.properties[k].type, r.properties[k].value]);
    const digest = createHash("sha256")
      .update(JSON.stringify([r.partitionKey, r.rowKey, props]))
      .digest();
    sum = (sum + digest.readBigUInt64BE(0)) % (1n << 64n);
  }
  return sum.toString(16).padStart(16, "0");
}

test("the checksum is its definition, in any order, split and merged at any point", () => {
  fuzz(
    "bulk-checksum",
    fc.record({ rows: fc.array(row, { maxLength: 40 }), cut: fc.nat(), seed: fc.nat() }),
    ({ rows, cut, seed }) => {
      for (const r of rows)
        assert.equal(
          canonical(r),
          JSON.stringify([
            r.partitionKey,
            r.rowKey,
            Object.keys(r.properties)
              .sort()
              .map((k) => [k, r.properties[k].type, r.properties[k].value]),
          ]),
        );
      const whole = new Checksum();
      for (const r of rows) whole.add(r);
      assert.equal(whole.hex, reference(rows));
      assert.equal(whole.count, rows.length);
      // Another order, in two parts, the second resumed from a checkpoint's figures and merged.
      const shuffled = [...rows].sort((a, b) => ((canonical(a).length * 31 + seed) % 7) - ((canonical(b).length * 31 + seed) % 7));
      const at = rows.length ? cut % (rows.length + 1) : 0;
      const first = new Checksum();
      for (const r of shuffled.slice(0, at)) first.add(r);
      const second = new Checksum(first.hex, first.count);
      const rest = new Checksum();
      for (const r of shuffled.slice(at)) rest.add(r);
      second.merge({ checksum: rest.hex, count: rest.count });
      assert.deepEqual([second.hex, second.count], [whole.hex, whole.count]);
    },
    300,
  );
});

test("sums wrap at 2^64: a checksum near the top plus one more entity", () => {
  const r: EntityRow = { partitionKey: "p", rowKey: "r", properties: {} };
  const top = new Checksum("ffffffffffffffff", 1);
  top.add(r);
  const expected = (BigInt(`0x${reference([r])}`) + 0xffffffffffffffffn) % (1n << 64n);
  assert.equal(top.hex, expected.toString(16).padStart(16, "0"));
});
