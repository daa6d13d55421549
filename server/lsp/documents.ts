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
import { AnalysisOptions, analysisFailed, LineIndex, TdlAnalysis, TdlAnalyzer, profileFor } from "@core";
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

export class AnalysisCache {
  private readonly entries = new Map<string, Entry>();
  options: AnalysisOptions = {};

  /**
   * @param log receives each failure with its stack (the server's console)
   * @param newAnalyzer makes the analyzer of a document (tests inject rules that throw)
   */
  constructor(
    private readonly log: (message: string) => void = () => undefined,
    private readonly newAnalyzer: () => TdlAnalyzer = () => new TdlAnalyzer(),
  ) {}

  get(doc: TextDocument): Entry {
    const hit = this.entries.get(doc.uri);
    if (hit && hit.version === doc.version) return hit;
    const text = doc.getText();
    const logged = hit?.logged ?? new Set<string>();
    let entry: Entry;
    try {
      const analyzer = hit?.analyzer ?? this.newAnalyzer();
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
  }

  /** Options changed: every analysis is stale. */
  reset(options: AnalysisOptions): void {
    this.options = options;
    this.entries.clear();
  }
}
