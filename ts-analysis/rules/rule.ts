/**
 * The shape of a TypeScript rule: the same record as a `.tdl` rule (code,
 * default severity, docs) with a check over one source file. The context
 * carries what the rules share — the SDK calls found in the file, their keys
 * decomposed, their queries classified — computed once per file.
 */
import ts from "typescript";
import { Classification, PropertyInfo, Report, RuleRecord, ServiceProfile } from "@core";
import { EntityWrite, FileUsage, UsageFinder } from "../calls";
import type { TableSites } from "../tables";
import { KeyDecomposer, TsKeyPart } from "../key-parts";
import type { DesignTable } from "../drift/design-index";

/** A partitionKey or rowKey expression the code builds, with its parts. */
export interface Key {
  which: "partitionKey" | "rowKey";
  expr: ts.Expression;
  parts: TsKeyPart[];
  table?: string;
  write?: EntityWrite;
  /** The key comes from the entity's declared type, not from an expression (`expr` is then the entity). */
  declared?: boolean;
  /**
   * Where in this file a finding on the key is reported: `expr` itself, or the call made here when the key is
   * built in a helper elsewhere (fixes then edit nothing: the helper serves other callers too).
   */
  at: ts.Node;
}

/** A `listEntities`/`getEntity` call with its class (undefined when the filter is not known statically, or does not parse). */
export interface TsQuery {
  call: ts.CallExpression;
  table?: string;
  classification?: Classification;
  /** Parse errors of the filter's texts, as file ranges. */
  syntax?: Array<{ start: number; end: number; message: string; filter: string }>;
}

export interface TsRuleContext {
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
  report: Report;
}

export interface TsRule extends RuleRecord {
  check(ctx: TsRuleContext): void;
}

export const span = (sf: ts.SourceFile, n: ts.Node) => ({ start: n.getStart(sf), end: n.getEnd() });

export const text = (sf: ts.SourceFile, n: ts.Node) => n.getText(sf);
