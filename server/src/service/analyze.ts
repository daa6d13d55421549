/**
 * The analysis facade for `.tdl` text: parse, build each table's model, run
 * the rules. Pure: text in, findings and models out.
 */
import { parse } from "../tdl/parser";
import { DesignFile, ParseResult, Table } from "../tdl/ast";
import { profileFor, ServiceProfile } from "../model/profiles";
import { PropertyInfo, propertyInfos } from "../model/properties";
import { RULES } from "../rules";
import { Rule } from "../rules/rule";
import { PropertyRef, propertyRefs } from "./references";
import { AnalysisOptions, Finding } from "./types";

export interface TableModel {
  table: Table;
  props: Map<string, PropertyInfo>;
  refs: PropertyRef[];
}

export interface TdlAnalysis {
  text: string;
  parse: ParseResult;
  file: DesignFile;
  profile: ServiceProfile;
  tables: TableModel[];
  findings: Finding[];
}

/** Analyses a design. Never throws on any input. */
export function analyzeTdl(text: string, options: AnalysisOptions = {}, rules: readonly Rule[] = RULES): TdlAnalysis {
  const parsed = parse(text);
  const file = parsed.file;
  const profile = profileFor(file.service?.value, options.defaultService);
  const findings: Finding[] = parsed.errors.map((e) => ({ code: "syntax", severity: "error" as const, message: e.message, start: e.start, end: e.end }));
  const report = (f: Finding) => findings.push(f);
  const tables: TableModel[] = file.tables.map((table) => ({ table, props: propertyInfos(table), refs: propertyRefs(table) }));
  const base = { text, file, profile, options, report };

  for (const rule of rules) {
    rule.checkFile?.(base);
    if (!rule.checkTable) continue;
    for (const tm of tables) {
      if (tm.table.hasSyntaxError && !rule.onBrokenTables) continue;
      rule.checkTable({ ...base, ...tm });
    }
  }
  findings.sort((a, b) => a.start - b.start || a.end - b.end);
  return { text, parse: parsed, file, profile, tables, findings };
}

/** The table whose text contains `offset`. */
export function tableAt(analysis: TdlAnalysis, offset: number): TableModel | undefined {
  return analysis.tables.find((t) => offset >= t.table.start && offset <= t.table.end);
}
