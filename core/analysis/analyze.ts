/**
 * The analysis facade for `.tdl` text: parse, build each table's model, run
 * the rules. Pure: text in, findings and models out.
 *
 * Analysis is incremental by chunk (`tdl/chunks.ts`): each table's tree,
 * model and table-rule findings are kept with offsets relative to the
 * table's chunk and reused while the chunk's text is unchanged, wherever it
 * moves. A keystroke re-parses and re-checks one table, not the file.
 */
import { leadingService, parseChunk } from "../tdl/parser";
import { chunkStarts } from "../tdl/chunks";
import { DesignFile, ParseResult, SyntaxError, Table } from "../tdl/ast";
import { clip } from "../text/words";
import { profileFor, ServiceProfile } from "../services";
import { PropertyInfo, propertyInfos } from "../model/properties";
import { tableFacts } from "../model/facts";
import { RULES } from "../rules";
import { reporterFor, Rule, said } from "../rules/rule";
import { filterSyntax } from "../rules/queries";
import { propertyRefs } from "../model/references";
import { TableModel } from "../model/table-model";
import { Finding } from "../findings";
import { AnalysisOptions, resolveOptions } from "../options";
import { applyUserSettings } from "./settings";
import { attempt, Caught, failuresOf, RuleFailure, rulesFailed } from "./guard";
import { documentBudgetFinding, MAX_CHECKED_TABLES, tableBudgetFinding, tableOverBudget } from "./budget";

export type { RuleFailure } from "./guard";
export type { TableModel } from "../model/table-model";

export interface TdlAnalysis {
  text: string;
  /** `service` of the file (absolute offsets), if declared. */
  service: DesignFile["service"];
  profile: ServiceProfile;
  tables: TableModel[];
  /** Syntax errors, absolute offsets. */
  errors: SyntaxError[];
  /** Every finding, absolute offsets, sorted by position. */
  findings: Finding[];
  /** Rules (and analysis steps) that threw, with their stacks; each also has an `internal` finding. */
  failures: RuleFailure[];
  /** The options the analysis ran with (checking a fix re-analyses with the same); absent on an analysis made by hand. */
  options?: AnalysisOptions;
}

interface ChunkResult {
  tables: Array<Omit<TableModel, "base">>;
  errors: SyntaxError[];
  findings: Finding[];
  service: DesignFile["service"];
  failures: RuleFailure[];
}

export class TdlAnalyzer {
  private chunks = new Map<string, ChunkResult>();
  private key = "";

  constructor(private readonly rules: readonly Rule[] = RULES) {}

  /**
   * An analyzer that starts from this one's chunks: analysing a variant of
   * the last text (a fix applied to a copy) re-checks only the tables the
   * variant changed, and leaves this analyzer's cache as it was.
   */
  fork(): TdlAnalyzer {
    const copy = new TdlAnalyzer(this.rules);
    copy.chunks = new Map(this.chunks);
    copy.key = this.key;
    return copy;
  }

  /** Analyses a design. Never throws on any input: a failure inside becomes an `internal` finding. */
  analyze(text: string, options: AnalysisOptions = {}): TdlAnalysis {
    try {
      return this.analyzeText(text, cleanOptions(options));
    } catch (error) {
      // A bug outside every rule's guard: drop the cache (it may be half updated) and say so.
      this.chunks.clear();
      this.key = "";
      const caught: Caught[] = [{ rule: "analyzer", error }];
      return {
        text,
        service: undefined,
        profile: profileFor(undefined, options.defaultService),
        tables: [],
        errors: [],
        findings: [rulesFailed(caught, 0, 0)],
        failures: failuresOf(caught),
        options,
      };
    }
  }

