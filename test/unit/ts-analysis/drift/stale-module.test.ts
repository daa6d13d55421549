/**
 * Generated key modules and design drift (issue #20, 4): a module carries its
 * design's fingerprint; a key built by a module generated from another
 * version of the table is drift with the Regenerate fix (never "use the
 * builder"), and a design table that does not parse is not judged, said once.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { analyzeTdl } from "@core";
import { generateKeyBuilders } from "@codegen";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { DesignTable, tablesOfDesign } from "@ts-analysis/drift/design-index";
import { GENERATE_COMMAND } from "@ts-analysis/drift/builder-fix";
import { TsFixture, TSCONFIG } from "../../../helpers/typescript";
import { expectSaid } from "../../../helpers/analysis";

const CODE = "ts/design-drift-key";
const DESIGN = (width: number, tail = "") => `service azure-table
table Parcels {
  Depot: string(12)
  Seq:   int(0..999999)
  partitionKey = Depot
  rowKey       = pad(Seq, ${width})${tail}
  query ByDepot where Depot = ?
}
`;

/** The design the analyzer sees now, changed by the test as a user edits the .tdl. */
let current = new Map<string, DesignTable>();
const fx = new TsFixture(TSCONFIG, new TsAnalyzer({ designTable: (t) => (t ? current.get(t) : undefined) }));
after(() => fx.dispose());
const designFile = path.join(fx.dir, "parcels.tdl");
const useDesign = (text: string) => {
  writeFileSync(designFile, text);
  current = tablesOfDesign(text, designFile);
};

/** `tdl codegen` of a design version, written beside the code. */
function generate(text: string): string {
  const [module] = generateKeyBuilders(analyzeTdl(text), { source: "parcels.tdl" }).modules;
  const file = path.join(fx.dir, module.fileName);
  writeFileSync(file, module.text);
  fx.analyzer.update(file, module.text);
  return module.text;
}

const CALLER = `import { TableClient } from "@azure/data-tables";
import * as ParcelKeys from "./Parcels.keys.js";
const parcels = TableClient.fromConnectionString(process.env.CONN ?? "", "Parcels");
export async function receive(depot: string, seq: number) {
  await parcels.createEntity({ partitionKey: ParcelKeys.partitionKey({ Depot: depot }), rowKey: ParcelKeys.rowKey({ Seq: seq }) });
}
`;

test("a generated module carries its design's fingerprint, and a key built by it is drift once the table changes", () => {
  const text = generate(DESIGN(6));
  useDesign(DESIGN(6));
  assert.match(text, new RegExp(`export const designFingerprint = "${current.get("Parcels")!.fingerprint}";`));
  const caller = fx.file("receive.ts", CALLER);
  assert.deepEqual(
    fx.analyzer.analyze(caller).findings.filter((f) => f.code === CODE),
    [],
    "generated from the design as it is: right by construction",
  );
  // The design now pads Seq to 7: the module on disk still pads to 6.
  useDesign(DESIGN(7));
  const found = fx.analyzer.analyze(caller).findings.filter((f) => f.code === CODE);
  assert.deepEqual(
    found.map((f) => [f.severity, CALLER.slice(f.start, f.end)]),
    [["warning", "ParcelKeys.partitionKey({ Depot: depot })"]],
  );
  expectSaid(found[0], "stale", {
    module: "Parcels.keys.ts",
    reason: 'was generated from another version of table "Parcels" (the design changed since)',
    more: 1,
  });
  assert.deepEqual(
    found[0].fixes?.map((f) => [f.title, f.edits.length, f.command]),
    [
      [
        "Regenerate the key builders of table Parcels (Parcels.keys.ts) from its design",
        0,
        { command: GENERATE_COMMAND, arguments: [designFile, "Parcels"] },
      ],
    ],
  );
  // Regenerated: quiet again.
  generate(DESIGN(7));
  assert.deepEqual(
    fx.analyzer.analyze(caller).findings.filter((f) => f.code === CODE),
    [],
  );
});

test("a key written by hand next to a stale module: the fix regenerates the module, it never calls the stale builder", () => {
  generate(DESIGN(6));
  useDesign(DESIGN(7));
  const f = fx.file(
    "by-hand.ts",
    `import { TableClient } from "@azure/data-tables";
const parcels = TableClient.fromConnectionString(process.env.CONN ?? "", "Parcels");
export const put = (depot: string, seq: number) => parcels.createEntity({ partitionKey: depot, rowKey: String(seq).padStart(6, "0") });
`,
  );
  const [finding] = fx.analyzer.analyze(f).findings.filter((x) => x.code === CODE);
  assert.match(finding.message, /pads to 6 digits; the design pads Seq to 7/);
  assert.deepEqual(
    finding.fixes?.map((x) => [x.title, x.command?.command]),
    [["Regenerate the key builders of table Parcels (Parcels.keys.ts) from its design", GENERATE_COMMAND]],
  );
});

test("a design table that does not parse: neither drift rule judges it, and one info says so", () => {
  useDesign(DESIGN(7, " +"));
  assert.equal(current.get("Parcels")?.broken, true);
  const f = fx.file(
    "broken.ts",
    `import { TableClient } from "@azure/data-tables";
const parcels = TableClient.fromConnectionString(process.env.CONN ?? "", "Parcels");
export async function all(depot: string, seq: number) {
  await parcels.createEntity({ partitionKey: depot + "-x", rowKey: String(seq) });
  await parcels.upsertEntity({ partitionKey: depot + "#", rowKey: "y" });
  for await (const p of parcels.listEntities()) void p;
}
`,
  );
  const found = fx.analyzer.analyze(f).findings.filter((x) => x.code === CODE || x.code === "ts/design-drift-query");
  assert.deepEqual(
    found.map((x) => [x.code, x.severity]),
    [[CODE, "info"]],
  );
  assert.equal(
    found[0].message,
    `table "Parcels"'s design (parcels.tdl) does not parse: drift between it and this code is not judged until it parses.`,
  );
});
