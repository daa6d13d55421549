/**
 * Open documents with their latest analysis, computed once per version and
 * shared by diagnostics, hover, completion and the rest.
 */
import { TextDocument } from "vscode-languageserver-textdocument";
import { AnalysisOptions, LineIndex, TdlAnalysis, TdlAnalyzer } from "../service";

interface Entry {
  version: number;
  analysis: TdlAnalysis;
  lines: LineIndex;
  /** Keeps the document's unchanged tables analysed between versions. */
  analyzer: TdlAnalyzer;
}

export class AnalysisCache {
  private readonly entries = new Map<string, Entry>();
  options: AnalysisOptions = {};

  get(doc: TextDocument): Entry {
    const hit = this.entries.get(doc.uri);
    if (hit && hit.version === doc.version) return hit;
    const text = doc.getText();
    const analyzer = hit?.analyzer ?? new TdlAnalyzer();
    const entry = { version: doc.version, analysis: analyzer.analyze(text, this.options), lines: new LineIndex(text), analyzer };
    this.entries.set(doc.uri, entry);
    return entry;
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
