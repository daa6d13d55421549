/**
 * Name checks (`rules.md`, "Syntax and meaning"): `unknown-property` and
 * `duplicate-name`. Both also run on tables that have syntax errors.
 */
import { Name } from "../tdl/ast";
import { SYSTEM_PROPERTIES } from "../service/references";
import { FileContext, Rule, TableContext } from "./rule";
import { closest } from "./spelling";

export const unknownProperty: Rule = {
  code: "unknown-property",
  severity: "error",
  onBrokenTables: true,
  checkTable(ctx: TableContext) {
    const declared = [...ctx.props.keys()];
    for (const ref of ctx.refs) {
      if (ref.kind === "decl" || ctx.props.has(ref.name)) continue;
      if ((ref.kind === "query" || ref.kind === "filter") && SYSTEM_PROPERTIES.has(ref.name)) continue;
      const guess = closest(ref.name, declared);
      const known = declared.length ? `it declares ${declared.join(", ")}` : "it declares no properties";
      ctx.report({
        code: this.code, severity: this.severity, start: ref.start, end: ref.end,
        message: `unknown property '${ref.name}': table '${ctx.table.name.text}' does not declare it (${known})` +
          (guess ? `. Did you mean '${guess}'?` : ""),
        fixes: guess ? [{ title: `Change to '${guess}'`, edits: [{ start: ref.start, end: ref.end, newText: guess }], preferred: true }] : undefined,
      });
    }
  },
};

function reportDuplicates(ctx: FileContext, names: Name[], what: string, code: string): void {
  const first = new Map<string, Name>();
  for (const n of names) {
    if (!n.text) continue;
    const prev = first.get(n.text);
    if (!prev) { first.set(n.text, n); continue; }
    const line = ctx.text.slice(0, prev.start).split("\n").length;
    ctx.report({
      code, severity: "error", start: n.start, end: n.end,
      message: `${what} '${n.text}' is already declared on line ${line}; the first declaration counts: rename or remove this one`,
    });
  }
}

export const duplicateName: Rule = {
  code: "duplicate-name",
  severity: "error",
  onBrokenTables: true,
  checkFile(ctx) {
    reportDuplicates(ctx, ctx.file.tables.map((t) => t.name), "table", this.code);
  },
  checkTable(ctx) {
    const t = ctx.table;
    reportDuplicates(ctx, t.properties.map((p) => p.name), "property", this.code);
    reportDuplicates(ctx, t.indexes.map((i) => i.name), "index", this.code);
    reportDuplicates(ctx, t.accesses.map((a) => a.name), "access pattern", this.code);
  },
};
