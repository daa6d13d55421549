/**
 * `ts/constant-partition-key`, judged per table across the project and
 * reported once per problem: the first write of a table whose writes all use
 * constant keys carries the warning (with every other site as a related
 * location); each other place that writes a constant key of that table carries
 * a short hint pointing at it; a key reached by several calls (a helper that
 * builds it, called from many files) is one site, reported where the key is.
 */
import * as path from "node:path";
import ts from "typescript";
import { Fix, formatCount, plural, separatorBelow } from "@core";
import { constantText } from "../key-parts";
import { closedRowKeys, sameClientVaries, TableSite, tableKeyOf } from "../tables";
import { Key, keyIdentity, locationOf } from "../written-keys";
import { keyMaterial } from "../key-material";
import { defineTsRule, RelatedLocation, span, text, TsRuleContext } from "./rule";

/** At most this many other sites are listed as related locations of one finding. */
const MAX_RELATED = 20;

/** What every message of the rule starts from: the constant, whether a declared type fixes it, one partition's target. */
interface Constant {
  value: string;
  declared: boolean;
  target?: { value: number; unit: string };
}

/** A table named by a literal (`table`), or by where its name comes from (`source`). */
interface Named {
  table?: string;
  source?: string;
}

const where = (p: Constant) =>
  p.declared ? `its declared type fixes the partition key "${p.value}"` : `every entity written here gets the partition key "${p.value}"`;
const targetText = (p: Constant) => (p.target ? ` (one partition's target: ${formatCount(p.target.value)} ${p.target.unit})` : "");
const labelOf = (p: Named) => (p.table !== undefined ? `table "${p.table}"` : `the table named by ${p.source}`);
/** The other constant sites: how many, the first three by name. */
const listOf = (p: { count: number; others: string[] }) =>
  p.count ? ` (${plural(p.count, "other site")}: ${p.others.slice(0, 3).join(", ")}${p.count > 3 ? ", …" : ""})` : "";

