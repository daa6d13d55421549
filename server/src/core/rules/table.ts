/**
 * Table-level meaning checks: `missing-key` and `table/invalid-name`.
 */
import { Rule } from "./rule";

export const missingKey: Rule = {
  code: "missing-key",
  severity: "error",
  checkTable(ctx) {
    const t = ctx.table;
    const missing = (["partitionKey", "rowKey"] as const).filter((k) => !t[k]);
    if (!missing.length) return;
    ctx.report({
      code: this.code, severity: this.severity, start: t.name.start, end: t.name.end,
      message: `table '${t.name.text}' has no ${missing.join(" and no ")}: every entity is addressed by its PartitionKey and RowKey; ` +
        `declare ${missing.map((k) => `'${k} = …'`).join(" and ")}`,
    });
  },
};

export const tableInvalidName: Rule = {
  code: "table/invalid-name",
  severity: "error",
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
      ctx.report({ code: this.code, severity: this.severity, start: t.name.start + base, end: t.name.end + base, message: `invalid table name '${name}': ${why}` });
    }
  },
};
