/**
 * Name checks (`docs/rules.md`, "Syntax and meaning"): `unknown-property` and
 * `duplicate-name`. Both also run on tables that have syntax errors.
 */
import { Name } from "../tdl/ast";
import { SYSTEM_PROPERTIES } from "../model/references";
import { defineRule, Report } from "./rule";
import { suggester } from "./spelling";
import { clip, listNames } from "../text/words";

export const unknownProperty = defineRule({
  code: "unknown-property",
  severity: "error",
  family: "Syntax and meaning",
  traits: { broken: true },
  docs: {
    summary: "a key, query or transaction names an undeclared property",
    why: "Without the property's type and values, nothing about the key or query can be checked.",
    fix: "the closest declared name",
  },
  messages: {
    unknown: (p: { name: string; table: string; known: string; guess?: string }) =>
      `unknown property '${clip(p.name)}': table '${clip(p.table)}' does not declare it (${p.known})` +
      (p.guess ? `. Did you mean '${p.guess}'?` : ""),
  },
  onBrokenTables: true,
  checkTable(ctx) {
    const declared = [...ctx.props.keys()];
    const suggest = suggester(declared);
    // Listed once per table, shortened: a table of thousands of properties must not make every message that long.
    const known = declared.length ? `it declares ${listNames(declared)}` : "it declares no properties";
    for (const ref of ctx.refs) {
      if (ref.kind === "decl" || ctx.props.has(ref.name)) continue;
      if ((ref.kind === "query" || ref.kind === "filter") && SYSTEM_PROPERTIES.has(ref.name)) continue;
      const guess = suggest(ref.name);
      ctx.report(
        ref,
        "unknown",
        { name: ref.name, table: ctx.table.name.text, known, ...(guess ? { guess } : {}) },
        {
          fixes: guess
            ? [{ title: `Change to '${guess}'`, edits: [{ start: ref.start, end: ref.end, newText: guess }], preferred: true }]
            : undefined,
        },
      );
    }
  },
});

const duplicateMessages = {
  twice: (p: { what: string; name: string }) =>
    `${p.what} '${clip(p.name)}' is declared twice; the first declaration counts: rename or remove this one`,
};

function reportDuplicates(names: Array<{ name: Name; base: number }>, what: string, report: Report<typeof duplicateMessages>): void {
  const first = new Map<string, Name>();
  for (const { name: n, base } of names) {
    if (!n.text) continue;
    if (!first.has(n.text)) {
      first.set(n.text, n);
      continue;
    }
    report({ start: n.start + base, end: n.end + base }, "twice", { what, name: n.text });
  }
}

const local = (names: Name[]) => names.map((name) => ({ name, base: 0 }));

export const duplicateName = defineRule({
  code: "duplicate-name",
  severity: "error",
  family: "Syntax and meaning",
  traits: { broken: true },
  docs: {
    summary: "two tables, properties, indexes or access patterns share a name",
    why: "The first declaration counts; the second would silently be ignored.",
  },
  messages: duplicateMessages,
  onBrokenTables: true,
  checkFile(ctx) {
    reportDuplicates(
      ctx.tables.map((t) => ({ name: t.table.name, base: t.base })),
      "table",
      ctx.report,
    );
  },
  checkTable(ctx) {
    const t = ctx.table;
    reportDuplicates(local(t.properties.map((p) => p.name)), "property", ctx.report);
    reportDuplicates(local(t.indexes.map((i) => i.name)), "index", ctx.report);
    reportDuplicates(local(t.accesses.map((a) => a.name)), "access pattern", ctx.report);
  },
});
