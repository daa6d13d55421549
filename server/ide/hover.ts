/**
 * Hovers: a table's monthly cost per service (cost.ts); a property's type
 * and distinct values; a key's example value, order, partitions (with how
 * time buckets are counted), temporal load, longest length and size against
 * the service's limit; key functions' docs.
 */
import {
  Expr,
  forEachPart,
  KeyFunction,
  PropertyInfo,
  maxKeyChars,
  renderKey,
  sampleValues,
  formatCount,
  keyBytes,
  TdlAnalysis,
  tableAt,
  TableModel,
  refAt,
  analyzeKey,
  tableFacts,
  queryMarkdown,
} from "@core";
import { termsUsed } from "@core/text/terms";
import { orderLine, padUse, partitionLines } from "./key-facts";
import { costHover } from "./cost";

export interface HoverResult {
  markdown: string;
  start: number;
  end: number;
}

export const FUNCTION_DOCS: Record<KeyFunction, string> = {
  pad: "`pad(P, width)` — decimal digits left-padded with 0 to `width`, so that lexical order is numeric order.",
  hash: "`hash(P, n)` — the first `n` lowercase hex characters of MD5(P as UTF-8): spreads sequential keys, at the cost of range reads.",
  bucket: "`bucket(P, n)` — (first 8 hex of MD5(P) as uint32) mod `n`, padded to the width of n−1: one of `n` buckets.",
  reverse: "`reverse(P)` — (maximum of P's range) − value, padded to that maximum's width: newest first.",
  date: '`date(P, "yyyyMMdd")` — a datetime in fixed-width tokens yyyy MM dd HH mm ss fff.',
  lower: "`lower(P)` — the text in lowercase.",
  upper: "`upper(P)` — the text in uppercase.",
};

/**
 * The hover at `offset`, ending with the terms its text and the findings
 * there use, each explained and linked to its heading of docs/language.md
 * (`docs`: that file's URI, which the LSP layer knows; no link without it).
 */
