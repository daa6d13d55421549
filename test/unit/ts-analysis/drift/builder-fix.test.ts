import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { TsFixture, TSCONFIG } from "../../../helpers/typescript";
import { applyEdits } from "../../../helpers/markers";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { tablesOfDesign } from "@ts-analysis/drift/design-index";
import { codeActionsFor, toDiagnostic } from "@server/lsp/convert";
import { LineIndex } from "@core";

const MARATHON = path.resolve("examples/marathon.tdl");
const designs = tablesOfDesign(readFileSync(MARATHON, "utf8"), MARATHON);
const fx = new TsFixture(TSCONFIG, new TsAnalyzer({ designTable: (t) => (t ? designs.get(t) : undefined) }));
after(() => fx.dispose());

const CODE = "ts/design-drift-key";
// A module as `tdl codegen` writes it today carries the fingerprint of the table it was generated from.
const MODULE = `export const designFingerprint = "${designs.get("Registrations")!.fingerprint}";
export function rowKeyByAge(e: { Age: number; Bib: number; Name: string; Gender: "M" | "F" }): string {
  return "AGE:" + String(e.Age).padStart(3, "0") + "__" + String(e.Bib).padStart(5, "0") + "__" + e.Name + "__" + e.Gender;
}
`;

test("the builder's call for an index row, from a subfolder, reusing the file's namespace import of the module", () => {
  mkdirSync(path.join(fx.dir, "src"), { recursive: true });
  mkdirSync(path.join(fx.dir, "keys"), { recursive: true });
  // Beside the design is where `tdl codegen` writes when no --out is given; here the design's copy sits in the keys folder.
  const designCopy = path.join(fx.dir, "keys", "marathon.tdl");
  writeFileSync(designCopy, readFileSync(MARATHON, "utf8"));
  const local = tablesOfDesign(readFileSync(designCopy, "utf8"), designCopy);
  const analyzer = new TsAnalyzer({ designTable: (t) => (t ? local.get(t) : undefined) });
  writeFileSync(path.join(fx.dir, "keys", "Registrations.keys.ts"), MODULE);
  const src = `import { TableClient } from "@azure/data-tables";
import * as Keys from "../keys/Registrations.keys.js";
const client = TableClient.fromConnectionString("", "Registrations");
export async function w(r: { event: string; distance: "Full"; bib: number; name: string; gender: "M" | "F"; age: number }) {
  void Keys;
  await client.createEntity({ partitionKey: \`\${r.event}__\${r.distance}\`, rowKey: "AGE:" + String(r.age).padStart(4, "0") + "__" + String(r.bib).padStart(5, "0") + "__" + r.name + "__" + r.gender });
}
`;
  const file = path.join(fx.dir, "src", "w.ts");
  writeFileSync(file, src);
  analyzer.update(file, src);
  const finding = analyzer.analyze(file).findings.find((f) => f.code === CODE);
  assert.ok(finding, "the drift (Age padded to 4) is found");
  const fixed = applyEdits(src, finding.fixes![0].edits);
  assert.match(fixed, /rowKey: Keys\.rowKeyByAge\(\{ Age: r\.age, Bib: r\.bib, Name: r\.name, Gender: r\.gender \}\)/);
  assert.equal(fixed.match(/import \* as/g)?.length, 1, "the existing import is reused");
  analyzer.update(file, fixed);
  assert.deepEqual(
    analyzer.semanticDiagnostics(file).map((d) => d.messageText),
    [],
  );
  assert.deepEqual(
    analyzer.analyze(file).findings.filter((f) => f.code === CODE),
    [],
  );
});

test("the generate command travels through the diagnostic's data to a code action; malformed commands from a client are dropped", () => {
  const src = `import { TableClient } from "@azure/data-tables";
const client = TableClient.fromConnectionString("", "Registrations");
export const w = (a: string, b: string) => client.createEntity({ partitionKey: a + "::" + b, rowKey: "x" });
`;
  const f = fx.file("cmd.ts", src);
  const finding = fx.analyzer.analyze(f).findings.find((x) => x.code === CODE)!;
  const lines = new LineIndex(src);
  const diagnostic = toDiagnostic(lines, finding);
  const uri = "file:///cmd.ts";
  const [action] = codeActionsFor(uri, [{ ...diagnostic, source: "tdl" }]);
  assert.deepEqual(action.command, {
    title: action.title,
    command: "tableDesign.generateKeyBuilders",
    arguments: [MARATHON, "Registrations"],
  });
  assert.equal(action.edit, undefined);
  const hostile = {
    ...diagnostic,
    source: "tdl",
    data: {
      fixes: [
        { title: "x", edits: [], command: { command: 42 } },
        { title: "y", edits: [], command: "rm -rf" },
      ],
    },
  };
  assert.deepEqual(codeActionsFor(uri, [hostile]), []);
});
