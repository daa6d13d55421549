/**
 * Rendering keys as the language says: numbers in plain decimal, datetimes
 * as ISO 8601 UTC, GUIDs in lowercase however the value was written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, renderKey } from "@core";

const DESIGN = `table Sessions {
  Tenant: string(4)
  Id: guid
  At: datetime
  N: int(0..999)
  partitionKey = Tenant
  rowKey = Id + "_" + At + "_" + N + "_" + upper(Id)
}
`;

test("a GUID renders in lowercase, a datetime as ISO 8601 UTC, a number in plain decimal", () => {
  const tm = analyzeTdl(DESIGN).tables[0];
  const values = { Tenant: "ACME", Id: "0F8FAD5B-D9CB-469F-A165-70867728950E", At: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), N: 7 };
  assert.equal(
    renderKey(tm.table.rowKey!.expr, { props: tm.props, values }),
    "0f8fad5b-d9cb-469f-a165-70867728950e_2026-01-02T03:04:05.000Z_7_0F8FAD5B-D9CB-469F-A165-70867728950E",
  );
  // A string property is rendered as written.
  assert.equal(renderKey(tm.table.partitionKey!.expr, { props: tm.props, values }), "ACME");
});
