/**
 * The language service facade: everything the LSP layer and the CLI call.
 * Transport-free: text and offsets in, plain results out.
 */
export { analyzeTdl, tableAt, TdlAnalyzer } from "./analyze";
export type { TdlAnalysis, TableModel } from "./analyze";
export { complete } from "./completion";
export type { Completion, CompletionKind } from "./completion";
export { hover } from "./hover";
export type { HoverResult } from "./hover";
export { outline } from "./symbols";
export type { OutlineSymbol, SymbolKind } from "./symbols";
export { definition, references, prepareRename, rename } from "./navigation";
export { formatTdl } from "../tdl/formatter";
export { LineIndex } from "./positions";
export type { Position, Range } from "./positions";
export type { AnalysisOptions, Finding, Fix, Severity, TextEdit } from "./types";
export { queryInfos, queryMarkdown, roundEstimate } from "./query-info";
export type { QueryInfo } from "./query-info";
export { badge, summary } from "../odata/classes";
export type { Classification, QueryClass } from "../odata/classes";
export { parseFilter } from "../odata/parser";
export { classifyFilter } from "../odata/classify";
