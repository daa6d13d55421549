/**
 * Writes the inferred design as `.tdl` text: a header that says what was
 * read and how sure each inference is, the properties with their facts, the
 * keys and index rows, and the load estimates. Every line a reader may
 * doubt carries its evidence in a trailing comment.
 */
import { clip, formatCount, formatPercent, plural, type ServiceName } from "@core";
import type { IndexShape, KeyGrammar, KeyShape } from "./key-grammar";
import { histogramLines, PartitionStats } from "./partition-stats";
import type { PropertyFacts } from "./properties";
import { IDENTIFIER, tdlCount, tdlExpr, tdlSize, tdlString, tdlType } from "./tdl-text";

/** What was read, for the header. */
export interface SampleSummary {
  table: string;
  /** Where from (an endpoint without query), if known. */
  source?: string;
  readAt: Date;
  entities: number;
  /** Entities the property facts describe: the main rows when there are index rows. */
  mainRows: number;
  requests: number;
  elapsedMs: number;
  /** Every entity of the table was read. */
  wholeTable: boolean;
  /** The table's rows: counted (whole table) or estimated. */
  tableRows: number;
  /** How `tableRows` was obtained, in words. */
  rowsBasis: string;
  /** Properties left out of later reads to keep them small ($select), if any. */
  leftOut?: string[];
}

export interface DesignParts {
  summary: SampleSummary;
  service?: ServiceName;
  properties: PropertyFacts[];
  /** Notes of key-only properties, by name. */
  keyOnly: ReadonlyMap<string, string>;
  grammar: KeyGrammar;
  stats: PartitionStats;
  /** Milliseconds the inference took (added to the header). */
  inferMs?: number;
}

const pct = (part: number, whole: number) => (whole ? formatPercent(part / whole) : "–");

/** The design's text. */
export function writeDesign(p: DesignParts): string {
  const { summary: s, grammar: g } = p;
  const uses = keyUses(g);
  const lines: string[] = [...header(p), `service ${p.service ?? "azure-table"}`, "", `table ${s.table} {`];
  const shown = p.properties.filter((f) => IDENTIFIER.test(f.name));
  const width = Math.max(0, ...shown.map((f) => f.name.length)) + 1;
  for (const f of shown) {
    const decl = `  ${(f.name + ":").padEnd(width + 1)} ${tdlType(f, uses.pads.get(f.name), g.maxima.get(f.name))}${modifiers(f)
      .map((m) => " " + m)
      .join("")}`;
    lines.push(withNote(decl, propertyNote(f, s, p.keyOnly.get(f.name))));
  }
  const skipped = p.properties.filter((f) => !IDENTIFIER.test(f.name)).map((f) => f.name);
  if (skipped.length) lines.push(`  // left out: ${skipped.map((n) => tdlString(n)).join(", ")} (not names the language accepts)`);
  lines.push("");
  if (g.partitionKey)
    lines.push(withNote(`  partitionKey = ${tdlExpr(g.partitionKey.template)}`, coverage(g.partitionKey, s.entities, "keys")));
  if (g.rowKey)
    lines.push(
      withNote(
        `  rowKey       = ${tdlExpr(g.rowKey.template)}`,
        coverage(g.rowKey, s.entities, "rows") + (g.indexes.length ? " (main rows)" : ""),
      ),
    );
  for (const ix of g.indexes) lines.push(withNote(`  index ${ix.name} rowKey = ${tdlExpr(ix.template)}`, indexNote(ix, s.entities)));
  if (g.unexplained.partitionKey)
    lines.push(`  // ${formatCount(g.unexplained.partitionKey)} sampled PartitionKeys follow no inferred expression`);
  if (g.unexplained.rowKey) lines.push(`  // ${formatCount(g.unexplained.rowKey)} sampled RowKeys follow no inferred shape`);
  lines.push("");
  // A table holds its main rows; index rows are extra rows of the same entities.
  const mainRows = g.indexes.length && g.rowKey ? Math.round((s.tableRows * g.rowKey.rows.length) / Math.max(1, s.entities)) : s.tableRows;
  lines.push(
    withNote(
      `  rows ${s.wholeTable ? String(mainRows) : tdlCount(mainRows)}`,
      s.rowsBasis + (g.indexes.length ? "; main rows only, index rows come on top" : ""),
    ),
  );
  lines.push(
    withNote(
      `  entitySize ${tdlSize(p.stats.averageEntityBytes)}`,
      `average of the sample by Azure's formula: ${formatCount(Math.round(p.stats.averageEntityBytes))} bytes`,
    ),
  );
  lines.push("}");
  return lines.join("\n") + "\n";
}

