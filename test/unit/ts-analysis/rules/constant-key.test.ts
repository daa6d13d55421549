/**
 * `ts/constant-partition-key` across a project: one warning per table whose
 * writes all use constants, a hint at each other place that writes such a
 * key, nothing at the calls of a helper that builds the key (one key, one
 * site), no table-wide words when the table is not known, and a composite
 * fix that never builds the key from a clock, a status or an amount.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { LineIndex } from "@core";
import type { TsFinding } from "@ts-analysis/analysis";
import { toDiagnostic } from "@server/lsp/convert";
import { TsFixture } from "../../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

const CODE = "ts/constant-partition-key";

/** Each finding of the rule in a file: severity, the text it sits on, and its related places as `file:line`. */
function found(file: string) {
  const text = readFileSync(file, "utf8");
  return (fx.analyzer.analyze(file).findings as TsFinding[])
    .filter((f) => f.code === CODE)
    .map((f) => ({
      severity: f.severity,
      at: text.slice(f.start, f.end),
      message: f.message,
      messageId: f.messageId,
      data: f.data,
      related: (f.related ?? []).map((r) => `${path.basename(r.file)}:${r.line + 1}`),
    }));
}

test("a table written with constant keys in several files: one warning at its first write, a hint at every other place", () => {
  // Two copies of a repository (an API and a functions app share the table), each writing a lookup row and a member row.
  const repository = (name: string) =>
    fx.file(
      name,
      `import { TableClient } from "@azure/data-tables";
const members = TableClient.fromConnectionString(process.env.CONN ?? "", "Members");
export async function join(id: string, phone: string) {
  await members.createEntity({ partitionKey: "BY_PHONE", rowKey: phone, id });
  await members.createEntity({ partitionKey: "MEMBER", rowKey: id, phone });
}
export async function rename(id: string, name: string) {
  await members.upsertEntity({ partitionKey: "MEMBER", rowKey: id, name }, "Merge");
}
`,
    );
  const first = repository("a-members.ts");
  const second = repository("b-members.ts");
  const a = found(first);
  assert.deepEqual(
    a.map((f) => [f.severity, f.at]),
    [
      ["warning", '"BY_PHONE"'],
      ["hint", '"MEMBER"'],
      ["hint", '"MEMBER"'],
    ],
  );
  assert.deepEqual(
    [a[0].messageId, a[0].data],
    [
      "wholeTable",
      {
        value: "BY_PHONE",
        declared: false,
        target: { value: 2000, unit: "entities/s" },
        table: "Members",
        count: 5,
        others: ["line 5", "line 8", "b-members.ts:4"],
        constants: ["BY_PHONE", "MEMBER"],
      },
    ],
  );
  assert.deepEqual(a[0].related, ["a-members.ts:5", "a-members.ts:8", "b-members.ts:4", "b-members.ts:5", "b-members.ts:8"]);
  assert.equal(
    a[1].message,
    'every entity written here gets the partition key "MEMBER", like every write to table "Members": its constant partition key is reported at line 4.',
  );
  assert.deepEqual(a[1].related, ["a-members.ts:4"]);
  // In the editor, the other sites are the warning's related information.
  const text = readFileSync(first, "utf8");
  const warning = (fx.analyzer.analyze(first).findings as TsFinding[]).find((f) => f.code === CODE && f.severity === "warning")!;
  const diagnostic = toDiagnostic(new LineIndex(text), warning);
  assert.deepEqual(diagnostic.relatedInformation?.[2], {
    location: { uri: pathToFileURL(second).href, range: { start: { line: 3, character: 45 }, end: { line: 3, character: 45 } } },
    message: 'another write to table "Members" with a constant partition key',
  });
  const b = found(second);
  assert.deepEqual(
    b.map((f) => [f.severity, f.at]),
    [
      ["hint", '"BY_PHONE"'],
      ["hint", '"MEMBER"'],
      ["hint", '"MEMBER"'],
    ],
  );
  assert.deepEqual([b[0].messageId, b[0].data?.at], ["reportedAt", "a-members.ts:4"]);
});