export function hover(analysis: TdlAnalysis, offset: number, docs?: string): HoverResult | undefined {
  const h = designHover(analysis, offset);
  const here = analysis.findings.filter((f) => offset >= f.start && offset <= f.end);
  const terms = termsUsed([h?.markdown ?? "", ...here.map((f) => f.message)].join("\n"));
  if (!terms.length) return h;
  const section = ["---", ...terms.map((t) => `- **${t.term}** — ${t.means}${docs ? ` ([docs](${docs}#${t.anchor}))` : ""}`)].join("\n");
  if (h) return { ...h, markdown: `${h.markdown}\n\n${section}` };
  const at = here.reduce((a, f) => (f.end - f.start < a.end - a.start ? f : a));
  return { markdown: section, start: at.start, end: at.end };
}

function designHover(analysis: TdlAnalysis, offset: number): HoverResult | undefined {
  const tm = tableAt(analysis, offset);
  if (!tm) return undefined;
  const name = tm.table.name;
  // The table's name: what its declared load costs a month.
  if (name.text && offset >= tm.base + name.start && offset <= tm.base + name.end)
    return { markdown: costHover(analysis, tm), start: tm.base + name.start, end: tm.base + name.end };
  const h = tableHover(analysis, tm, offset - tm.base);
  return h && { ...h, start: h.start + tm.base, end: h.end + tm.base };
}

/** Hover inside one table; `offset` and the result are relative to the table's chunk. */
function tableHover(analysis: TdlAnalysis, tm: TableModel, offset: number): HoverResult | undefined {
  if (tm.checked) {
    const facts = tableFacts(tm.table, tm.props);
    const qa = facts.queries.find((q) => offset >= q.query.name.start && offset <= q.query.name.end);
    const c = qa?.classification;
    if (qa && c) {
      // Figures left unknown by time buckets of an unknown number: say which estimate would give them.
      const u = facts.est.pk?.unknownBuckets;
      const note =
        u && (c.partitions === null || c.scanned === null)
          ? `\n- the number of ${u.adjective} buckets of \`${u.prop}\` is unknown: declare \`retention\` (such as \`retention 90d\`), or \`rows\` and an insert rate`
          : "";
      return { markdown: queryMarkdown(qa.query.name.text, c) + note, start: qa.query.name.start, end: qa.query.name.end };
    }
  }
  const ref = refAt(tm.refs, offset);
  if (ref) {
    const info = tm.props.get(ref.name);
    if (!info) return undefined;
    return { markdown: propertyHover(info, tm), start: ref.start, end: ref.end };
  }
  const t = tm.table;
  for (const key of [t.partitionKey, t.rowKey]) {
    if (!key) continue;
    const fn = functionAt(key.expr, offset);
    if (fn) return fn;
    if (offset >= key.start && offset <= key.end) {
      return { markdown: keyHover(key.which, key.expr, tm, analysis), start: key.keyword.start, end: key.end };
    }
  }
  for (const ix of t.indexes) {
    const fn = functionAt(ix.expr, offset);
    if (fn) return fn;
    if (offset >= ix.start && offset <= ix.end) {
      return { markdown: keyHover(`index ${ix.name.text} rowKey`, ix.expr, tm, analysis), start: ix.start, end: ix.end };
    }
  }
  return undefined;
}

function functionAt(expr: Expr, offset: number): HoverResult | undefined {
  let found: HoverResult | undefined;
  forEachPart(expr, (part) => {
    if (part.kind === "call" && part.fnName && offset >= part.fn.start && offset <= part.fn.end) {
      found = { markdown: FUNCTION_DOCS[part.fnName], start: part.fn.start, end: part.fn.end };
    }
  });
  return found;
}

function propertyHover(info: PropertyInfo, tm: TableModel): string {
  const text = tm.text;
  const decl = info.decl;
  const lines = [`**${info.name}**: \`${text.slice(decl.type.start, decl.end)}\``, ""];
  const distinct =
    info.distinct !== undefined
      ? `${formatCount(info.distinct)}${info.unique ? " (unique: one per entity)" : ""}`
      : "unknown — treated as high; declare `distinct N` to estimate partitions";
  lines.push(`- distinct values: ${distinct}`);
  if (info.hot !== undefined) lines.push(`- hottest value: ${Math.round(info.hot * 100)}% of rows and traffic`);
  if (info.increasing) lines.push("- increasing: each new entity gets a larger value than all before");
  if (info.decreasing) lines.push("- decreasing: each new entity gets a smaller value than all before");
  lines.push(`- rendered in keys: ${Number.isFinite(info.maxChars) ? `up to ${info.maxChars} characters` : "unbounded length"}`);
  if (info.type === "int" || info.type === "int64") {
    const use = padUse(tm.table, info.name);
    const pad = `\`pad(${info.name}, ${Math.max(String(info.max).length, String(info.min).length)})\``;
    lines.push(
      use === "padded"
        ? `- range ${info.min}..${info.max}: every key pads it, so key order is numeric order`
        : `- range ${info.min}..${info.max}: numbers sort lexically in keys ("111" < "2"); ${use === "bare" ? `wrap it in ${pad} where a key uses it as it is` : `in a key, wrap it in ${pad}`}`,
    );
  }
  if (info.type === "string" && !decl.modifiers.some((m) => m.kind === "charset")) {
    lines.push('- alphabet unknown: declare a `charset` (such as `charset "a-z0-9"`) so separator and character rules can check it');
  }
  return lines.join("\n");
}

function keyHover(title: string, expr: Expr, tm: TableModel, analysis: TdlAnalysis): string {
  const example = renderKey(expr, { props: tm.props, values: sampleValues(tm.props) });
  const chars = maxKeyChars(expr, tm.props);
  const profile = analysis.profile;
  const limit = title === "partitionKey" ? profile.partitionKeyMaxBytes : profile.rowKeyMaxBytes;
  const bytes = keyBytes(expr, tm.props, profile);
  const text = tm.text.slice(expr.start, expr.end);
  const lines = [`**${title}** = \`${text}\``, "", `- example: \`${example}\``];
  // The table's analysed keys when it was checked; else this one key alone (cheap whatever the table's size).
  const est = tm.checked ? tableFacts(tm.table, tm.props).est : undefined;
  const info = (est && [est.pk, est.rk, ...est.indexKeys].find((k) => k?.expr === expr)) || analyzeKey(expr, tm.props);
  lines.push(...orderLine(info, tm.text));
  if (est && info === est.pk) lines.push(...partitionLines(est, tableFacts(tm.table, tm.props).load, profile));
  lines.push(
    Number.isFinite(chars)
      ? `- at most ${chars} characters (${formatCount(bytes)} bytes of the ${formatCount(limit)} ${profile.label} allows)`
      : `- unbounded length: a part has no maximum (declare \`string(N)\`); ${profile.label} allows ${formatCount(limit)} bytes`,
  );
  return lines.join("\n");
}
