/**
 * The analysis core: the one entry point that the language server, the IDE
 * features, the TypeScript analysis, the CLI, the table runtime and the
 * webview import. Pure: text in, findings, models and classifications out —
 * nothing here imports VS Code, LSP, Node I/O or the network
 * (test/unit/layers.test.ts keeps it so).
 */

// Designs: analysis, findings, options, positions.
export { analyzeTdl, tableAt, TdlAnalyzer } from "./analysis/analyze";
export type { TdlAnalysis, TableModel, RuleFailure } from "./analysis/analyze";
export { queryInfos, queryMarkdown, roundEstimate } from "./analysis/query-info";
export type { QueryInfo } from "./analysis/query-info";
export type { Finding, Fix, Severity, TextEdit } from "./findings";
export { resolveOptions } from "./options";
export type { AnalysisOptions, OptionInput, ResolvedOptions } from "./options";
export { LineIndex } from "./positions";
export type { Position, Range } from "./positions";

// The language: tokens, tree, formatting.
export { lex, T } from "./tdl/lexer";
export type { Token } from "./tdl/lexer";
export { forEachPart, isNumberLit, isStringLit, KEY_FUNCTIONS, MEMBER_KEYWORDS, MODIFIERS } from "./tdl/ast";
export type { Cond, Expr, KeyFunction, Member, Part, Table, WriteOp } from "./tdl/ast";
export { formatTdl } from "./tdl/formatter";
export { hasLineBreak } from "./tdl/line-ends";
export { formatCount, formatDuration, formatPercent } from "./tdl/numbers";

// OData filters and query classes.
export { parseFilter, MAX_FILTER_DEPTH } from "./odata/parser";
export { stringLiteral } from "./odata/print";
export { entityLimitProblems, entitySize, keyTextBytes } from "./model/entity-limits";
export type { LimitProblem, TypedEntity } from "./model/entity-limits";
export type { FilterExpr, FilterParse, FilterError, Literal } from "./odata/parser";
export { classifyFilter, keyConstraint, normalize } from "./odata/classify";
export type { FilterContext, KeyConstraint } from "./odata/classify";
export { badge, summary } from "./odata/classes";
export type { Classification, QueryClass } from "./odata/classes";

// The services a design targets, and the options of an analysis.
export { isServiceName, profileFor, SERVICE_NAMES, SERVICES } from "./services";
export type { ServiceLimits, ServiceName, ServiceProfile } from "./services";

// The model of a table: properties, keys, facts.
export type { PropertyInfo } from "./model/properties";
export { dateTokenTexts, maxKeyChars, renderKey, sampleValues } from "./model/keys";
export type { Scalar } from "./model/keys";
export { analyzeKey } from "./model/key-parts";
export type { KeyInfo, KeyPartInfo } from "./model/key-parts";
export type { TableEstimates } from "./model/estimates";
export type { LoadEstimate } from "./model/load";
export type { RetainedSpan, TimeBucket } from "./model/time-buckets";
export { keyBytes } from "./model/key-bytes";
export { tableFacts } from "./model/facts";
export { filterContext } from "./model/queries";
export type { QueryAnalysis } from "./model/queries";
export { refAt } from "./model/references";
export type { PropertyRef } from "./model/references";
export { separatorBreaksOrder } from "./model/where";

// Rules: the records of both languages share one shape; the user's levels and ignore comments apply to both.
export { RULES } from "./rules";
export { FAMILIES, reporterFor } from "./rules/rule";
export type { Family, Report, RuleDocs, RuleRecord, Span } from "./rules/rule";
export { ANALYSIS_RECORDS } from "./analysis/records";
export { attempt, internalFinding, stackOf } from "./analysis/guard";
export type { Caught } from "./analysis/guard";
export { applyUserSettings, ignoredOn } from "./analysis/settings";
export { RULE_LEVELS } from "./options";
export type { RuleLevel } from "./options";

// Fix helpers shared with the TypeScript rules.
export { padWidth, separatorBelow } from "./rules/fix-helpers";
