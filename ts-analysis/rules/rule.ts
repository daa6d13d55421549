/**
 * The shape of a TypeScript rule: the same record as a `.tdl` rule (code,
 * default severity, docs) with a check over one source file. The context
 * carries what the rules share — the SDK calls found in the file, their keys
 * decomposed, their queries classified — computed once per file.
 */
import ts from "typescript";
import { Classification, Finding, Messages, PropertyInfo, ReportArgs, ReportMore, RuleRecord, said, ServiceProfile, Span } from "@core";
import { FileUsage, UsageFinder } from "../calls";
import type { TableSites } from "../tables";
import { KeyDecomposer } from "../key-parts";
import type { Key } from "../written-keys";
import type { DesignTable } from "../drift/design-index";

export type { Key } from "../written-keys";

/** A `listEntities`/`getEntity` call with its class (undefined when the filter is not known statically, or does not parse). */
export interface TsQuery {
  call: ts.CallExpression;
  table?: string;
  classification?: Classification;
  /** Parse errors of the filter's texts, as file ranges. */
  syntax?: Array<{ start: number; end: number; message: string; filter: string }>;
}

export interface TsRuleContext<M extends Messages = Messages> {
  sf: ts.SourceFile;
  checker: ts.TypeChecker;
  usage: FileUsage;
  profile: ServiceProfile;
  /** A design table's properties, when a `.tdl` in the workspace declares a table of that name. */
  design(table: string | undefined): ReadonlyMap<string, PropertyInfo> | undefined;
  /** The whole declared table (key shapes, query classes, where its design is), for the drift rules. */
  designTable?(table: string | undefined): DesignTable | undefined;
  decomposer: KeyDecomposer;
  /** Follows objects and properties as the usage was found (for rules that look at more arguments). */
  usageFinder: UsageFinder;
  /** Every key the file builds. */
  keys: readonly Key[];
  /** Every `listEntities`/`getEntity` call, classified where its filter is known. */
  queries: readonly TsQuery[];
  /** The write sites of a table across the project (for findings that concern the whole table). */
  tableSites(table: string | undefined): TableSites | undefined;
  report: TsReport<M>;
}

export interface TsRule<M extends Messages = Messages> extends RuleRecord<M> {
  check(ctx: TsRuleContext<M>): void;
}

/** A TypeScript rule, its messages' parameters checked at every report (as typescript-eslint's `createRule`). */
export const defineTsRule = <M extends Messages>(rule: TsRule<M>): TsRule<M> => rule;

export const span = (sf: ts.SourceFile, n: ts.Node) => ({ start: n.getStart(sf), end: n.getEnd() });

export const text = (sf: ts.SourceFile, n: ts.Node) => n.getText(sf);

/** Another place a finding concerns (another site of the same problem), as LSP `relatedInformation` and SARIF `relatedLocations` carry it. */
export interface RelatedLocation {
  /** Absolute path of the file. */
  file: string;
  /** 0-based line and character of the start. */
  line: number;
  character: number;
  message: string;
}

/** A finding of a TypeScript rule: a core finding, with the other places of the same problem. */
export interface TsFinding extends Finding {
  related?: RelatedLocation[];
}

/** What a TypeScript report may add: fixes, a severity, the other places of the same problem. */
export interface TsReportMore extends ReportMore {
  related?: RelatedLocation[];
}

/** Reports one finding of the rule being run by message id and parameters (code, default severity and sentence filled in). */
export type TsReport<M extends Messages = Messages> = <K extends keyof M & string>(
  at: Span,
  messageId: K,
  ...rest: ReportArgs<M[K], TsReportMore>
) => void;

/** The report function of one TypeScript rule, collecting into `out`. */
export function tsReporter<M extends Messages>(rule: RuleRecord<M>, out: TsFinding[]): TsReport<M> {
  return (at: Span, messageId: keyof M & string, data?: unknown, more?: TsReportMore) => {
    const finding: TsFinding = {
      code: rule.code,
      severity: more?.severity ?? rule.severity,
      start: at.start,
      end: at.end,
      ...said(rule, messageId, data),
    };
    if (more?.fixes) finding.fixes = more.fixes;
    if (more?.related?.length) finding.related = more.related;
    out.push(finding);
  };
}
