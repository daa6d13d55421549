import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { TsFixture, TSCONFIG } from "../../../helpers/typescript";
import { TsAnalyzer } from "@ts-analysis/analysis";
import { tablesOfDesign } from "@ts-analysis/drift/design-index";
import { GENERATE_COMMAND } from "@ts-analysis/drift/builder-fix";
import { applyEdits } from "../../../helpers/markers";
import { expectSaid } from "../../../helpers/analysis";

const MARATHON = path.resolve("examples/marathon.tdl");
const designs = tablesOfDesign(readFileSync(MARATHON, "utf8"), MARATHON);
const fx = new TsFixture(TSCONFIG, new TsAnalyzer({ designTable: (t) => (t ? designs.get(t) : undefined) }));
after(() => fx.dispose());

const HEAD = `import { TableClient } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Registrations");
interface Reg { event: string; distance: "Full" | "Half" | "TenK"; bib: number; name: string; gender: "M" | "F"; age: number }
const pad = (n: number, w: number) => String(n).padStart(w, "0");
`;
const CODE = "ts/design-drift-key";

test("keys built as designed (row and index rows, helpers, consts) have no drift", () => {
  fx.expect(
    "ok.ts",
    `${HEAD}
export async function write(r: Reg) {
  const age = String(r.age).padStart(3, "0");
  await client.createEntity({ partitionKey: \`\${r.event}__\${r.distance}\`, rowKey: \`BIB:\${pad(r.bib, 5)}__\${r.name}__\${r.gender}__\${age}\` });
  await client.createEntity({ partitionKey: r.event + "__" + r.distance, rowKey: "AGE:" + age + "__" + String(r.bib).padStart(5, "0") + "__" + r.name + "__" + r.gender });
  await client.getEntity(r.event + "__" + r.distance, \`BIB:\${pad(r.bib, 5)}__\${r.name}__\${r.gender}__\${age}\`);
}
// A value whose declared type allows one text is still the property it is named after; a prefix typed so is a literal.
export async function full(r: Reg & { distance: "Full" }, prefix: "BIB:") {
  await client.createEntity({ partitionKey: \`\${r.event}__\${r.distance}\`, rowKey: \`\${prefix}\${pad(r.bib, 5)}__\${r.name}__\${r.gender}__\${pad(r.age, 3)}\` });
}
export async function opaque(pk: string, rk: string) {
  await client.upsertEntity({ partitionKey: pk, rowKey: rk });
}
`,
    CODE,
  );
});

