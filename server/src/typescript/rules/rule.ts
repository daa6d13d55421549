/**
 * The shape of a TypeScript rule: the same record as a `.tdl` rule (code,
 * default severity, docs) with a check over one source file. The context
 * carries what the rules share — the SDK calls found in the file, their keys
 * decomposed, their queries classified — computed once per file.
 */
import ts from "typescript";
import { Classification, PropertyInfo, Report, RuleRecord, ServiceProfile } from "../../core";
import { EntityWrite, FileUsage } from "../calls";
import { KeyDecomposer, TsKeyPart } from "../key-parts";

/** A partitionKey or rowKey expression the code builds, with its parts. */
export interface Key {
  which: "partitionKey" | "rowKey";
  expr: ts.Expression;
  parts: TsKeyPart[];
  table?: string;
  write?: EntityWrite;
}

/** A `listEntities`/`getEntity` call with its class (undefined when the filter is not known statically). */
export interface TsQuery {
  call: ts.CallExpression;
  table?: string;
  classification: Classification;
}

export interface TsRuleContext {
  sf: ts.SourceFile;
  checker: ts.TypeChecker;
  usage: FileUsage;
  profile: ServiceProfile;
  /** A design table's properties, when a `.tdl` in the workspace declares a table of that name. */
  design(table: string | undefined): ReadonlyMap<string, PropertyInfo> | undefined;
  decomposer: KeyDecomposer;
  /** Every key the file builds. */
  keys: readonly Key[];
  /** Every classified query call. */
  queries: readonly TsQuery[];
  report: Report;
}

export interface TsRule extends RuleRecord {
  check(ctx: TsRuleContext): void;
}

export const span = (sf: ts.SourceFile, n: ts.Node) => ({ start: n.getStart(sf), end: n.getEnd() });
export const text = (sf: ts.SourceFile, n: ts.Node) => n.getText(sf);
