/**
 * The analysis facade for `.tdl` text: parse, build each table's model, run
 * the rules. Pure: text in, findings and models out.
 *
 * Analysis is incremental by chunk (`tdl/chunks.ts`): each table's tree,
 * model and table-rule findings are kept with offsets relative to the
 * table's chunk and reused while the chunk's text is unchanged, wherever it
 * moves. A keystroke re-parses and re-checks one table, not the file.
 */
import { parseChunk } from "../tdl/parser";
import { chunkStarts } from "../tdl/chunks";
import { DesignFile, ServiceName, SyntaxError, Table } from "../tdl/ast";
import { profileFor, ServiceProfile } from "../model/profiles";
import { PropertyInfo, propertyInfos } from "../model/properties";
import { RULES } from "../rules";
import { Rule } from "../rules/rule";
import { PropertyRef, propertyRefs } from "./references";
import { AnalysisOptions, Finding } from "./types";

export interface TableModel {
  /** The table's tree, with offsets relative to `base`. */
  table: Table;
  /** Offset of the table's chunk in the document: add it to every offset of `table` and `refs`. */
  base: number;
  /** The chunk's text (what `table`'s offsets index). */
  text: string;
  props: Map<string, PropertyInfo>;
  refs: PropertyRef[];
}

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
  failures?: Array<{ rule: string; table?: string; stack: string }>;
}

interface ChunkResult {
  tables: Array<Omit<TableModel, "base">>;
  errors: SyntaxError[];
  findings: Finding[];
  service: DesignFile["service"];
}

export class TdlAnalyzer {
  private chunks = new Map<string, ChunkResult>();
  private key = "";

  constructor(private readonly rules: readonly Rule[] = RULES) {}

  /** Analyses a design. Never throws on any input. */
  analyze(text: string, options: AnalysisOptions = {}): TdlAnalysis {
    const starts = chunkStarts(text);
    const profile = profileFor(leadingService(text), options.defaultService);
    const key = `${profile.name}|${JSON.stringify(options)}`;
    if (key !== this.key) {
      this.chunks.clear();
      this.key = key;
    }
    const seen = new Map<string, ChunkResult>();
    const tables: TableModel[] = [];
    const errors: SyntaxError[] = [];
    const findings: Finding[] = [];
    let service: DesignFile["service"];
    for (let i = 0; i < starts.length; i++) {
      const base = starts[i];
      const chunkText = text.slice(base, starts[i + 1] ?? text.length);
      const cacheKey = (i === 0 ? "H" : "T") + (i + 1 < starts.length ? "+" : ".") + chunkText;
      let chunk = this.chunks.get(cacheKey) ?? seen.get(cacheKey);
      if (!chunk) chunk = this.analyzeChunk(chunkText, i === 0, i + 1 < starts.length, profile, options);
      seen.set(cacheKey, chunk);
      if (i === 0) service = chunk.service;
      for (const t of chunk.tables) tables.push({ ...t, base });
      for (const e of chunk.errors) errors.push({ ...e, start: e.start + base, end: e.end + base });
      for (const f of chunk.findings) findings.push(shiftFinding(f, base));
    }
    this.chunks = seen; // keep only what the current text uses

    const fileCtx = { text, tables, profile, options, report: (f: Finding) => findings.push(f) };
    for (const rule of this.rules) rule.checkFile?.(fileCtx);
    findings.sort((a, b) => a.start - b.start || a.end - b.end);
    return { text, service, profile, tables, errors, findings };
  }

  private analyzeChunk(text: string, head: boolean, followed: boolean, profile: ServiceProfile, options: AnalysisOptions): ChunkResult {
    const parsed = parseChunk(text, head, followed);
    const findings: Finding[] = parsed.errors.map((e) => ({ code: "syntax", severity: "error" as const, message: e.message, start: e.start, end: e.end }));
    const tables = parsed.file.tables.map((table) => ({ table, text, props: propertyInfos(table), refs: propertyRefs(table) }));
    const report = (f: Finding) => findings.push(f);
    for (const rule of this.rules) {
      if (!rule.checkTable) continue;
      for (const tm of tables) {
        if (tm.table.hasSyntaxError && !rule.onBrokenTables) continue;
        rule.checkTable({ ...tm, profile, options, report });
      }
    }
    return { tables, errors: parsed.errors, findings, service: parsed.file.service };
  }
}

/** The profile named by a leading `service` line, found without parsing the file. */
function leadingService(text: string): ServiceName | undefined {
  const m = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*service[ \t]+(azure-table|cosmos-table|tablestore)\b/.exec(text);
  return m ? (m[1] as ServiceName) : undefined;
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