export const constantPartitionKey = defineTsRule({
  code: "ts/constant-partition-key",
  severity: "warning",
  family: "TypeScript code",
  traits: { load: true },
  docs: {
    summary: "every entity written at the call gets the same partition key (judged per table across the project, one finding per table)",
    why: "The table is then one partition on one server: its throughput is one partition's.",
    fix: "composite with another property of the entity that identifies it (never a clock, a status or an amount)",
  },
  messages: {
    unjudged: (p: Constant & { why: "incomplete" | "unknownTable" }) =>
      `${where(p)}, so they all share one partition on one server${targetText(p)}; ${
        p.why === "incomplete" ? "not every file of the project was read in time" : "its table is not known statically"
      }, so whether other writes spread the table is not judged. Build the key from a property that varies.`,
    sameAsElsewhere: (p: Constant & { at: string }) => `${where(p)}, as at ${p.at}, where its constant partition key is reported.`,
    reportedAt: (p: Constant & Named & { at: string }) =>
      `${where(p)}, like every write to ${labelOf(p)}: its constant partition key is reported at ${p.at}.`,
    unnamedTable: (p: Constant & Named & { count: number; others: string[] }) =>
      `${where(p)}, and no write to ${labelOf(p)} varies its partition key${listOf(p)}: these entities share one partition on one server${targetText(p)}. ` +
      "The table's name is not known statically, so other writes under the same name are not judged. Build the key from a property that varies.",
    wholeTable: (p: Constant & Named & { count: number; others: string[]; constants: string[] }) => {
      const whole =
        p.constants.length <= 1
          ? "the whole table is one partition on one server"
          : `the whole table has ${p.constants.length} partitions (${p.constants
              .slice(0, 4)
              .map((c) => `"${c}"`)
              .join(", ")}${p.constants.length > 4 ? ", …" : ""}), each on one server`;
      return `${where(p)}, and no write to ${labelOf(p)} varies its partition key${listOf(p)}: ${whole}${targetText(p)}. Build the key from a property that varies.`;
    },
  },

  check(ctx) {
    const t = ctx.profile.partitionTarget;
    for (const key of ctx.keys) {
      if (key.which !== "partitionKey" || !key.write || key.write.method === "delete") continue;
      const value = constantText(key.parts);
      if (value === undefined) continue;
      const all = ctx.tableSites(tableKeyOf(key.write));
      const id = keyIdentity(key);
      const here = locationOf(key.at);
      const mine = (s: TableSite) => s.file === ctx.sf.fileName && s.at.line === here.line && s.at.character === here.character;
      // One key reached by several calls is reported once: where the key is written, else at the first call.
      const reporter = reporterOf((all?.sites ?? []).filter((s) => s.key === id));
      if (reporter && !mine(reporter)) continue;
      const repeats = (all?.sites ?? []).filter((s) => s.key === id && !mine(s));
      const fix = key.declared ? undefined : compositeFix(ctx, key, value);
      const fixes = fix ? [fix] : undefined;
      const constant: Constant = { value, declared: !!key.declared, ...(t ? { target: { value: t.value, unit: t.unit } } : {}) };
      const show = (s: TableSite) => siteName(ctx, s);
      // A table named by a literal is judged whole; one whose name comes from elsewhere (the environment) is grouped
      // by that source, with nothing said about the whole table: another client may write it under the same name.
      const named = key.write.table;
      const source = named === undefined ? key.write.tableSource : undefined;
      const naming: Named | undefined = named !== undefined ? { table: named } : source ? { source: source.shown } : undefined;
      // A constant partition key with a constant row key writes one row (a settings row, the current round): a row of
      // its own, not a table in one partition.
      // Several constant row keys under the same constant partition key are several rows of one partition, not one row.
      const rowKey = key.write.rowKey && constantText(ctx.decomposer.parts(key.write.rowKey, 0, key.write.rowKeyEnv));
      const oneRow = oneRowOf(all?.sites ?? []);
      if (rowKey !== undefined && rowKeysOf(all?.sites ?? [], value).size <= 1) continue;
      // A row key its declared type closes to a few literals (a counter per kind): a fixed set of rows, when every
      // write under this partition key writes one of them.
      const closed = rowKey === undefined ? closedRowKeys(key.write, ctx.decomposer) : undefined;
      if ((closed || rowKey !== undefined) && fixedRowsOnly(all?.sites ?? [], value, closed)) continue;
      // A constant beside keys that vary through the same client is a side partition of that table (index or meta rows):
      // the table is not one partition, whatever its name.
      if (sameClientVaries(ctx.keys, key, ctx.checker)) continue;
      if (!all || !naming || all.incomplete) {
        // The table is not known (or not every file was read): what holds is what this site writes, nothing table-wide.
        // One problem, one warning: the other writes of the same constant to tables not known statically point at it.
        const same = naming || !all ? [] : all.sites.filter((s) => s.constant === value && !s.side && !oneRow(s));
        const first = firstReporters(same)[0];
        if (first && !mine(first)) {
          ctx.report(
            span(ctx.sf, key.at),
            "sameAsElsewhere",
            { ...constant, at: show(first) },
            { fixes, severity: "hint", related: related([first], `the partition key "${value}" is reported here`) },
          );
          continue;
        }
        const elsewhere = same.filter((s) => !mine(s) && !repeats.includes(s));
        ctx.report(
          span(ctx.sf, key.at),
          "unjudged",
          { ...constant, why: all?.incomplete ? "incomplete" : "unknownTable" },
          {
            fixes,
            related: related(
              [...repeats, ...elsewhere],
              `the same partition key "${value}", written through this key or to a table not known statically`,
            ),
          },
        );
        continue;
      }
      const varying = all.sites.filter((s) => !s.unknown && s.constant === undefined);
      // Other writes of the table spread their keys: the constant is a side partition (index or meta rows), not a
      // table in one partition; nothing to say.
      if (varying.length) continue;
      // Every write of the table that can be seen uses a constant: one problem for the table, one warning.
      const constantSites = all.sites.filter((s) => s.constant !== undefined && !oneRow(s));
      const primary = firstReporters(constantSites)[0];
      if (primary && !mine(primary)) {
        ctx.report(
          span(ctx.sf, key.at),
          "reportedAt",
          { ...constant, ...naming, at: show(primary) },
          { fixes, severity: "hint", related: related([primary], `${labelOf(naming)} is reported here`) },
        );
        continue;
      }
      const others = constantSites.filter((s) => !mine(s));
      const relatedSites = related(others, `another write to ${labelOf(naming)} with a constant partition key`);
      // Three are named: the message says how many there are.
      const shown = others.slice(0, 3).map(show);
      if (source) {
        ctx.report(
          span(ctx.sf, key.at),
          "unnamedTable",
          { ...constant, ...naming, count: others.length, others: shown },
          { fixes, related: relatedSites },
        );
        continue;
      }
      const constants = [...new Set(constantSites.map((s) => s.constant!))];
      ctx.report(
        span(ctx.sf, key.at),
        "wholeTable",
        { ...constant, ...naming, count: others.length, others: shown, constants },
        { fixes, related: relatedSites },
      );
    }
  },
});

