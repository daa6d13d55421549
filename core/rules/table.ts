/**
 * Table-level meaning checks: `missing-key` and `table/invalid-name`.
 */
import { defineRule } from "./rule";

export const missingKey = defineRule({
  code: "missing-key",
  severity: "error",
  family: "Syntax and meaning",
  traits: { broken: true },
  docs: {
    summary: "a table has no `partitionKey` or `rowKey`",
    why: "Every entity is addressed by its PartitionKey and RowKey.",
  },
  messages: {
    missing: (p: { table: string; missing: string[] }) =>
      `table '${p.table}' has no ${p.missing.join(" and no ")}: every entity is addressed by its PartitionKey and RowKey; ` +
      `declare ${p.missing.map((k) => `'${k} = …'`).join(" and ")}`,
  },
  checkTable(ctx) {
    const t = ctx.table;
    const missing = (["partitionKey", "rowKey"] as const).filter((k) => !t[k]);
    if (!missing.length) return;
    ctx.report(t.name, "missing", { table: t.name.text, missing });
  },
});

export const tableInvalidName = defineRule({
  code: "table/invalid-name",
  severity: "error",
  family: "Syntax and meaning",
  docs: {
    summary: "the table name breaks the service's naming rule (Azure: 3–63 letters and digits, not starting with a digit, not `tables`)",
    why: "The service refuses to create a table with such a name.",
  },
  messages: {
    pattern: (p: { name: string; service: string; rule: string }) =>
      `invalid table name '${p.name}': ${p.service} table names are ${p.rule}`,
    reserved: (p: { name: string; service: string }) => `invalid table name '${p.name}': '${p.name}' is reserved by ${p.service}`,
  },
  onBrokenTables: true,
  checkFile(ctx) {
    const rule = ctx.profile.tableName;
    for (const { table: t, base } of ctx.tables) {
      const name = t.name.text;
      if (!name) continue;
      const at = { start: t.name.start + base, end: t.name.end + base };
      if (!rule.pattern.test(name)) ctx.report(at, "pattern", { name, service: ctx.profile.label, rule: rule.rule });
      else if (rule.reserved.includes(name.toLowerCase())) ctx.report(at, "reserved", { name, service: ctx.profile.label });
    }
  },
});
