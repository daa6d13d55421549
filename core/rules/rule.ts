/**
 * The shape of a rule, one for both languages: a record with its code, its
 * default severity, its documentation (what docs/rules.md and the SARIF
 * output say of it) and its check. A check reports a span and a message; the
 * context fills in the code and the severity, so a rule cannot report under
 * another's name. Fixes travel with the finding and reach the client in
 * `Diagnostic.data`, matched on `code`.
 */
import { Table } from "../tdl/ast";
import { ServiceProfile } from "../services";
import { PropertyInfo } from "../model/properties";
import { PropertyRef } from "../model/references";
import type { TableModel } from "../model/table-model";
import { Finding, Fix, Severity } from "../findings";
import { AnalysisOptions } from "../options";

/** What the catalog says of a rule. */
export interface RuleDocs {
  /** When it fires, in one line: the catalog's "when" column and SARIF's short description. */
  summary: string;
  /** Why it matters: the fact behind it (SARIF's full description, after the summary). */
  why: string;
  /** What its quick fix does; absent when it has none. */
  fix?: string;
  /** The severity as the catalog states it, when the check raises or lowers it ("warning (error when a query ranges over it)"). */
  severityNote?: string;
}

/** The catalog's sections, in order. */
export const FAMILIES = [
  "Syntax and meaning",
  "Keys",
  "Partitions and load",
  "Queries",
  "Transactions and entities",
  "TypeScript code",
] as const;
export type Family = (typeof FAMILIES)[number];

/** What every rule of either language is: the part the catalog, the SARIF output and the severity settings read. */
export interface RuleRecord {
  code: string;
  /** The default severity; a check may raise or lower it for one finding, the user's settings override it. */
  severity: Severity;
  family: Family;
  docs: RuleDocs;
}

/** The anchor of a code's row in docs/rules.md (`key/unpadded-number` → `key-unpadded-number`): the catalog writes it, links and SARIF point at it. */
export const ruleAnchor = (code: string): string => code.replace(/[^a-z0-9]+/g, "-");

/** Where a finding sits: offsets into the text the check was given. */
export interface Span {
  start: number;
  end: number;
}

/** Reports one finding of the rule being run: its code and default severity are filled in. */
export type Report = (at: Span, message: string, more?: { fixes?: Fix[]; severity?: Severity }) => void;

interface Context {
  profile: ServiceProfile;
  options: AnalysisOptions;
  report: Report;
}

/** A whole file: every table with its chunk offset (`base`); spans are absolute offsets. */
export interface FileContext extends Context {
  text: string;
  tables: ReadonlyArray<TableModel>;
}

/** One table: spans are relative to its chunk (`text`), so results can be reused when the table moves. */
export interface TableContext extends Context {
  text: string;
  table: Table;
  props: ReadonlyMap<string, PropertyInfo>;
  refs: PropertyRef[];
}

/** A rule of `.tdl` designs. */
export interface Rule extends RuleRecord {
  /** Runs on tables with syntax errors too (only the name checks do). */
  onBrokenTables?: boolean;
  checkFile?(ctx: FileContext): void;
  checkTable?(ctx: TableContext): void;
}

/** The report function of one rule: it fills in the rule's code and default severity, and collects into `out`. */
export function reporterFor(rule: RuleRecord, out: Finding[]): Report {
  return (at, message, more) => {
    const finding: Finding = { code: rule.code, severity: more?.severity ?? rule.severity, start: at.start, end: at.end, message };
    if (more?.fixes) finding.fixes = more.fixes;
    out.push(finding);
  };
}