  private analyzeText(text: string, options: AnalysisOptions): TdlAnalysis {
    const starts = chunkStarts(text);
    const profile = profileFor(leadingService(text), options.defaultService);
    // The user's rule levels apply after the rules ran: they do not invalidate the chunks.
    const key = `${profile.name}|${options.partitionTargetEntitiesPerSecond ?? ""}`;
    if (key !== this.key) {
      this.chunks.clear();
      this.key = key;
    }
    const seen = new Map<string, ChunkResult>();
    const tables: TableModel[] = [];
    const errors: SyntaxError[] = [];
    const findings: Finding[] = [];
    const failures: RuleFailure[] = [];
    let service: DesignFile["service"];
    let checkedTables = -1;
    for (let i = 0; i < starts.length; i++) {
      const base = starts[i];
      const chunkText = text.slice(base, starts[i + 1] ?? text.length);
      // Past the budget, chunks are parsed but not checked (and cached as such).
      const check = tables.length < MAX_CHECKED_TABLES;
      if (!check && checkedTables < 0) checkedTables = tables.length;
      const cacheKey = (i === 0 ? "H" : "T") + (i + 1 < starts.length ? "+" : ".") + (check ? "" : "!") + chunkText;
      let chunk = this.chunks.get(cacheKey) ?? seen.get(cacheKey);
      if (!chunk) chunk = this.analyzeChunk(chunkText, i === 0, i + 1 < starts.length, profile, options, check);
      seen.set(cacheKey, chunk);
      if (i === 0) service = chunk.service;
      for (const t of chunk.tables) tables.push({ ...t, base });
      for (const e of chunk.errors) errors.push({ ...e, start: e.start + base, end: e.end + base });
      for (const f of chunk.findings) findings.push(shiftFinding(f, base));
      for (const f of chunk.failures) failures.push(f);
    }
    this.chunks = seen; // keep only what the current text uses

    const designed = tables.filter((t) => t.checked);
    if (checkedTables >= 0 && checkedTables < tables.length) {
      const first = tables[checkedTables];
      const name = first.table.name;
      findings.push(
        documentBudgetFinding(tables.length, checkedTables, {
          name: name.text,
          start: first.base + name.start,
          end: first.base + name.end,
        }),
      );
    }
    const caught: Caught[] = [];
    // File rules see the tables within the budget; the name rules also see those with syntax errors.
    const named = checkedTables < 0 ? tables : tables.slice(0, checkedTables);
    for (const rule of this.rules) {
      if (!rule.checkFile) continue;
      const out: Finding[] = [];
      const ctx = { text, tables: rule.onBrokenTables ? named : designed, profile, options, report: reporterFor(rule, out) };
      if (attempt(caught, rule.code, () => rule.checkFile!(ctx))) {
        for (const f of out) findings.push(f);
      }
    }
    if (caught.length) {
      findings.push(rulesFailed(caught, 0, 0));
      for (const f of failuresOf(caught)) failures.push(f);
    }
    findings.sort((a, b) => a.start - b.start || a.end - b.end);
    return { text, service, profile, tables, errors, findings: applyUserSettings(findings, text, options.rules), failures, options };
  }

  private analyzeChunk(
    text: string,
    head: boolean,
    followed: boolean,
    profile: ServiceProfile,
    options: AnalysisOptions,
    check: boolean,
  ): ChunkResult {
    let parsed: ParseResult;
    try {
      parsed = parseChunk(text, head, followed);
    } catch (error) {
      // A parser bug costs this chunk, not the document.
      const caught: Caught[] = [{ rule: "parser", error }];
      return { tables: [], errors: [], findings: [rulesFailed(caught, 0, 0)], service: undefined, failures: failuresOf(caught) };
    }
    const findings: Finding[] = parsed.errors.map((e) => ({
      code: filterSyntax.code,
      severity: "error" as const,
      ...said(filterSyntax, "syntax", { why: e.message }),
      start: e.start,
      end: e.end,
    }));
    const failures: RuleFailure[] = [];
    const tables: ChunkResult["tables"] = [];
    for (const table of parsed.file.tables) {
      const model = modelTable(table, text, check, findings, failures);
      tables.push(model);
      if (check) this.checkTable(model, profile, options, findings, failures);
    }
    return { tables, errors: parsed.errors, findings, service: parsed.file.service, failures };
  }

