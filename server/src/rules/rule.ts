/**
 * The shape of a rule: a record with its code, default severity and check.
 * Rules report findings with offsets; fixes travel with the finding and reach
 * the client in `Diagnostic.data`, matched on `code`.
 */
import { DesignFile, Table } from "../tdl/ast";
import { ServiceProfile } from "../model/profiles";
import { PropertyInfo } from "../model/properties";
import { PropertyRef } from "../service/references";
import { AnalysisOptions, Finding, Severity } from "../service/types";

export interface FileContext {
  text: string;
  file: DesignFile;
  profile: ServiceProfile;
  options: AnalysisOptions;
  report(finding: Finding): void;
}

export interface TableContext extends FileContext {
  table: Table;
  props: ReadonlyMap<string, PropertyInfo>;
  refs: PropertyRef[];
}

export interface Rule {
  code: string;
  severity: Severity;
  /** Runs on tables with syntax errors too (only the name checks do). */
  onBrokenTables?: boolean;
  checkFile?(ctx: FileContext): void;
  checkTable?(ctx: TableContext): void;
}
