import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { TsFixture, TSCONFIG } from "../../../helpers/typescript";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { tablesOfDesign } from "@ts-analysis/drift/design-index";
import { expectSaid } from "../../../helpers/analysis";

const MARATHON = path.resolve("examples/marathon.tdl");
const LEDGER = path.resolve("examples/ledger.tdl");
const designs = tablesOfDesign(readFileSync(LEDGER, "utf8"), LEDGER, tablesOfDesign(readFileSync(MARATHON, "utf8"), MARATHON));
const fx = new TsFixture(TSCONFIG, new TsAnalyzer({ designTable: (t) => (t ? designs.get(t) : undefined) }));
after(() => fx.dispose());

const CODE = "ts/design-drift-query";

test("the design's declared classes: each query of the marathon design's classes is quiet", () => {
  assert.deepEqual(
    designs.get("Registrations")?.queries.map((q) => [q.name, q.classification.class]),
    [
      ["ByBib", "row-range"],
      ["ByAge", "row-range"],
    ],
  );
  assert.deepEqual(
    designs.get("Ledger")?.queries.map((q) => [q.name, q.classification.class]),
    [["ByTransfer", "row-range"]],
  );
});

test("queries of a declared class are quiet; another class, or any query of a table that declares none, is drift", () => {
  const found = fx.expect(
    "q.ts",
    `import { TableClient, odata } from "@azure/data-tables";
const regs = TableClient.fromConnectionString("", "Registrations");
const ledger = TableClient.fromConnectionString("", "Ledger");
const other = TableClient.fromConnectionString("", "Orders");
export function byBib(pk: string, from: string, to: string) {
  return regs.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${pk} and RowKey ge \${from} and RowKey lt \${to}\` } });
}
export function everyoneNamed(name: string) {
  return regs.«listEntities»({ queryOptions: { filter: odata\`Name eq \${name}\` } });
}
export async function one(pk: string, rk: string) {
  return regs.getEntity(pk, rk);
}
export function onePoint(pk: string, rk: string) {
  return regs.«listEntities»({ queryOptions: { filter: odata\`PartitionKey eq \${pk} and RowKey eq \${rk}\` } });
}
export function byTransfer(id: string) {
  return ledger.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${id}\` } });
}
export function unknown(filter: string) {
  return regs.listEntities({ queryOptions: { filter } });
}
export function elsewhere() {
  return other.listEntities();
}
`,
    CODE,
  );
  expectSaid(found[0], "undeclared", {
    class: "table-scan",
    table: "Registrations",
    design: "marathon.tdl",
    declared: [
      { name: "ByBib", class: "row-range" },
      { name: "ByAge", class: "row-range" },
    ],
  });
  expectSaid(found[1], "undeclared", { class: "point", table: "Registrations" });
});
