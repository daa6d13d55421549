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
export { chunkStarts } from "./tdl/chunks";

// The words of messages: counts, plurals, shares, durations, sizes, dollars, clipped text, characters by their code.
export {
  agree,
  clip,
  clipVisible,
  codePointLabel,
  dollars,
  formatBytes,
  formatCount,
  formatDuration,
  formatPercent,
  formatQuantity,
  isInvisible,
  listNames,
  plural,
  showChar,
  showInvisibles,
} from "./text/words";

// OData filters and query classes.
export { parseFilter, MAX_FILTER_DEPTH } from "./odata/parser";
export { stringLiteral } from "./odata/print";
export { odataNames } from "./odata/lexer";
export { entityLimitProblems, entitySize, keyTextBytes } from "./model/entity-limits";
export type { LimitProblem, TypedEntity } from "./model/entity-limits";
export type { FilterExpr, FilterParse, FilterError, Literal } from "./odata/parser";
export { classifyFilter, keyConstraint, normalize } from "./odata/classify";
export type { FilterContext, KeyConstraint } from "./odata/classify";
export { badge, summary } from "./odata/classes";
export type { Classification, QueryClass } from "./odata/classes";

// The services a design targets, and the options of an analysis.
export { AZURE_FORBIDDEN_KEY_TEXT, azureForbiddenKeyChar, isServiceName, profileFor, SERVICE_NAMES, SERVICES } from "./services";
export type { ServiceLimits, ServiceName, ServiceProfile } from "./services";

// The model of a table: properties, keys, facts.
export type { PropertyInfo } from "./model/properties";
export { maxKeyChars, renderKey, sampleValues } from "./model/keys";
export { designFingerprint, sha256 } from "./model/fingerprint";
// The key functions' one definition: the inference matches keys with it, codegen emits its constants.
export {
  BUCKET_HEX_DIGITS,
  bucketOf,
  bucketWidth,
  DATE_TOKENS,
  dateFormatParts,
  dateTokenTexts,
  EPOCH_TICKS,
  formatDate,
  hash32,
  invertedTicks,
  isDateToken,
  MAX_DATE_MS,
  MAX_TICKS,
  md5hex,
  MIN_DATE_MS,
  padDigits,
  reverseInteger,
  TICKS_DIGITS,
  TICKS_PER_MS,
} from "./model/key-functions";
export type { DateToken } from "./model/key-functions";
export type { Scalar } from "./model/keys";
export { analyzeKey } from "./model/key-parts";
export type { KeyInfo, KeyPartInfo } from "./model/key-parts";
export type { TableEstimates } from "./model/estimates";
export type { LoadEstimate } from "./model/peak-load";
export type { RetainedSpan, TimeBucket } from "./model/time-buckets";
export { keyBytes, utf8Bytes } from "./model/key-bytes";
export { tableFacts } from "./model/facts";
export { filterContext } from "./model/queries";
export type { QueryAnalysis } from "./model/queries";
export { refAt } from "./model/references";
export type { PropertyRef } from "./model/references";
export { separatorBreaksOrder } from "./model/where";

// Rules: the records of both languages share one shape; the user's levels and ignore comments apply to both.
export { RULES, PARTITION_CODES } from "./rules";
export { codesWith, FAMILIES, reporterFor, ruleAnchor, said } from "./rules/rule";
export type { Family, MessageData, Messages, Report, ReportArgs, ReportMore, RuleDocs, RuleRecord, RuleTraits, Span } from "./rules/rule";
export { ANALYSIS_RECORDS, BROKEN_CODES, CORE_RECORDS } from "./analysis/records";
export { analysisFailed, attempt, internalFinding, rulesFailed } from "./analysis/guard";
export { stackOf } from "./errors";
export type { Caught } from "./analysis/guard";
export { applyUserSettings, ignoredOn } from "./analysis/settings";
export { RULE_LEVELS } from "./options";
export type { RuleLevel } from "./options";

// Fix helpers shared with the TypeScript rules.
export { padWidth, separatorBelow } from "./rules/fix-helpers";

// What a design costs a month, per service profile.
export { designCost, HOURS_PER_MONTH } from "./cost/estimate";
export { planMigration } from "./migrate/plan";
export type { MigrationPlan, PlanOptions, PlannedRow, TablePlan } from "./migrate/plan";
export { mapTables, exprProps } from "./migrate/mapping";
export type { TableMapping, Target, TargetRow, ComponentSource } from "./migrate/mapping";
export { rekey, scalarOf } from "./migrate/rekey";
export type { NewRow, Rekeyed } from "./migrate/rekey";
export { readKey, recoverable } from "./migrate/key-read";
export type { CostLine, ServiceEstimate, TableCost, CostOptions } from "./cost/estimate";
export { priceOf, REDUNDANCIES, unitSize } from "./cost/prices";
export type { Meter, PriceSheet, Redundancy } from "./cost/prices";
export { SNAPSHOT } from "./cost/snapshot";
export { SECONDS_PER_MONTH } from "./cost/usage";

// Fixes checked before they are offered.
export { applyCheckedFixes, MAX_FIX_ROUNDS, nextFixes } from "./fixes/apply";
export type { CheckedFixRun, FixStep, LeftFinding } from "./fixes/apply";
export { applyFixEdits, FANOUT_MAX, vetFixes } from "./fixes/vet";
export type { CheckBudget, VetOptions, VetResult } from "./fixes/vet";
export type { FixCheck, VettedFix } from "./fixes/check";
export { TakenEdits } from "./fixes/taken-edits";