test("each kind of drift is found, and named", () => {
  const found = fx.expect(
    "drift.ts",
    `${HEAD}
export async function write(r: Reg) {
  await client.createEntity({ partitionKey: «\`\${r.event}-\${r.distance}\`», rowKey: "x" });
  await client.createEntity({ partitionKey: «\`\${r.distance}__\${r.event}\`», rowKey: "x" });
  await client.createEntity({ partitionKey: r.event + "__" + r.distance, rowKey: «\`\${pad(r.bib, 6)}__\${r.name}__\${r.gender}__\${pad(r.age, 3)}\`» });
  await client.createEntity({ partitionKey: r.event + "__" + r.distance, rowKey: «\`BIB:\${String(r.bib).padStart(6, "0")}__\${r.name}__\${r.gender}__\${pad(r.age, 3)}\`» });
  await client.createEntity({ partitionKey: r.event + "__" + r.distance, rowKey: «\`AGE:\${r.age}__\${pad(r.bib, 5)}__\${r.name}__\${r.gender}\`» });
  await client.createEntity({ partitionKey: «\`\${r.event}#\${r.distance}\`», rowKey: "x" });
  await client.createEntity({ partitionKey: «\`\${r.event}__\${r.distance}__\${r.name}\`», rowKey: "x" });
}
`,
    CODE,
  );
  const m = found.map((f) => f.message);
  assert.match(m[0], /"-" between its parts where the design has "__"/);
  assert.match(m[1], /order Distance, Event; the design orders them Event, Distance/);
  assert.match(m[2], /the design's key starts with "BIB:", which this key leaves out/);
  assert.match(m[3], /pads to 6 digits; the design pads Bib to 5/);
  assert.match(m[4], /index ByAge.*'r\.age' is a number without padding; the design pads Age to 3 digits/);
  assert.match(m[5], /"#" cannot appear in a key \(Azure Table Storage forbids it\), and the design has none there/);
  assert.match(m[6], /'r\.name' is a part the design's key does not have/);
});

test("tables no design declares, and the generated builders, are not judged", () => {
  fx.expect(
    "other.ts",
    `import { TableClient } from "@azure/data-tables";
const other = TableClient.fromConnectionString("", "Orders");
export const w = (a: string, b: string) => other.createEntity({ partitionKey: a + "-" + b, rowKey: "1" });
`,
    CODE,
  );
});

test("the fix: the command that generates the builders when the module is missing, the builder's call when it exists", () => {
  const src = `${HEAD}
export async function write(r: Reg) {
  await client.createEntity({ partitionKey: \`\${r.event}-\${r.distance}\`, rowKey: "x" });
}
`;
  const f = fx.file("fix.ts", src);
  const before = fx.analyzer.analyze(f).findings.find((x) => x.code === CODE);
  assert.deepEqual(
    before?.fixes?.map((x) => [x.edits.length, x.command]),
    [[0, { command: GENERATE_COMMAND, arguments: [MARATHON, "Registrations"] }]],
  );
  // A module with the builder's signature beside the code: the key becomes its call, imported.
  writeFileSync(
    path.join(fx.dir, "Registrations.keys.ts"),
    `export const designFingerprint = "${designs.get("Registrations")!.fingerprint}";\n` +
      `export function partitionKey(e: { Event: string; Distance: "Full" | "Half" | "TenK" }): string { return e.Event + "__" + e.Distance; }\n`,
  );
  const finding = fx.analyzer.analyze(fx.file("fix.ts", src)).findings.find((x) => x.code === CODE);
  const fix = finding?.fixes?.[0];
  assert.ok(fix && fix.preferred && !fix.command);
  const fixed = applyEdits(src, fix.edits);
  assert.match(fixed, /import \* as RegistrationsKeys from "\.\/Registrations\.keys\.js";/);
  assert.match(fixed, /partitionKey: RegistrationsKeys\.partitionKey\(\{ Event: r\.event, Distance: r\.distance \}\)/);
  fx.file("fix.ts", fixed);
  assert.deepEqual(fx.typeErrors(f), []);
  assert.deepEqual(
    fx.analyzer.analyze(f).findings.filter((x) => x.code === CODE),
    [],
  );
});

test("a transaction whose entities take the design's partition key from different values is drift; one partition is not", () => {
  const found = fx.expect(
    "tx.ts",
    `${HEAD}
import { TableTransaction } from "@azure/data-tables";
export async function pair(a: Reg, b: Reg) {
  const tx = new TableTransaction();
  tx.createEntity({ partitionKey: \`\${a.event}__\${a.distance}\`, rowKey: \`BIB:\${pad(a.bib, 5)}__\${a.name}__\${a.gender}__\${pad(a.age, 3)}\` });
  tx.createEntity({ partitionKey: \`\${b.event}__\${b.distance}\`, rowKey: \`BIB:\${pad(b.bib, 5)}__\${b.name}__\${b.gender}__\${pad(b.age, 3)}\` });
  await «client.submitTransaction(tx.actions)»;
}
export async function dual(r: Reg) {
  const tx = new TableTransaction();
  tx.createEntity({ partitionKey: \`\${r.event}__\${r.distance}\`, rowKey: \`BIB:\${pad(r.bib, 5)}__\${r.name}__\${r.gender}__\${pad(r.age, 3)}\` });
  tx.createEntity({ partitionKey: r.event + "__" + r.distance, rowKey: \`AGE:\${pad(r.age, 3)}__\${pad(r.bib, 5)}__\${r.name}__\${r.gender}\` });
  await client.submitTransaction(tx.actions);
}
`,
    CODE,
  );
  expectSaid(found[0], "splitTransaction", { property: "Event", values: ["a.event", "b.event"] });
});

test("hostile keys: 1,000 concatenated parts (5,000 overflow the usage finder in calls.ts, reported), a 1 MB literal, NUL and \\r in a separator — answered, without a crash", () => {
  const many = Array.from({ length: 1000 }, () => "r.name").join(' + "__" + ');
  const big = "_".repeat(1 << 20);
  const f = fx.file(
    "hostile.ts",
    `${HEAD}
export async function w(r: Reg) {
  await client.createEntity({ partitionKey: r.event + "__" + r.distance, rowKey: ${many} });
  await client.createEntity({ partitionKey: r.event + "${big}" + r.distance, rowKey: "x" });
  await client.createEntity({ partitionKey: r.event + "_\\u0000\\r" + r.distance, rowKey: "x" });
}
`,
  );
  const found = fx.analyzer.analyze(f).findings.filter((x) => x.code === CODE || x.code === "internal");
  assert.ok(
    found.every((x) => x.code === CODE),
    found.map((x) => x.message.slice(0, 200)).join("\n"),
  );
  assert.ok(
    found.some((x) => /"\\u0000", "\\r" cannot appear in a key/.test(x.message)),
    found.map((x) => x.message.slice(0, 300)).join("\n"),
  );
  assert.ok(found.some((x) => x.message.length < 5000 && /between its parts/.test(x.message)));
});
