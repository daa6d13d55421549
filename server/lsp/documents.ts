/**
 * Open documents with their latest analysis, computed once per version and
 * shared by diagnostics, hover, completion and the rest.
 *
 * `get` never throws: when the analysis of a version fails as a whole, the
 * version gets an empty analysis with one `internal` finding (so every
 * handler keeps working on it and the user sees why the diagnostics are
 * missing), the stack goes to the log once, and the next version starts
 * from a fresh analyzer (the failed one's incremental state is not trusted).
 */
import { TextDocument } from "vscode-languageserver-textdocument";
import { AnalysisOptions, analysisFailed, chunkStarts, LineIndex, RULES, TdlAnalysis, TdlAnalyzer, profileFor } from "@core";
import { stackOf } from "@core/errors";

export interface Entry {
  version: number;
  analysis: TdlAnalysis;
  lines: LineIndex;
  /** Keeps the document's unchanged tables analysed between versions; none after a failure. */
  analyzer?: TdlAnalyzer;
  /** Rule failures already logged for this document, so that a failure reused by incremental analysis is logged once. */
  logged: Set<string>;
}

/** Codes of the rules that judge the file as a whole (an account's load, duplicate names): a part of the file cannot say them. */
const FILE_CODES = new Set(RULES.filter((r) => r.checkFile).map((r) => r.code));

export class AnalysisCache {
  private readonly entries = new Map<string, Entry>();
  /** Analyzers that analysed the first tables of a document not analysed in full yet: its full analysis continues from them. */
  private readonly starters = new Map<string, TdlAnalyzer>();
  options: AnalysisOptions = {};

  /**
   * @param log receives each failure with its stack (the server's console)
   * @param newAnalyzer makes the analyzer of a document (tests inject rules that throw)
   */
  constructor(
    private readonly log: (message: string) => void = () => undefined,
    private readonly newAnalyzer: () => TdlAnalyzer = () => new TdlAnalyzer(),
  ) {}

  /** Whether some version of the document was analysed in full (later versions re-check only the tables they change). */
  analysed(uri: string): boolean {
    return this.entries.has(uri);
  }

  /**
   * The findings of the first `tables` tables of a document that has more,
   * for its first diagnostics while the rest is analysed: the table
   * findings and syntax errors of those tables, without what only the whole
   * file can tell (an account's load, duplicate names). The analyzer keeps
   * those tables, so the full analysis that follows re-checks none of them.
   * Undefined when the document has no more tables than that, or when that
   * analysis fails (the full one then says why).
   */
  firstTables(doc: TextDocument, tables: number): Pick<Entry, "analysis" | "lines"> | undefined {
    const text = doc.getText();
    const starts = chunkStarts(text);
    // The first chunk is the head (comments and `service`), then one per table.
    if (starts.length <= tables + 1) return undefined;
    const analyzer = this.starters.get(doc.uri) ?? this.entries.get(doc.uri)?.analyzer ?? this.newAnalyzer();
    this.starters.set(doc.uri, analyzer);
    try {
      const prefix = text.slice(0, starts[tables + 1]);
      const analysis = analyzer.analyze(prefix, this.options);
      return {
        analysis: { ...analysis, findings: analysis.findings.filter((f) => !FILE_CODES.has(f.code)) },
        lines: new LineIndex(prefix),
      };
    } catch {
      this.starters.delete(doc.uri);
      return undefined;
    }
  }

  get(doc: TextDocument): Entry {
    const hit = this.entries.get(doc.uri);
    if (hit && hit.version === doc.version) return hit;
    const text = doc.getText();
    const logged = hit?.logged ?? new Set<string>();
    let entry: Entry;
    const starter = this.starters.get(doc.uri);
    this.starters.delete(doc.uri);
    try {
      const analyzer = starter ?? hit?.analyzer ?? this.newAnalyzer();
      entry = { version: doc.version, analysis: analyzer.analyze(text, this.options), lines: new LineIndex(text), analyzer, logged };
      this.logRuleFailures(doc.uri, entry);
    } catch (e) {
      this.log(`analysis of ${doc.uri} (version ${doc.version}) failed: ${stackOf(e)}`);
      entry = { version: doc.version, analysis: this.failedAnalysis(text, e), lines: new LineIndex(text), logged };
    }
    this.entries.set(doc.uri, entry);
    return entry;
  }

  /** The core turns a throwing rule into an `internal` finding; its stack is only in `failures`, logged here. */
  private logRuleFailures(uri: string, entry: Entry): void {
    const failures = entry.analysis.failures;
    const current = new Set<string>();
    for (const f of failures) {
      const key = `${f.rule}|${f.table ?? ""}|${f.stack}`;
      current.add(key);
      if (!entry.logged.has(key)) this.log(`rule ${f.rule} failed${f.table ? ` on table ${f.table}` : ""} in ${uri}: ${f.stack}`);
    }
    entry.logged = current;
  }

  private failedAnalysis(text: string, e: unknown): TdlAnalysis {
    const profile = profileFor(undefined, this.options.defaultService);
    return { text, service: undefined, profile, tables: [], errors: [], findings: [analysisFailed("analysis", e, text)], failures: [] };
  }

  delete(uri: string): void {
    this.entries.delete(uri);
    this.starters.delete(uri);
  }

  /** Options changed: every analysis is stale. */
  reset(options: AnalysisOptions): void {
    this.options = options;
    this.entries.clear();
    this.starters.clear();
  }
}
