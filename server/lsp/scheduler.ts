/**
 * When diagnostics are computed and published: each design after a short
 * debounce of its own, TypeScript documents together once a burst of events
 * is over (one program and one checker, not one per file). Every timer runs
 * inside the guard, and each document is published on its own, so one
 * document's failure can neither stop the process nor the others' diagnostics.
 *
 * A large design opened (not analysed yet) first gets the diagnostics of
 * its first tables — what the editor shows at the top — and the full set in
 * the next turn of the event loop, so that opening it shows findings at once
 * and requests are answered between the two. The partial set carries no
 * version: the diagnostics of a version are the complete ones.
 */
import { Connection, Diagnostic, TextDocuments } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analysisFailed, LineIndex } from "@core";
import { AnalysisCache } from "./documents";
import { isTypeScript, TypeScriptDocuments } from "./typescript";
import { Guard } from "./guard";
import { toDiagnostic } from "./convert";
import { IdleCollector } from "./idle-gc";

/** Coalesces bursts of edits; kept to a few milliseconds so diagnostics follow typing. */
const DEBOUNCE_MS = 2;
const TS_DEBOUNCE_MS = 3;
/** Tables of an opened design whose diagnostics come first, when it has more (one screen's worth, a few dozen milliseconds). */
export const FIRST_TABLES = 16;

/** Only design files are analysed as designs; other documents get nothing (and cost nothing). */
export function isTdl(doc: TextDocument): boolean {
  return doc.languageId === "tdl" || doc.uri.endsWith(".tdl");
}

export class DiagnosticsScheduler {
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly pendingTs = new Set<string>();
  private tsTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly cache: AnalysisCache,
    private readonly typescript: TypeScriptDocuments,
    private readonly guard: Guard,
    private readonly idle = new IdleCollector(),
  ) {}

  schedule(doc: TextDocument): void {
    if (isTypeScript(doc)) {
      this.pendingTs.add(doc.uri);
      clearTimeout(this.tsTimer);
      this.tsTimer = setTimeout(
        this.guard.run("TypeScript diagnostics", () => {
          const uris = [...this.pendingTs];
          this.pendingTs.clear();
          for (const uri of uris) this.publishUri(uri);
          // A TypeScript analysis leaves a program's worth of garbage: collected once the editor is quiet.
          this.idle.analysed();
        }),
        TS_DEBOUNCE_MS,
      );
      return;
    }
    clearTimeout(this.pending.get(doc.uri));
    this.pending.set(
      doc.uri,
      setTimeout(
        this.guard.run(`diagnostics of ${doc.uri}`, () => {
          this.pending.delete(doc.uri);
          this.publishUri(doc.uri);
        }),
        DEBOUNCE_MS,
      ),
    );
  }

  /** A closed document: nothing pending, and its diagnostics cleared. */
  cancel(uri: string): void {
    clearTimeout(this.pending.get(uri));
    this.pending.delete(uri);
    this.pendingTs.delete(uri);
  }

  private publishUri(uri: string): void {
    const current = this.documents.get(uri);
    if (current) this.publish(current);
  }

  /**
   * Publishes one document's diagnostics. The analyses do not throw (they
   * turn their own failures into an `internal` finding); should anything
   * else here fail, the version still gets one `internal` diagnostic, so
   * the client never keeps showing the diagnostics of an older text.
   */
  private publish(doc: TextDocument): void {
    if (isTdl(doc) && !this.cache.analysed(doc.uri) && this.publishFirstTables(doc)) return;
    let diagnostics: Diagnostic[];
    try {
      if (isTdl(doc)) {
        const { analysis, lines } = this.cache.get(doc);
        diagnostics = analysis.findings.map((f) => toDiagnostic(lines, f));
      } else if (isTypeScript(doc)) {
        const { result, lines } = this.typescript.get(doc);
        diagnostics = result.findings.map((f) => toDiagnostic(lines, f));
      } else return;
    } catch (e) {
      this.guard.failed(`diagnostics of ${doc.uri}`, e);
      const text = doc.getText();
      diagnostics = [toDiagnostic(new LineIndex(text), analysisFailed("analysis", e, text))];
    }
    void this.connection
      .sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics })
      .catch((e: unknown) => this.guard.failed(`publishing the diagnostics of ${doc.uri}`, e));
  }

  /**
   * The diagnostics of a large design's first tables, then (next turn, if
   * the version is still the current one: a newer one has its own publish
   * scheduled) the full analysis's. False when the design is not large.
   */
  private publishFirstTables(doc: TextDocument): boolean {
    const first = this.cache.firstTables(doc, FIRST_TABLES);
    if (!first) return false;
    const diagnostics = first.analysis.findings.map((f) => toDiagnostic(first.lines, f));
    void this.connection
      .sendDiagnostics({ uri: doc.uri, diagnostics })
      .catch((e: unknown) => this.guard.failed(`publishing the diagnostics of ${doc.uri}`, e));
    setImmediate(
      this.guard.run(`diagnostics of ${doc.uri}`, () => {
        const current = this.documents.get(doc.uri);
        if (current?.version !== doc.version) return;
        this.cache.get(current); // analysed in full: publish() now sends it
        this.publish(current);
      }),
    );
    return true;
  }
}
