import { after, test } from "node:test";
import assert from "node:assert/strict";
import { TsFixture } from "../../../helpers/typescript";

const fx = new TsFixture();
after(() => fx.dispose());

const HEAD = `import { TableClient, odata } from "@azure/data-tables";
const client = TableClient.fromConnectionString(process.env.CONN ?? "", "Orders");
`;

test("ts/filter-syntax sits on the error inside the string, through constants, templates, odata and joins", () => {
  const found = fx.expect(
    "syntax.ts",
    `${HEAD}
const BROKEN = "PartitionKey eq 'a' «andd» RowKey eq 'b'";
export function read(pk: string) {
  client.listEntities({ queryOptions: { filter: "PartitionKey «=» 'a'" } });
  client.listEntities({ queryOptions: { filter: BROKEN } });
  client.listEntities({ queryOptions: { filter: \`PartitionKey eq '\${pk}' and «RowKey»\` } });
  client.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${pk} and RowKey «gt»\` } });
  client.listEntities({ queryOptions: { filter: ["PartitionKey eq 'a'", "(RowKey eq «'b'»"].join(" and ") } });
}
`,
    "ts/filter-syntax",
  );
  assert.ok(
    found.every((f) => f.severity === "error" && f.messageId === "syntax"),
    found.map((f) => f.message).join(" | "),
  );
});

test("ts/filter-syntax: silent on valid filters, on filters not known statically, and the call gets no class", () => {
  const text = `${HEAD}
export function read(pk: string, filter: string) {
  client.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${pk} and RowKey ge 'a'\` } });
  client.listEntities({ queryOptions: { filter } });
  client.listEntities({ queryOptions: { filter: "PartitionKey " } });
}
`;
  const findings = fx.analyzer.analyze(fx.file("valid.ts", text)).findings;
  assert.deepEqual(
    findings.filter((f) => f.code === "ts/filter-syntax").map((f) => text.slice(f.start, f.end)),
    ["PartitionKey"],
  );
  assert.deepEqual(
    findings.filter((f) => f.code === "ts/query-class").map((f) => f.message.split(":")[0]),
    ["row-range · 1 partition", "filter not known statically"],
  );
});

test("an escaped string maps the error to the whole literal (offsets inside it would be wrong)", () => {
  fx.expect(
    "escaped.ts",
    `${HEAD}
client.listEntities({ queryOptions: { filter: «"Name eq \\u0027a\\u0027 xor"» } });
`,
    "ts/filter-syntax",
  );
});

test("a value inside a typed literal's quotes (datetime'…', guid'…') stands for a value of that type: no syntax error", () => {
  const text = `${HEAD}
export function since(pk: string, at: string, id: string) {
  client.listEntities({ queryOptions: { filter: odata\`PartitionKey eq \${pk} and Timestamp ge datetime'\${at}'\` } });
  client.listEntities({ queryOptions: { filter: "Timestamp lt datetime'" + at + "'" } });
  client.listEntities({ queryOptions: { filter: \`PartitionKey eq '\${pk}' and owner eq guid'\${id}'\` } });
}
`;
  const findings = fx.analyzer.analyze(fx.file("typed.ts", text)).findings;
  assert.deepEqual(
    findings.filter((f) => f.code === "ts/filter-syntax").map((f) => f.message),
    [],
  );
  assert.deepEqual(
    findings.filter((f) => f.code === "ts/query-class").map((f) => f.message.split(" · ")[0]),
    ["row-range", "table-scan", "row-range"],
  );
});
