/**
 * The design against live data: a sample of the live table of the same
 * name, checked against what the design says its keys look like — keys of
 * another shape altogether, numbers of another length where the design
 * pads, forbidden characters, keys longer than the design allows,
 * partitions far larger than estimated. Pure: design text and sampled rows
 * in, findings (design offsets) and how many keys matched out.
 */
import {
  AnalysisOptions,
  analyzeTdl,
  TableModel,
  Finding,
  Expr,
  isNumberLit,
  isStringLit,
  Part,
  PropertyInfo,
  maxKeyChars,
  tableFacts,
} from "@core";
import { EntityRow } from "@protocol/entities";
import { plural } from "@core/text/words";

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface Pattern {
  regex: RegExp;
  /** For each capture group: the pad width it should have, when it is a padded number. */
  pads: Array<{ width: number; name: string } | undefined>;
}

/** A loose pattern of a key: literals exact, numbers as digits of any length, each property as its type renders, strings lazily. */
function keyPattern(expr: Expr, props: Map<string, PropertyInfo>): Pattern {
  const pads: Pattern["pads"] = [];
  const src = expr.parts.map((p) => partPattern(p, pads, props)).join("");
  return { regex: new RegExp(`^${src}$`, "s"), pads };
}

/** What a property's value looks like in a key, by its type (a string, of unknown shape, matches anything). */
function valuePattern(info: PropertyInfo | undefined): string {
  if (info?.enumValues?.length) return `(${info.enumValues.map(escape).join("|")})`;
  switch (info?.type) {
    case "int":
    case "int64":
      return "(-?\\d+)";
    case "double":
      return "([-+.0-9Ee]+|NaN|-?Infinity)";
    case "bool":
      return "(true|false)";
    case "guid":
      return "([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})";
    case "datetime":
      return "([-.0-9:TZ+]+)";
    default:
      return "(.*?)";
  }
}

function partPattern(p: Part, pads: Pattern["pads"], props: Map<string, PropertyInfo>): string {
  if (p.kind === "string") return escape(p.value);
  if (p.kind === "ref") {
    pads.push(undefined);
    return valuePattern(props.get(p.name.text));
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
  /** Per key (PartitionKey, RowKey, each index's RowKey): how many sampled keys follow the design's expression. */
  keys: Array<{ label: string; sampled: number; matched: number }>;
}

/** Below this share of keys that follow the design, the sample is said not to fit. */
export const FIT_SHARE = 0.95;
/** Fewer sampled entities than this say too little to call the data a fit. */
export const FIT_MIN_SAMPLE = 50;

/** The sentence a user reads after a check: "fits" only when it does, on a sample large enough to say so. */
export function liveSummary(check: LiveCheck, table: string): string {
  const off = check.keys.filter((k) => k.sampled && k.matched / k.sampled < FIT_SHARE);
  const shapes = off.map((k) => `${k.matched} of ${k.sampled} ${k.label}s follow the design`).join("; ");
  const findings = check.findings.length ? `${plural(check.findings.length, "finding")} in the Problems panel` : "";
  if (off.length) return `Sampled ${check.sampled} entities of '${table}': ${shapes}${findings ? `; ${findings}` : ""}.`;
  if (findings) return `Sampled ${check.sampled} entities of '${table}': ${findings}.`;
  if (check.sampled < FIT_MIN_SAMPLE)
    return `Sampled ${check.sampled} entities of '${table}': their keys follow the design, but ${plural(check.sampled, "entity says", "entities say")} too little to call the table a fit.`;
  return `Sampled ${check.sampled} entities of '${table}': the live data fits the design.`;
}

/** Checks `rows` (a sample of the live table) against the design's table `tableName`. */
export function checkLiveData(designText: string, tableName: string, rows: EntityRow[], options: AnalysisOptions = {}): LiveCheck {
  const analysis = analyzeTdl(designText, options);
  const tm = analysis.tables.find((t) => t.table.name.text === tableName);
  if (!tm) return { findings: [], sampled: rows.length, keys: [] };
  const findings: Finding[] = [];
  const counts: LiveCheck["keys"] = [];
  const profile = analysis.profile;
  const keys: Array<{ label: string; expr: Expr; value: (r: EntityRow) => string }> = [];
  if (tm.table.partitionKey) keys.push({ label: "PartitionKey", expr: tm.table.partitionKey.expr, value: (r) => r.partitionKey });
  // Index rows share the partition; their RowKeys follow the index's expression, not the table's.
  const indexRows = tm.table.indexes.map((ix) => {
    const lit = ix.expr.parts[0]?.kind === "string" ? ix.expr.parts[0].value : undefined;
    return { ix, own: (rk: string) => !!lit && rk.startsWith(lit) };
  });
  const mainRow = (rk: string) => !indexRows.some((i) => i.own(rk));
  if (tm.table.rowKey) keys.push({ label: "RowKey", expr: tm.table.rowKey.expr, value: (r) => r.rowKey });
  for (const key of keys) {
    const values = rows.map(key.value).filter((v) => key.label !== "RowKey" || mainRow(v));
    findings.push(...checkKey(tm, key.label, key.expr, values, profile.forbiddenKeyChar, counts));
  }
  for (const { ix, own } of indexRows) {
    const values = rows.map((r) => r.rowKey).filter(own);
    if (values.length) findings.push(...checkKey(tm, `index ${ix.name.text} RowKey`, ix.expr, values, undefined, counts));
  }
  const skew = partitionSkew(tm, rows);
  if (skew) findings.push(skew);
  return { findings, sampled: rows.length, keys: counts };
}

function checkKey(
  tm: TableModel,
  label: string,
  expr: Expr,
  values: string[],
  forbidden: ((c: number) => boolean) | undefined,
  counts: LiveCheck["keys"],
): Finding[] {
  const out: Finding[] = [];
  const at = { start: tm.base + expr.start, end: tm.base + expr.end };
  const pattern = keyPattern(expr, tm.props);
  const badPads = new Map<string, string[]>();
  const offShape: string[] = [];
  for (const v of values) {
    const m = pattern.regex.exec(v);
    if (!m) {
      offShape.push(v);
      continue;
    }
    pattern.pads.forEach((pad, i) => {
      const got = m[i + 1];
      if (pad && got !== undefined && got.replace(/^-/, "").length !== pad.width) {
        const list = badPads.get(pad.name) ?? [];
        list.push(v);
        badPads.set(pad.name, list);
      }
    });
  }
  counts.push({ label, sampled: values.length, matched: values.length - offShape.length });
  if (offShape.length) {
    const share = offShape.length / values.length;
    out.push({
      code: "live/key-shape",
      severity: share > 1 - FIT_SHARE ? "warning" : "info",
      ...at,
      message:
        `${offShape.length} of ${values.length} sampled live ${label}s (${share < 0.01 ? "< 1" : Math.round(share * 100)} %) do not follow the design's expression, e.g. ` +
        `${offShape
          .slice(0, 3)
          .map((v) => `'${v.length > 60 ? `${v.slice(0, 60)}…` : v}'`)
          .join(", ")}: the design does not describe the data; check the key expression, or the table's name.`,
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