function header(p: DesignParts): string[] {
  const s = p.summary;
  const st = p.stats;
  const out = [
    `// Inferred by tdl infer from the table ${s.table}${s.source ? ` at ${s.source}` : ""}, ${s.readAt.toISOString()}.`,
    `// Read: ${formatCount(s.entities)} entities${st.counted ? "" : ` in ${formatCount(st.partitions)} partitions`}, ${formatCount(s.requests)} requests, ${(s.elapsedMs / 1000).toFixed(1)} s${s.wholeTable ? "; that is the whole table" : `; the table holds ${st.counted ? "" : "≈ "}${formatCount(s.tableRows)}${st.counted ? ` in ${formatCount(st.partitions)} partitions` : ""} (${s.rowsBasis})`}.`,
  ];
  if (s.leftOut?.length) out.push(`// Left out of later reads to keep them small ($select): ${s.leftOut.join(", ")}.`);
  out.push(
    "// Confidence: types come from the service's Edm annotations (certain); key expressions",
    "// reproduce the sampled keys in the share shown beside each; distinct counts are exact",
    `// for the sample and ${s.wholeTable ? "so for the table" : "estimated for the table (GEE; high when few values are seen once)"};`,
    "// increasing/decreasing come from the rank correlation with the entities' Timestamps.",
    "// Access patterns (queries, writes, rates) cannot be read from data: add them.",
    "//",
    `// Entities per partition ${st.counted ? "in the table (counted)" : "in the sample"}:`,
    ...histogramLines(st.histogram).map((l) => `//   ${l}`),
    `// Hottest partitions ${st.counted ? "of the table" : "of the sample"}: ${st.hottest.map((h) => `${tdlString(clip(h.partitionKey, 40))} ${formatCount(h.entities)} (${formatPercent(h.share)})${!st.counted && h.exact !== undefined ? `, ${formatCount(h.exact)} in all` : ""}`).join("; ")}.`,
  );
  if (p.inferMs !== undefined) out.push(`// Inferred in ${Math.round(p.inferMs)} ms.`);
  return [...out, ""];
}

/** Pad widths by property (the widest), from every key and index. */
function keyUses(g: KeyGrammar): { pads: Map<string, number> } {
  const pads = new Map<string, number>();
  for (const shape of [g.partitionKey, g.rowKey, ...g.indexes]) {
    for (const a of shape?.template ?? []) if (a.kind === "pad") pads.set(a.prop, Math.max(a.width, pads.get(a.prop) ?? 0));
  }
  return { pads };
}

function modifiers(f: PropertyFacts): string[] {
  const out: string[] = [];
  if (f.unique) out.push("unique");
  else if (!f.enumValues && f.edm !== "Boolean") out.push(`distinct ${tdlCount(Math.max(1, f.distinctEstimate))}`);
  if (f.monotonic) out.push(f.monotonic.direction);
  if (f.hot !== undefined) out.push(`hot ${Math.max(1, Math.round(f.hot * 100))}%`);
  if (f.charset && !f.enumValues) out.push(`charset ${tdlString(f.charset)}`);
  return out;
}

function propertyNote(f: PropertyFacts, s: SampleSummary, keyOnly: string | undefined): string {
  const notes: string[] = [];
  if (keyOnly) notes.push(`key-only: ${keyOnly}`);
  if (f.present < s.mainRows && !keyOnly) notes.push(`in ${pct(f.present, s.mainRows)} of entities`);
  if (f.otherTypes.size) notes.push(`also ${[...f.otherTypes].map(([t, n]) => `${t} ×${formatCount(n)}`).join(", ")}`);
  if (f.fromPartitionCounts) notes.push(`distinct${f.hot !== undefined ? " and hot" : ""} from counting every partition (exact)`);
  else if (!f.enumValues && f.edm !== "Boolean" && !f.unique)
    notes.push(
      `${plural(f.distinct.distinct, "value")} seen${f.distinct.capped ? " (HyperLogLog past the first 200,000: ≈ 1.6 %)" : ""}, ${distinctConfidence(f, s)}`,
    );
  if (f.unique) notes.push(`all ${formatCount(f.present)} sampled values differ`);
  if (f.monotonic) notes.push(`ρ ${f.monotonic.rho.toFixed(2)} with Timestamp`);
  if (f.hot !== undefined && !f.fromPartitionCounts) {
    const top = f.distinct.top();
    if (top) notes.push(`${tdlString(clip(top.value, 40))} in ${pct(top.count, f.present)}`);
  }
  return notes.join("; ");
}

function distinctConfidence(f: PropertyFacts, s: SampleSummary): string {
  if (s.wholeTable && !f.distinct.capped) return "exact";
  const ones = f.distinct.singletons() / Math.max(1, f.present);
  return ones < 0.05 ? "high" : ones < 0.5 ? "medium" : "low";
}

function coverage(shape: KeyShape, total: number, what: string): string {
  return `matches ${formatCount(shape.rows.length)} of ${formatCount(total)} sampled ${what} (${pct(shape.rows.length, total)})`;
}

function indexNote(ix: IndexShape, total: number): string {
  return `index rows: ${formatCount(ix.rows.length)} of ${formatCount(total)} sampled rows (${pct(ix.rows.length, total)}) share partitions with the main rows`;
}

/** A line with a trailing comment. */
function withNote(line: string, note: string): string {
  return note ? `${line}  // ${note}` : line;
}
