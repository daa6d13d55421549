/**
 * Table-level meaning checks: `missing-key` and `table/invalid-name`.
 */
import { Rule } from "./rule";

export const missingKey: Rule = {
  code: "missing-key",
  severity: "error",
  family: "Syntax and meaning",
  docs: {
    summary: "a table has no `partitionKey` or `rowKey`",
    why: "Every entity is addressed by its PartitionKey and RowKey.",
  },
  checkTable(ctx) {
    const t = ctx.table;
    const missing = (["partitionKey", "rowKey"] as const).filter((k) => !t[k]);
    if (!missing.length) return;
    ctx.report(
      t.name,
      `table '${t.name.text}' has no ${missing.join(" and no ")}: every entity is addressed by its PartitionKey and RowKey; ` +
        `declare ${missing.map((k) => `'${k} = …'`).join(" and ")}`,
    );
  },
};

export const tableInvalidName: Rule = {
  code: "table/invalid-name",
  severity: "error",
  family: "Syntax and meaning",
  docs: {
    summary: "the table name breaks the service's naming rule (Azure: 3–63 letters and digits, not starting with a digit, not `tables`)",
    why: "The service refuses to create a table with such a name.",
  },
  onBrokenTables: true,
  checkFile(ctx) {
    const rule = ctx.profile.tableName;
    for (const { table: t, base } of ctx.tables) {
      const name = t.name.text;
      if (!name) continue;
      let why: string | undefined;
      if (!rule.pattern.test(name)) why = `${ctx.profile.label} table names are ${rule.rule}`;
      else if (rule.reserved.includes(name.toLowerCase())) why = `'${name}' is reserved by ${ctx.profile.label}`;
      if (!why) continue;
      ctx.report({ start: t.name.start + base, end: t.name.end + base }, `invalid table name '${name}': ${why}`);
    }
  },
};
