/**
 * One provider per LSP feature (server/features/), each answered through
 * the one wrapper here: the provider turns checked params and an analysed
 * document into the LSP answer; the wrapper gives it the documents and the
 * budget, maps a failure to the response error of its kind (the guard), and
 * says once what the answer left out for the budget — in the log, and to
 * the user when they asked for something they will not get (a format).
 */
import { ResponseError, ServerCapabilities, TextDocuments } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { TsFileResult } from "@ts-analysis/analysis";
import { LineIndex, TdlAnalysis } from "@core";
import { formatCount } from "@core/text/words";
import { AnalysisCache } from "./documents";
import { Guard } from "./guard";
import { documentUri } from "./params";
import { isTdl } from "./scheduler";
import { isTypeScript, TypeScriptDocuments } from "./typescript";
import { SLOW_ANSWER_MS } from "./budget";

/** An open design with its analysis. */
export interface DesignDoc {
  uri: string;
  doc: TextDocument;
  analysis: TdlAnalysis;
  lines: LineIndex;
}

/** An open TypeScript or JavaScript document with its analysis. */
export interface CodeDoc {
  uri: string;
  doc: TextDocument;
  result: TsFileResult;
  lines: LineIndex;
}

/** What a provider's answer may use: the documents the params name, and the budget. */
export interface RequestScope {
  /** The open design `params.textDocument.uri` names; undefined for any other document (InvalidParams without a URI). */
  design(params: unknown): DesignDoc | undefined;
  /** The open TypeScript or JavaScript document it names, analysed. */
  code(params: unknown): CodeDoc | undefined;
  /** The open document it names, of any language, as text (nothing analysed). */
  document(params: unknown): TextDocument | undefined;
  /** The first `max` of `items`; past that, `what(total)` says what was left out (a clause such as "5,000 of 9,000 symbols"). */
  bounded<T>(items: readonly T[], max: number, what: (total: number) => string): T[];
  /** Says once per document version what the answer left out, and why; `tell` also shows it to the user. */
  skipped(reason: string, tell?: boolean): void;
}

/** One LSP request a provider answers. */
export interface Feature<P = never, R = unknown> {
  /** What logs and error replies call it ("document symbols"). */
  name: string;
  /** The LSP method (`textDocument/hover`). */
  method: string;
  /** What it adds to the server's capabilities. */
  capabilities?: ServerCapabilities;
  /** The answer for a document it does not serve (closed, or of another language). */
  empty: R;
  /** The answer (undefined: `empty`). Params are untrusted: read them with lsp/params.ts. */
  answer(params: P, scope: RequestScope): R | undefined;
}

/** Declares a provider (the identity, for the types). */
export function feature<P, R>(f: Feature<P, R>): Feature<P, R> {
  return f;
}

/** What the wrapper needs from the server. */
export interface FeatureDeps {
  documents: TextDocuments<TextDocument>;
  cache: AnalysisCache;
  typescript: TypeScriptDocuments;
  guard: Guard;
  /** Shows a sentence to the user (`window/showMessage`, a warning). */
  tell(message: string): void;
}

/** Sentences said, so each is said once; forgotten past this many (a long session must not grow it for ever). */
const MAX_SAID = 1000;

/** Serves every provider through the same wrapper. */
export class FeatureHost {
  private readonly said = new Set<string>();

  constructor(private readonly deps: FeatureDeps) {}

  /** The request handler of `f`: its answer, or the response error of its failure; never throws. */
  serve<P, R>(f: Feature<P, R>): (params: P) => R | ResponseError<void> {
    return (params: P) => {
      const started = performance.now();
      const notes: Array<{ reason: string; tell: boolean }> = [];
      let version = "";
      const scope = this.scope(notes, (v) => (version = v));
      try {
        const answer = f.answer(params, scope);
        return answer === undefined ? f.empty : answer;
      } catch (e) {
        return this.deps.guard.responseError(f.name, e);
      } finally {
        for (const n of notes) this.say(`${f.name}${version}: ${n.reason}`, n.reason, n.tell);
        const ms = performance.now() - started;
        if (ms > SLOW_ANSWER_MS) this.deps.guard.warn(`${f.name}${version} took ${formatCount(Math.round(ms))} ms`);
      }
    };
  }

  private scope(notes: Array<{ reason: string; tell: boolean }>, named: (what: string) => void): RequestScope {
    const { documents, cache, typescript } = this.deps;
    const open = (params: unknown) => {
      const doc = documents.get(documentUri(params));
      if (doc) named(` of ${doc.uri} (version ${doc.version})`);
      return doc;
    };
    return {
      design: (params) => {
        const doc = open(params);
        if (!doc || !isTdl(doc)) return undefined;
        const { analysis, lines } = cache.get(doc);
        return { uri: doc.uri, doc, analysis, lines };
      },
      code: (params) => {
        const doc = open(params);
        if (!doc || !isTypeScript(doc)) return undefined;
        const { result, lines } = typescript.get(doc);
        return { uri: doc.uri, doc, result, lines };
      },
      document: (params) => open(params),
      bounded: (items, max, what) => {
        if (items.length <= max) return [...items];
        notes.push({ reason: `${what(items.length)} (the budget of one answer)`, tell: false });
        return items.slice(0, max);
      },
      skipped: (reason, tell = false) => {
        notes.push({ reason, tell });
      },
    };
  }

  /** Logs `line` once (and shows `reason` once when `tell`). */
  private say(line: string, reason: string, tell: boolean): void {
    if (this.said.has(line)) return;
    if (this.said.size >= MAX_SAID) this.said.clear();
    this.said.add(line);
    this.deps.guard.warn(line);
    if (tell) this.deps.tell(reason);
  }
}
