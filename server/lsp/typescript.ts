/**
 * TypeScript and JavaScript documents on the LSP side: maps URIs to file
 * names, keeps the analyzer (loaded on the first such document, so
 * design-only sessions never pay for the compiler), caches each version's
 * result, and says once per project when the SDK's types do not resolve.
 */
import { fileURLToPath } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { TsAnalyzer, TsFileResult } from "@ts-analysis/analysis";
import { AnalysisOptions, analysisFailed, LineIndex } from "@core";
import { WorkspaceDesigns } from "./designs";
import { loadTsAnalysis } from "@ts-analysis/loader";
import { stackOf } from "@core/errors";
import { formatCount } from "@core/text/words";

/**
 * Characters of a code file the analysis takes (4 Mi): past that a file is a bundle or generated, and TypeScript's
 * parser alone would hold the server for tens of seconds and gigabytes (50 MB: 27 s, 3.1 GB, then a stack overflow).
 */
export const MAX_CODE_CHARS = 4 * 1024 * 1024;

const CODE_LANGUAGES = new Set(["typescript", "typescriptreact", "javascript", "javascriptreact"]);

/** A TypeScript or JavaScript document (by language, or by extension when the client sends no known language). */
export function isTypeScript(doc: TextDocument): boolean {
  return CODE_LANGUAGES.has(doc.languageId) || /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(doc.uri);
}

export function fileName(uri: string): string {
  return uri.startsWith("file:") ? fileURLToPath(uri) : `/${uri.replace(/[^A-Za-z0-9._-]+/g, "_")}.ts`;
}

interface Entry {
  version: number;
  result: TsFileResult;
  lines: LineIndex;
}

export class TypeScriptDocuments {
  private analyzer: TsAnalyzer | undefined;
  private readonly results = new Map<string, Entry>();
  /** The analysis options from the settings (service profile, rule levels). */
  options: AnalysisOptions = {};

  /** Sentences already said (the SDK not resolving, once per project folder). */
  private readonly said = new Set<string>();

  /**
   * @param warn says something the user should see once (a log line and a notification the client shows);
   *   defaults to the log.
   */
  constructor(
    private readonly designs: WorkspaceDesigns,
    private readonly log: (message: string) => void,
    private readonly warn: (message: string) => void = log,
  ) {}

  private get ts(): TsAnalyzer {
    if (!this.analyzer) {
      // Loaded lazily: the compiler is large, and most design sessions never need it.
      const { TsAnalyzer: Analyzer } = loadTsAnalysis();
      this.analyzer = new Analyzer({
        design: (t) => this.designs.table(t),
        designTable: (t) => this.designs.designTable(t),
        analysis: this.options,
      });
    }
    return this.analyzer;
  }

  /** Hands a document's text to the project at once (cheap), so that a burst of opens builds one program, not one each. */
  track(doc: TextDocument): void {
    try {
      // Too large to analyse: not handed to the program at all (get() says so).
      if (doc.getText().length > MAX_CODE_CHARS) return this.analyzer?.close(fileName(doc.uri));
      this.ts.update(fileName(doc.uri), doc.getText(), doc.version);
    } catch (e) {
      this.log(`TypeScript analysis of ${doc.uri} failed: ${stackOf(e)}`);
    }
  }

  /**
   * The analysis of a document's current version, never an exception: a
   * failure yields one `internal` finding and a log line with the stack, and
   * the other files' analyses go on.
   */
  get(doc: TextDocument): Entry {
    const hit = this.results.get(doc.uri);
    if (hit && hit.version === doc.version) return hit;
    const text = doc.getText();
    let result: TsFileResult;
    if (text.length > MAX_CODE_CHARS) {
      const said = `${fileName(doc.uri)} was not analysed: it has ${formatCount(text.length)} characters; code files of up to ${formatCount(MAX_CODE_CHARS)} are`;
      result = { findings: [], queries: [], usesSdk: false, notices: [{ kind: "notAnalysed", text: said, say: "once" }] };
    } else
      try {
        const file = fileName(doc.uri);
        this.ts.update(file, text, doc.version);
        result = this.ts.analyze(file);
      } catch (e) {
        this.log(`TypeScript analysis of ${doc.uri} failed: ${stackOf(e)}`);
        result = { findings: [analysisFailed("TypeScript analysis", e, text)], queries: [], usesSdk: false };
      }
    for (const notice of result.notices ?? []) {
      if (notice.say === "log") this.log(notice.text);
      else if (!this.said.has(notice.text)) {
        this.said.add(notice.text);
        this.warn(notice.text);
      }
    }
    const entry = { version: doc.version, result, lines: new LineIndex(text) };
    this.results.set(doc.uri, entry);
    return entry;
  }

  /**
   * A design changed: every result is stale (drift findings compare with it).
   * Returns the open code documents to analyse again.
   */
  designsChanged(open: readonly TextDocument[]): TextDocument[] {
    if (!this.results.size) return [];
    this.results.clear();
    return open.filter(isTypeScript);
  }

  close(uri: string): void {
    this.results.delete(uri);
    try {
      this.analyzer?.close(fileName(uri));
    } catch (e) {
      this.log(`closing ${uri} in the TypeScript analysis failed: ${stackOf(e)}`);
    }
  }

  reset(): void {
    this.results.clear();
    this.analyzer = undefined;
  }
}
