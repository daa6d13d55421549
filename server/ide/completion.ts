/**
 * Completion by context: keywords where a member starts, types after `:`,
 * modifiers after a type, property names and key functions in keys, property
 * names and clauses in access patterns, names and operators in filters.
 */
import {
  KEY_FUNCTIONS,
  MEMBER_KEYWORDS,
  MODIFIERS,
  SERVICE_NAMES,
  lex,
  T,
  Token,
  hasLineBreak,
  TdlAnalysis,
  tableAt,
  type PropertyInfo,
} from "@core";
import { formatCount } from "@core/text/words";
import { EDM_OF_TYPE } from "@protocol/entities";
import { filterSuggestions } from "@protocol/filter-words";
import {
  COMPARISON_DOCS,
  FUNCTION_DOCS,
  functionSnippet,
  MEMBER_DOCS,
  MODIFIER_DOCS,
  PROPERTY_DOC,
  PROPERTY_SNIPPET,
  SERVICE_DOC,
  TABLE_DOC,
  TABLE_SNIPPET,
  TYPE_DOCS,
} from "./completion-docs";

export type CompletionKind = "keyword" | "type" | "property" | "function" | "modifier" | "value" | "operator";

export interface Completion {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: string;
  /** Snippet text (LSP snippet syntax) when it differs from the label. */
  snippet?: string;
}

const kw = (labels: readonly string[], detail?: string): Completion[] => labels.map((label) => ({ label, kind: "keyword", detail }));

/** `service` and `table` where a file's top level continues (the table as a skeleton to fill in). */
function topLevel(service: boolean): Completion[] {
  const table: Completion = {
    label: "table",
    kind: "keyword",
    detail: "a table (skeleton)",
    documentation: TABLE_DOC,
    snippet: TABLE_SNIPPET,
  };
  return service ? [{ label: "service", kind: "keyword", documentation: SERVICE_DOC }, table] : [table];
}

/** How much of a design completion may read, and where it says what it did not. */
export interface CompletionBudget {
  /** Characters of the table around the caret (its chunk of the design) that completion lexes. */
  maxChars: number;
  skipped(reason: string): void;
}

/**
 * What fits at `offset`. Only the caret's table is lexed (the chunk of the
 * design the analysis cut there: the same tokens a lexing of the whole
 * text gives there), so a large design costs no more than its table; a
 * table larger than `budget.maxChars` gets no completion, and says so.
 */
export function complete(analysis: TdlAnalysis, offset: number, budget?: CompletionBudget): Completion[] {
  const text = analysis.text;
  const chunk = chunkAround(analysis, offset);
  if (budget && chunk.end - chunk.start > budget.maxChars) {
    budget.skipped(
      `no completion in a table of ${formatCount(chunk.end - chunk.start)} characters: completion reads tables of up to ${formatCount(budget.maxChars)}`,
    );
    return [];
  }
  const tokens = tokensOf(text, chunk);
  // A string under the caret may be a filter; a word being typed at the caret is the prefix, not context.
  const under = tokens.find((t) => t.kind === T.String && t.start < offset && (offset < t.end || (offset === t.end && t.error)));
  if (under) return filterCompletions(analysis, offset);
  const before = tokens.filter((t) => t.kind !== T.EOF && t.end <= offset && !(t.kind === T.Ident && t.end === offset));
  const prev = before[before.length - 1];
  const tm = tableAt(analysis, offset);
  const lineStart = !prev || hasLineBreak(text, prev.end, offset);

  if (!tm || (prev && prev.kind === T.RBrace && prev.end <= offset && tm.base + tm.table.end <= offset)) {
    if (prev && prev.kind === T.Ident && prev.value === "service") return SERVICE_NAMES.map((s) => ({ label: s, kind: "value" as const }));
    return topLevel(!analysis.service && !analysis.tables.length);
  }
  if (!prev || prev.kind === T.LBrace || lineStart) return memberStarts();

  // The tokens of the current member: back to the last one that starts a line inside the table.
  let m = before.length - 1;
  while (m > 0 && !before[m].lineStart && before[m].start > tm.base + tm.table.open) m--;
  const member = before.slice(m);
  const head = member[0];
  const props = [...tm.props.values()];
  const propertyItems = (): Completion[] =>
    props.map((p) => ({ label: p.name, kind: "property", detail: tm.text.slice(p.decl.type.start, p.decl.end) }));

  if (member[1]?.kind === T.Colon) {
    if (prev.kind === T.Colon)
      return Object.entries(TYPE_DOCS).map(([label, t]) => ({ label, kind: "type", snippet: t.snippet, documentation: t.doc }));
    if (prev.kind === T.LParen || prev.kind === T.Comma || prev.kind === T.DotDot) return [];
    return MODIFIERS.map((label) => ({
      label,
      kind: "modifier",
      snippet: MODIFIER_DOCS[label].snippet,
      documentation: MODIFIER_DOCS[label].doc,
    }));
  }
  const word = head.kind === T.Ident ? head.value : "";
  if (word === "partitionKey" || word === "rowKey" || word === "index") {
    if (prev.kind === T.Equals || prev.kind === T.Plus || (prev.kind === T.LParen && isCallParen(before))) {
      return [...propertyItems(), ...functionItems(props)];
    }
    if (word === "index" && prev.kind === T.Ident && member.length === 2) return kw(["rowKey"]);
    return prev.kind === T.Comma || prev.kind === T.LParen ? [] : [{ label: "+", kind: "operator" }];
  }
  if (word === "query") return queryCompletions(member, prev, propertyItems);
  if (word === "transaction") {
    if (prev.kind === T.Ident && prev.value === "sharing") return propertyItems();
    if (prev.kind === T.Comma) return propertyItems();
    if (member.some((t) => t.value === "sharing")) return [];
    if (member.some((t) => t.value === "entities")) return prev.kind === T.Number ? kw(["sharing"]) : [];
    return member.length >= 2 ? kw(["entities"]) : [];
  }
  if (["insert", "upsert", "update", "merge", "delete"].includes(word)) {
    // `sets` names what an update changes: after it, and after each comma, the properties.
    if (member.some((t) => t.value === "sets")) return prev.kind === T.Comma || prev.value === "sets" ? propertyItems() : [];
    if (member.length < 2 || prev.kind === T.Slash) return [];
    return kw(word === "insert" || word === "delete" ? ["batch"] : ["batch", "sets"]);
  }
  return [];
}