test("a key built once in a helper and written by many callers is one site, reported where the key is", () => {
  fx.file(
    "ledger.ts",
    `import { TableClient } from "@azure/data-tables";
const ledger = TableClient.fromConnectionString(process.env.CONN ?? "", "Ledger");
function toRow(entry: { id: string; memo: string }) {
  return { partitionKey: "entries", rowKey: entry.id, memo: entry.memo };
}
export async function saveEntry(entry: { id: string; memo: string }) {
  await ledger.upsertEntity(toRow(entry), "Replace");
}
`,
  );
  const callers = ["pay.ts", "refund.ts", "adjust.ts"].map((name) =>
    fx.file(name, `import { saveEntry } from "./ledger";\nexport const run = (id: string) => saveEntry({ id, memo: "${name}" });\n`),
  );
  const ledger = found(fx.dir + "/ledger.ts");
  assert.deepEqual(
    ledger.map((f) => [f.severity, f.at]),
    [["warning", '"entries"']],
  );
  assert.deepEqual(ledger[0].related, ["adjust.ts:2", "pay.ts:2", "refund.ts:2"]);
  for (const c of callers) assert.deepEqual(found(c), [], path.basename(c));
});

test("a table named from the environment: its constant sites are grouped by that name's source, never said of the whole table", () => {
  const f = fx.file(
    "trips.ts",
    `import { TableClient } from "@azure/data-tables";
const TRIPS = process.env.TRIPS_TABLE ?? "Trips";
const trips = TableClient.fromConnectionString(process.env.CONN ?? "", TRIPS);
export async function plan(id: string) {
  await trips.createEntity({ partitionKey: "planned", rowKey: id });
}
export async function replan(id: string) {
  await trips.upsertEntity({ partitionKey: "planned", rowKey: id, again: true }, "Merge");
}
export async function anywhere(client: TableClient, id: string) {
  await client.createEntity({ partitionKey: "loose", rowKey: id });
}
`,
  );
  const [first, second, loose] = found(f);
  assert.deepEqual(
    [first, second, loose].map((x) => [x.severity, x.at]),
    [
      ["warning", '"planned"'],
      ["hint", '"planned"'],
      ["warning", '"loose"'],
    ],
  );
  // No table-wide words for a table named by the environment: the sentence says what is not judged.
  assert.deepEqual([first.messageId, first.data?.source, first.data?.count, first.data?.others], ["unnamedTable", "TRIPS", 1, ["line 8"]]);
  assert.deepEqual([second.messageId, second.data?.source, second.data?.at], ["reportedAt", "TRIPS", "line 5"]);
  assert.deepEqual([loose.messageId, loose.data?.value, loose.data?.why], ["unjudged", "loose", "unknownTable"]);
});

test("the composite fix takes a property that identifies the entity, never an amount, a status or a clock", () => {
  fx.fix(
    "payments.ts",
    `import { TableClient } from "@azure/data-tables";
const payments = TableClient.fromConnectionString(process.env.CONN ?? "", "Payments");
export async function pay(amount: number, status: "new" | "done", payerId: string, id: string) {
  await payments.createEntity({ partitionKey: "payments", rowKey: id, amount, status, at: new Date().toISOString(), payerId });
}
`,
    CODE,
    `import { TableClient } from "@azure/data-tables";
const payments = TableClient.fromConnectionString(process.env.CONN ?? "", "Payments");
export async function pay(amount: number, status: "new" | "done", payerId: string, id: string) {
  await payments.createEntity({ partitionKey: "payments," + payerId, rowKey: id, amount, status, at: new Date().toISOString(), payerId });
}
`,
  );
  const f = fx.file(
    "tips.ts",
    `import { TableClient } from "@azure/data-tables";
const tips = TableClient.fromConnectionString(process.env.CONN ?? "", "Tips");
export async function tip(amount: number, id: string) {
  await tips.createEntity({ partitionKey: "tips", rowKey: id, amount, at: Date.now() });
}
`,
  );
  const finding = fx.analyzer.analyze(f).findings.find((x) => x.code === CODE);
  assert.deepEqual(finding?.fixes ?? [], []);
});

