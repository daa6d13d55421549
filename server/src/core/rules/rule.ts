/**
 * The shape of a rule: a record with its code, default severity and check.
 * Rules report findings with offsets; fixes travel with the finding and reach
 * the client in `Diagnostic.data`, matched on `code`.
 */
import { Table } from "../tdl/ast";
import { ServiceProfile } from "../services";
import { PropertyInfo } from "../model/properties";
import { PropertyRef } from "../model/references";
import type { TableModel } from "../model/table-model";
import { Finding, Severity } from "../findings";
import { AnalysisOptions } from "../options";

interface Context {
  profile: ServiceProfile;
  options: AnalysisOptions;
  report(finding: Finding): void;
}

/** A whole file: every table with its chunk offset (`base`); findings use absolute offsets. */
export interface FileContext extends Context {
  text: string;
  tables: ReadonlyArray<TableModel>;
}

/** One table: offsets are relative to its chunk (`text`), so results can be reused when the table moves. */
export interface TableContext extends Context {
  text: string;
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
