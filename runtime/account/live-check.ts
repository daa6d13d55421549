/**
 * The design against live data: a sample of the live table of the same
 * name, checked against what the design says its keys look like — numbers
 * of another length where the design pads, forbidden characters, keys
 * longer than the design allows, partitions far larger than estimated.
 * Pure: design text and sampled rows in, findings (design offsets) out.
 */
import { AnalysisOptions, analyzeTdl, TableModel, Finding, Expr, isNumberLit, isStringLit, Part, maxKeyChars, tableFacts } from "@core";
import { EntityRow } from "@protocol/entities";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface Pattern {
  regex: RegExp;
  /** For each capture group: the pad width it should have, when it is a padded number. */
  pads: Array<{ width: number; name: string } | undefined>;
}

/** A loose pattern of a key: literals exact, numbers as digits of any length, other parts lazily. */
function keyPattern(expr: Expr): Pattern {
  const pads: Pattern["pads"] = [];
  const src = expr.parts.map((p) => partPattern(p, pads)).join("");
  return { regex: new RegExp(`^${src}$`, "s"), pads };
}

function partPattern(p: Part, pads: Pattern["pads"]): string {
  if (p.kind === "string") return escape(p.value);
  if (p.kind === "ref") {
    pads.push(undefined);
    return "(.*?)";
  }
  const inner = p.args[0] && "kind" in p.args[0] && p.args[0].kind === "expr" ? p.args[0] : undefined;
  const innerName = inner?.parts[0]?.kind === "ref" ? inner.parts[0].name.text : (p.fnName ?? "part");
  switch (p.fnName) {
    case "pad":
      pads.push(isNumberLit(p.args[1]) ? { width: p.args[1].value, name: innerName } : undefined);
      return "(-?\\d+)";
    case "hash":
      pads.push(undefined);
      return `([0-9a-f]{${isNumberLit(p.args[1]) ? p.args[1].value : 1},})`;
    case "bucket":
    case "reverse":
      pads.push(undefined);
      return "(\\d+)";
    case "date":
      pads.push(undefined);
      return `(.{${isStringLit(p.args[1]) ? p.args[1].value.replace(/yyyy/g, "0000").length : 1}})`;
    default:
      pads.push(undefined);
      return "(.*?)";
  }
}

export interface LiveCheck {
  findings: Finding[];
  sampled: number;
}

/** Checks `rows` (a sample of the live table) against the design's table `tableName`. */
export function checkLiveData(designText: string, tableName: string, rows: EntityRow[], options: AnalysisOptions = {}): LiveCheck {
  const analysis = analyzeTdl(designText, options);
  const tm = analysis.tables.find((t) => t.table.name.text === tableName);
  if (!tm) return { findings: [], sampled: rows.length };
  const findings: Finding[] = [];
  const profile = analysis.profile;
  const keys: Array<{ label: string; expr: Expr; value: (r: EntityRow) => string }> = [];
  if (tm.table.partitionKey) keys.push({ label: "PartitionKey", expr: tm.table.partitionKey.expr, value: (r) => r.partitionKey });
  if (tm.table.rowKey) keys.push({ label: "RowKey", expr: tm.table.rowKey.expr, value: (r) => r.rowKey });
  for (const key of keys) findings.push(...checkKey(tm, key.label, key.expr, rows.map(key.value), profile.forbiddenKeyChar));
  // Index rows share the partition; their RowKeys follow the index's expression.
  for (const ix of tm.table.indexes) {
    const lit = ix.expr.parts[0]?.kind === "string" ? ix.expr.parts[0].value : undefined;
    const own = rows.map((r) => r.rowKey).filter((rk) => lit && rk.startsWith(lit));
    if (own.length) findings.push(...checkKey(tm, `index ${ix.name.text} RowKey`, ix.expr, own, undefined));
  }
  const skew = partitionSkew(tm, rows);
  if (skew) findings.push(skew);
  return { findings, sampled: rows.length };
}

function checkKey(tm: TableModel, label: string, expr: Expr, values: string[], forbidden: ((c: number) => boolean) | undefined): Finding[] {
  const out: Finding[] = [];
  const at = { start: tm.base + expr.start, end: tm.base + expr.end };
  const pattern = keyPattern(expr);
  const badPads = new Map<string, string[]>();
  for (const v of values) {
    const m = pattern.regex.exec(v);
    if (!m) continue;
    pattern.pads.forEach((pad, i) => {
      const got = m[i + 1];
      if (pad && got !== undefined && got.replace(/^-/, "").length !== pad.width) {
        const list = badPads.get(pad.name) ?? [];
        list.push(v);
        badPads.set(pad.name, list);
      }
    });
  }
  // Live keys hold unpadded values for a matched pad only when a lexical order check would break: report per property.
  for (const [name, examples] of badPads) {
    out.push({
      code: "live/unpadded-number",
      severity: "warning",
      ...at,
      message:
        `${examples.length} of ${values.length} sampled live ${label}s hold '${name}' with another number of digits than the design's pad (e.g. '${examples[0]}'): ` +
        `data written without the padding sorts out of order. Rewrite those entities with the padded key.`,
    });
  }
  if (forbidden) {
    const bad = values.filter((v) => [...v].some((ch) => forbidden(ch.charCodeAt(0))));
    if (bad.length) {
      out.push({
        code: "live/invalid-character",
        severity: "error",
        ...at,
        message: `${bad.length} sampled live ${label}s contain a character keys may not hold (/ \\ # ? or a control character), e.g. '${bad[0]}'.`,
      });
    }
  }
  const max = maxKeyChars(expr, tm.props);
  const long = values.filter((v) => v.length > max);
  if (Number.isFinite(max) && long.length) {
    out.push({
      code: "live/too-long",
      severity: "warning",
      ...at,
      message: `${long.length} sampled live ${label}s are longer than the design allows (${max} characters), e.g. ${long[0].length} characters: '${long[0].slice(0, 60)}…'.`,
    });
  }
  return out;
}

/** The busiest partition of the sample against the design's estimated share. */
function partitionSkew(tm: TableModel, rows: EntityRow[]): Finding | undefined {
  if (rows.length < 50 || !tm.table.partitionKey) return undefined;
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.partitionKey, (counts.get(r.partitionKey) ?? 0) + 1);
  const [hotKey, hotCount] = [...counts].reduce((a, b) => (b[1] > a[1] ? b : a));
  const observed = hotCount / rows.length;
  const { est } = tableFacts(tm.table, tm.props);
  const expected = est.hotShare || (est.partitions ? 1 / est.partitions : 0);
  if (!expected || observed < 0.1 || observed < 10 * expected) return undefined;
  const expr = tm.table.partitionKey.expr;
  return {
    code: "live/partition-too-large",
    severity: "warning",
    start: tm.base + expr.start,
    end: tm.base + expr.end,
    message:
      `partition '${hotKey}' holds ${hotCount} of ${rows.length} sampled entities (${Math.round(observed * 100)}%); the design expects its largest partition to hold ≈ ${(expected * 100).toPrecision(2)}%. ` +
      `Check the design's distinct and hot estimates, or split the partition key.`,
  };
}