/** The chunk of the design around `offset`: from the start of its table (or of the text) to the next table's. */
function chunkAround(analysis: TdlAnalysis, offset: number): { start: number; end: number } {
  const tables = analysis.tables;
  // The last table that starts at or before the offset (tables are in the order of their chunks).
  let lo = 0;
  let hi = tables.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tables[mid].base <= offset) lo = mid + 1;
    else hi = mid;
  }
  return { start: lo > 0 ? tables[lo - 1].base : 0, end: lo < tables.length ? tables[lo].base : analysis.text.length };
}

/** The tokens of `chunk`, at their offsets in the whole text. */
function tokensOf(text: string, chunk: { start: number; end: number }): Token[] {
  if (chunk.start === 0 && chunk.end === text.length) return lex(text).tokens;
  const shift = chunk.start;
  return lex(text.slice(chunk.start, chunk.end)).tokens.map((t) => ({
    ...t,
    start: t.start + shift,
    end: t.end + shift,
    offsets: undefined,
  }));
}

/** Where a member starts: a property (name and a choice of types), then every keyword, each with its snippet and docs. */
function memberStarts(): Completion[] {
  return [
    { label: "property", kind: "property", detail: "Name: type", snippet: PROPERTY_SNIPPET, documentation: PROPERTY_DOC },
    ...MEMBER_KEYWORDS.map((label) => ({
      label,
      kind: "keyword" as const,
      snippet: MEMBER_DOCS[label].snippet,
      documentation: MEMBER_DOCS[label].doc,
    })),
  ];
}

/** The key functions, each with its arguments: the table's properties of a type it takes. */
function functionItems(props: readonly PropertyInfo[]): Completion[] {
  return KEY_FUNCTIONS.map((label) => ({
    label,
    kind: "function" as const,
    snippet: functionSnippet(label, props),
    documentation: FUNCTION_DOCS[label],
  }));
}

/** `(` right after a key-function name opens its argument list. */
function isCallParen(before: Token[]): boolean {
  const fn = before[before.length - 2];
  return !!fn && fn.kind === T.Ident && (KEY_FUNCTIONS as readonly string[]).includes(fn.value);
}

const COMPARISONS = ["=", "<", "<=", ">", ">=", "between", "prefix"];

function queryCompletions(member: Token[], prev: Token, propertyItems: () => Completion[]): Completion[] {
  const words = new Set(member.filter((t) => t.kind === T.Ident).map((t) => t.value));
  const beforePrev = member[member.length - 2];
  const isWord = (t: Token | undefined, ...w: string[]) => !!t && t.kind === T.Ident && w.includes(t.value);
  if (isWord(prev, "where", "and", "select") || (prev.kind === T.Comma && words.has("select"))) return propertyItems();
  if (prev.kind === T.Ident && isWord(beforePrev, "where", "and"))
    return COMPARISONS.map((label) => ({ label, kind: "operator" as const, documentation: COMPARISON_DOCS[label] }));
  const afterNameOrRate = member.length === 2 || (prev.kind === T.Ident && beforePrev?.kind === T.Slash);
  if (afterNameOrRate && !words.has("where") && !words.has("filter")) return kw(["where", "filter"]);
  const valueEnd = prev.kind === T.Question || prev.kind === T.String || prev.kind === T.Number;
  if (words.has("where") && valueEnd && !words.has("select") && !words.has("returns")) return kw(["and", "select", "returns"]);
  if (words.has("filter") && prev.kind === T.String) return kw(["select", "returns"]);
  if (words.has("select") && prev.kind === T.Ident && !words.has("returns")) return kw(["returns"]);
  return [];
}

/**
 * Inside a `filter "…"` string: what fits next after the filter's text up
 * to the caret (protocol/filter-words.ts, as in the explorer's filter
 * editor): properties, then an operator, a literal of the property's type,
 * `and` / `or`.
 */
function filterCompletions(analysis: TdlAnalysis, offset: number): Completion[] {
  const tm = tableAt(analysis, offset);
  if (!tm) return [];
  const rel = offset - tm.base;
  const filter = tm.table.accesses.find((a) => a.kind === "query" && a.filter && rel > a.filter.start && rel <= a.filter.end);
  if (!filter || filter.kind !== "query" || !filter.filter) return [];
  const before = tm.text.slice(filter.filter.start + 1, rel);
  const props = [...tm.props.values()].map((p) => ({ name: p.name, type: EDM_OF_TYPE[p.type] }));
  return filterSuggestions(before, props).map((w) => ({
    label: w.label,
    kind: w.kind,
    detail: w.detail,
    documentation: w.doc,
    ...(w.snippet || w.insert !== w.label ? { snippet: w.insert } : {}),
  }));
}