test("a constant beside keys that vary is a side partition of the table: no finding", () => {
  const f = fx.file(
    "subscriptions.ts",
    `import { TableClient } from "@azure/data-tables";
const subs = TableClient.fromConnectionString(process.env.CONN ?? "", "Subs");
export async function subscribe(user: string, topic: string) {
  await subs.createEntity({ partitionKey: user, rowKey: topic });
}
export async function subscribeSystem(topic: string) {
  await subs.createEntity({ partitionKey: "__system__", rowKey: topic });
}
export async function renewSystem(topic: string, until: string) {
  await subs.upsertEntity({ partitionKey: "__system__", rowKey: topic, until }, "Merge");
}
export async function dropSystem(topic: string) {
  await subs.updateEntity({ partitionKey: "__system__", rowKey: topic, dropped: true }, "Merge");
}
`,
  );
  assert.deepEqual(found(f), []);
});

test("a constant partition key with a row key its type closes to a few literals is a fixed set of rows (counters): no finding", () => {
  // A sequence per kind, through a parameter typed with the kinds, in two files.
  fx.file(
    "sequences.ts",
    `import { TableClient } from "@azure/data-tables";
export type Sequence = "invoice" | "ticket" | "order";
const seqs = TableClient.fromConnectionString(process.env.CONN ?? "", "Sequences");
export async function next(kind: Sequence, etag: string, value: number) {
  await seqs.updateEntity({ partitionKey: "seq", rowKey: kind, value }, "Replace", { etag });
}
export async function start(kind: Sequence) {
  await seqs.createEntity({ partitionKey: "seq", rowKey: kind, value: 1 });
}
`,
  );
  const reset = fx.file(
    "reset-sequences.ts",
    `import { TableClient } from "@azure/data-tables";
const seqs = TableClient.fromConnectionString(process.env.CONN ?? "", "Sequences");
enum Kind { Invoice = "invoice", Ticket = "ticket" }
export async function reset(kind: Kind) {
  await seqs.upsertEntity({ partitionKey: "seq", rowKey: kind, value: 0 }, "Replace");
}
export async function resetOrders() {
  await seqs.upsertEntity({ partitionKey: "seq", rowKey: "order", value: 0 }, "Replace");
}
`,
  );
  assert.deepEqual(found(reset), []);
  assert.deepEqual(found(path.join(path.dirname(reset), "sequences.ts")), []);
});

test("a row key of any string, or a literal outside the closed set, under the constant: still one partition of data", () => {
  const f = fx.file(
    "labels.ts",
    `import { TableClient } from "@azure/data-tables";
type Shade = "light" | "dark";
const labels = TableClient.fromConnectionString(process.env.CONN ?? "", "Labels");
export async function paint(shade: Shade) {
  await labels.upsertEntity({ partitionKey: "label", rowKey: shade }, "Replace");
}
export async function name(text: string) {
  await labels.createEntity({ partitionKey: "label", rowKey: text });
}
`,
  );
  assert.deepEqual(
    found(f)
      .map((x) => x.messageId)
      .sort(),
    ["reportedAt", "wholeTable"],
  );
  const g = fx.file(
    "tones.ts",
    `import { TableClient } from "@azure/data-tables";
const tones = TableClient.fromConnectionString(process.env.CONN ?? "", "Tones");
export async function tone(shade: "light" | "dark") {
  await tones.upsertEntity({ partitionKey: "tone", rowKey: shade }, "Replace");
}
export async function neon() {
  await tones.upsertEntity({ partitionKey: "tone", rowKey: "neon" }, "Replace");
}
`,
  );
  // The literal outside the type opens the set: the write of the typed key is reported.
  assert.deepEqual(
    found(g).map((x) => [x.messageId, x.at]),
    [["wholeTable", '"tone"']],
  );
});