/** The constant row keys written under the constant partition key `value`. */
function rowKeysOf(sites: readonly TableSite[], value: string): Set<string> {
  return new Set(sites.filter((s) => s.constant === value && s.rowKey !== undefined).map((s) => s.rowKey!));
}

/** A site that writes one row of its own (constant keys, no other constant row key under its partition key), or one of a fixed set. */
function oneRowOf(sites: readonly TableSite[]): (s: TableSite) => boolean {
  return (s) =>
    (!!s.oneRow && rowKeysOf(sites, s.constant!).size <= 1) || ((!!s.oneRow || !!s.fixedRows) && fixedRowsOnly(sites, s.constant!));
}

/**
 * True when the partition `value` holds a fixed set of rows: a declared type closes some of its row keys to literals
 * (`closed`, or a site's), and every write under it writes one of those literals.
 */
function fixedRowsOnly(sites: readonly TableSite[], value: string, closed?: readonly string[]): boolean {
  const under = sites.filter((s) => s.constant === value);
  const allowed = new Set([...(closed ?? []), ...under.flatMap((s) => s.rowKeys ?? [])]);
  return (
    allowed.size > 0 && under.every((s) => (s.fixedRows && s.rowKeys) || (s.oneRow && s.rowKey !== undefined && allowed.has(s.rowKey)))
  );
}

/** Of the sites of one key, the one that reports it: the key's own expression, else the first call (path, then line). */
function reporterOf(sites: TableSite[]): TableSite | undefined {
  return [...sites].sort((a, b) => Number(!!b.atKey) - Number(!!a.atKey) || byPlace(a, b))[0];
}

/** Of sites (several per key when a helper's key is written by many calls), the one reporter per key, in the order findings go to. */
function firstReporters(sites: TableSite[]): TableSite[] {
  const groups = new Map<string, TableSite[]>();
  for (const s of sites) {
    const id = s.key ?? `${s.file}:${s.line}`;
    groups.set(id, [...(groups.get(id) ?? []), s]);
  }
  return [...groups.values()].map((g) => reporterOf(g)!).sort(primaryOrder);
}

/** The warning goes to a write that creates entities (an update only rewrites them), then to the first in the project. */
function primaryOrder(a: TableSite, b: TableSite): number {
  return Number(b.creates) - Number(a.creates) || byPlace(a, b);
}

function byPlace(a: TableSite, b: TableSite): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.at.line - b.at.line || a.at.character - b.at.character;
}

/** A site as a message names it: `line 12` in this file, else its path from this file's folder. */
function siteName(ctx: TsRuleContext, s: TableSite): string {
  if (s.file === ctx.sf.fileName) return `line ${s.at.line + 1}`;
  return `${path.relative(path.dirname(ctx.sf.fileName), s.file).split(path.sep).join("/")}:${s.at.line + 1}`;
}

function related(sites: TableSite[], message: string): RelatedLocation[] | undefined {
  if (!sites.length) return undefined;
  return [...sites]
    .sort(byPlace)
    .slice(0, MAX_RELATED)
    .map((s) => ({ file: s.file, line: s.at.line, character: s.at.character, message }));
}

/** A type that admits only literal strings (`"VISITOR"`, `"a" | "b"`), not any string. */
function isLiteralOnly(t: ts.Type): boolean {
  const members = t.isUnion() ? t.types : [t];
  return members.every((m) => !!(m.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
}

/**
 * Makes the key composite with another property of the entity: one that identifies it (an id, an owner),
 * never a literal, a clock reading, a value of a few literals (a status) or an amount (key-material.ts).
 */
function compositeFix(ctx: TsRuleContext, key: Key, value: string): Fix | undefined {
  if (key.at !== key.expr) return undefined;
  // A key the code's own type pins to literals (`partitionKey: "VISITOR"` in its entity interface): a composite would not type-check.
  const expected = ctx.checker.getContextualType(key.expr);
  if (expected && !(expected.flags & ts.TypeFlags.Any) && isLiteralOnly(expected)) return undefined;
  const best = keyMaterial(ctx, key, { rowKey: false, pure: false })[0];
  if (!best) return undefined;
  const part = best.kind === "number" ? `String(${text(ctx.sf, best.expr)}).padStart(10, "0")` : text(ctx.sf, best.expr);
  // The separator the design rules ask for: one that sorts below every character of the part (`,`), never `_`.
  const sep = separatorBelow(0x30, ctx.profile);
  if (!sep) return undefined;
  return {
    title: `Make the partition key composite with ${best.name}`,
    edits: [{ ...span(ctx.sf, key.at), newText: `${JSON.stringify(value + sep)} + ${part}` }],
    preferred: true,
  };
}