  /** Runs every table rule on one table, each inside its guard. */
  private checkTable(
    tm: ChunkResult["tables"][number],
    profile: ServiceProfile,
    options: AnalysisOptions,
    findings: Finding[],
    failures: RuleFailure[],
  ): void {
    const designRules = tm.checked;
    const caught: Caught[] = [];
    for (const rule of this.rules) {
      if (!rule.checkTable || (!designRules && !rule.onBrokenTables)) continue;
      // A rule's findings count only if it completes: half a check could mislead.
      const out: Finding[] = [];
      if (attempt(caught, rule.code, () => rule.checkTable!({ ...tm, profile, options, report: reporterFor(rule, out) }))) {
        for (const f of out) findings.push(f);
      }
    }
    if (designRules) {
      // A query the classifier failed on loses its classification only (`model/queries.ts`); say so on its name.
      attempt([], "query/class", () => {
        for (const qa of tableFacts(tm.table, tm.props).queries) {
          if (qa.failure === undefined) continue;
          const one: Caught[] = [{ rule: "query/class", error: qa.failure }];
          const name = qa.query.name;
          findings.push(rulesFailed(one, name.start, name.end, `query '${clip(name.text)}'`));
          for (const f of failuresOf(one, tm.table.name.text)) failures.push(f);
        }
      });
    }
    report(caught, tm.table, findings, failures);
  }
}

/**
 * One table's model: its property facts and reference index. A step that
 * throws costs what depends on it — a failed property table leaves the table
 * unchecked, a filter whose names cannot be read loses those references —
 * while the table stays in the outline and the name checks.
 */
function modelTable(table: Table, text: string, check: boolean, findings: Finding[], failures: RuleFailure[]): Omit<TableModel, "base"> {
  const caught: Caught[] = [];
  let props = new Map<string, PropertyInfo>();
  const modelled = attempt(caught, "model", () => {
    props = propertyInfos(table);
  });
  const refs = propertyRefs(table, (query, error) => {
    const one: Caught[] = [{ rule: "unknown-property", error }];
    findings.push(rulesFailed(one, query.name.start, query.name.end, `the filter of query '${clip(query.name.text)}'`));
    for (const f of failuresOf(one, table.name.text)) failures.push(f);
  });
  report(caught, table, findings, failures);
  const over = check && modelled && !table.hasSyntaxError ? tableOverBudget(table) : undefined;
  if (over) findings.push(tableBudgetFinding(table, over));
  return { table, text, props, refs, checked: check && modelled && !table.hasSyntaxError && !over };
}

/** Adds the `internal` finding and the failures of one table's caught throws. */
function report(caught: Caught[], table: Table, findings: Finding[], failures: RuleFailure[]): void {
  if (!caught.length) return;
  findings.push(rulesFailed(caught, table.name.start, table.name.end));
  for (const f of failuresOf(caught, table.name.text)) failures.push(f);
}

/** Options as given by code (already typed), with values no design could mean dropped: the same checks as for settings and flags. */
function cleanOptions(options: AnalysisOptions): AnalysisOptions {
  return resolveOptions({
    service: options.defaultService,
    partitionTargetEntitiesPerSecond: options.partitionTargetEntitiesPerSecond,
    rules: options.rules,
  }).options;
}

function shiftFinding(f: Finding, base: number): Finding {
  if (base === 0) return f;
  const shifted: Finding = { ...f, start: f.start + base, end: f.end + base };
  if (f.fixes) {
    shifted.fixes = f.fixes.map((fix) => ({ ...fix, edits: fix.edits.map((e) => ({ ...e, start: e.start + base, end: e.end + base })) }));
  }
  return shifted;
}

/** Analyses a design from scratch (no cache). */
export function analyzeTdl(text: string, options: AnalysisOptions = {}): TdlAnalysis {
  return new TdlAnalyzer().analyze(text, options);
}

/** The table whose text contains `offset` (absolute). */
export function tableAt(analysis: TdlAnalysis, offset: number): TableModel | undefined {
  return analysis.tables.find((t) => offset >= t.base + t.table.start && offset <= t.base + t.table.end);
}
