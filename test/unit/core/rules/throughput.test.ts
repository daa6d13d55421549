import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl } from "@core";

test("throughput/account sums every pattern of the file", () => {
  const text = `table Alpha {
  A: guid
  partitionKey = A
  rowKey = "x"
  rows 1B
  insert W 15K/s
}
table Beta {
  B: guid
  partitionKey = B
  rowKey = "x"
  rows 1B
  insert W 6K/s
}
`;
  const found = analyzeTdl(text).findings.filter((f) => f.code === "throughput/account");
  assert.equal(found.length, 1);
  assert.equal(text.slice(found[0].start, found[0].end), "Alpha");
  assert.match(found[0].message, /≈ 21,000 entities\/s.*table 'Alpha': ≈ 15,000.*target is 20,000/);
});
