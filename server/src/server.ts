/**
 * The language server: maps each LSP request onto one call of the pure
 * service (`service/`). `node dist/server.js --stdio` speaks LSP on stdio.
 */
import {
  createConnection, Diagnostic, DidChangeConfigurationNotification, InitializeParams, InitializeResult, ProposedFeatures,
  TextDocuments, TextDocumentSyncKind, ResponseError, ErrorCodes,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import {
  complete, definition, formatTdl, hover, outline, prepareRename, queryInfos, references, rename, summary, AnalysisOptions, Classification,
} from "./service";
import { AnalysisCache } from "./lsp/documents";
import { isTypeScript, TypeScriptDocuments } from "./lsp/typescript";
import { WorkspaceDesigns } from "./lsp/designs";
import { fileURLToPath } from "node:url";
import { codeActionsFor, toCompletionItem, toDiagnostic, toDocumentSymbol } from "./lsp/convert";

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const cache = new AnalysisCache();
/** Coalesces bursts of edits; kept to a few milliseconds so diagnostics follow typing. */
const DEBOUNCE_MS = 2;
const pending = new Map<string, NodeJS.Timeout>();
let workspaceFolders: string[] = [];
const designs = new WorkspaceDesigns(() => workspaceFolders, () => documents.all().filter(isTdl).map((d) => cache.get(d).analysis));
const typescript = new TypeScriptDocuments(designs, (m) => connection.console.error(m));
let canPullConfiguration = false;
let canRegisterConfigurationChange = false;

connection.onInitialize((params: InitializeParams): InitializeResult => {
  canPullConfiguration = !!params.capabilities.workspace?.configuration;
  canRegisterConfigurationChange = !!params.capabilities.workspace?.didChangeConfiguration?.dynamicRegistration;
  cache.reset(readOptions(params.initializationOptions));
  workspaceFolders = (params.workspaceFolders ?? []).map((f) => f.uri).concat(params.rootUri ? [params.rootUri] : [])
    .filter((u) => u.startsWith("file:")).map((u) => fileURLToPath(u));
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: [":", "=", "+", "(", " ", ","] },
      hoverProvider: true,
      documentSymbolProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      documentFormattingProvider: true,
      codeActionProvider: { codeActionKinds: ["quickfix"] },
      codeLensProvider: { resolveProvider: false },
    },
    serverInfo: { name: "Table Design Language Server" },
  };
});

connection.onInitialized(() => {
  if (canRegisterConfigurationChange) {
    connection.client.register(DidChangeConfigurationNotification.type, { section: "tableDesign" })
      .catch((e: Error) => connection.console.warn(`configuration changes will not be followed: ${e.message}`));
  }
  if (canPullConfiguration) void pullConfiguration();
});

function readOptions(raw: unknown): AnalysisOptions {
  const cfg = (raw ?? {}) as { service?: string; partitionTargetEntitiesPerSecond?: number };
  const options: AnalysisOptions = {};
  if (cfg.service === "azure-table" || cfg.service === "cosmos-table" || cfg.service === "tablestore") options.defaultService = cfg.service;
  if (typeof cfg.partitionTargetEntitiesPerSecond === "number" && cfg.partitionTargetEntitiesPerSecond > 0) {
    options.partitionTargetEntitiesPerSecond = cfg.partitionTargetEntitiesPerSecond;
  }
  return options;
}

async function pullConfiguration(): Promise<void> {
  let cfg: unknown;
  try {
    cfg = await connection.workspace.getConfiguration("tableDesign");
  } catch (e) {
    connection.console.warn(`could not read the tableDesign settings: ${(e as Error).message}`);
    return;
  }
  applyOptions(readOptions(cfg));
}

function applyOptions(options: AnalysisOptions): void {
  cache.reset(options);
  typescript.defaultService = options.defaultService;
  typescript.reset();
  for (const doc of documents.all()) schedule(doc);
}

connection.onDidChangeConfiguration((change) => {
  if (canPullConfiguration) void pullConfiguration();
  else applyOptions(readOptions((change.settings as { tableDesign?: unknown })?.tableDesign));
});

/**
 * TypeScript documents share one program: their analyses run together once
 * the burst of events is over, so opening a whole project builds one program
 * and one checker instead of one per file.
 */
const pendingTs = new Set<string>();
let tsTimer: NodeJS.Timeout | undefined;
const TS_DEBOUNCE_MS = 3;

function schedule(doc: TextDocument): void {
  if (isTypeScript(doc)) {
    pendingTs.add(doc.uri);
    clearTimeout(tsTimer);
    tsTimer = setTimeout(() => {
      const uris = [...pendingTs];
      pendingTs.clear();
      for (const uri of uris) {
        const current = documents.get(uri);
        if (current) publish(current);
      }
    }, TS_DEBOUNCE_MS);
    return;
  }
  clearTimeout(pending.get(doc.uri));
  pending.set(doc.uri, setTimeout(() => {
    pending.delete(doc.uri);
    const current = documents.get(doc.uri);
    if (current) publish(current);
  }, DEBOUNCE_MS));
}

/** Only design files are analysed here; other documents get nothing (and cost nothing). */
function isTdl(doc: TextDocument): boolean {
  return doc.languageId === "tdl" || doc.uri.endsWith(".tdl");
}

function publish(doc: TextDocument): void {
  let diagnostics: Diagnostic[];
  if (isTdl(doc)) {
    const { analysis, lines } = cache.get(doc);
    diagnostics = analysis.findings.map((f) => toDiagnostic(lines, f));
  } else if (isTypeScript(doc)) {
    const { result, lines } = typescript.get(doc);
    diagnostics = result.findings.map((f) => toDiagnostic(lines, f));
  } else return;
  void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
}

// Fires on open as well as on each change.
documents.onDidChangeContent((e) => {
  if (isTypeScript(e.document)) typescript.track(e.document);
  schedule(e.document);
});
documents.onDidClose((e) => {
  clearTimeout(pending.get(e.document.uri));
  cache.delete(e.document.uri);
  if (isTypeScript(e.document)) typescript.close(e.document.uri);
  void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

/** Runs `fn` with the analysis of an open document; undefined when it is not open. */
function withDoc<R>(uri: string, fn: (entry: ReturnType<AnalysisCache["get"]>, doc: TextDocument) => R): R | undefined {
  const doc = documents.get(uri);
  return doc && isTdl(doc) ? fn(cache.get(doc), doc) : undefined;
}

connection.onCompletion((p) =>
  withDoc(p.textDocument.uri, ({ analysis, lines }) => complete(analysis, lines.offset(p.position)).map(toCompletionItem)) ?? []);

connection.onHover((p) =>
  withDoc(p.textDocument.uri, ({ analysis, lines }) => {
    const h = hover(analysis, lines.offset(p.position));
    return h ? { contents: { kind: "markdown" as const, value: h.markdown }, range: lines.range(h.start, h.end) } : null;
  }) ?? null);

connection.onDocumentSymbol((p) =>
  withDoc(p.textDocument.uri, ({ analysis, lines }) => outline(analysis).map((s) => toDocumentSymbol(lines, s))) ?? []);

connection.onDefinition((p) =>
  withDoc(p.textDocument.uri, ({ analysis, lines }) => {
    const d = definition(analysis, lines.offset(p.position));
    return d ? { uri: p.textDocument.uri, range: lines.range(d.start, d.end) } : null;
  }) ?? null);

connection.onReferences((p) =>
  withDoc(p.textDocument.uri, ({ analysis, lines }) =>
    references(analysis, lines.offset(p.position), p.context.includeDeclaration)
      .map((r) => ({ uri: p.textDocument.uri, range: lines.range(r.start, r.end) }))) ?? []);

connection.onPrepareRename((p) =>
  withDoc(p.textDocument.uri, ({ analysis, lines }) => {
    const r = prepareRename(analysis, lines.offset(p.position));
    return r ? { range: lines.range(r.start, r.end), placeholder: r.placeholder } : null;
  }) ?? null);

connection.onRenameRequest((p) =>
  withDoc(p.textDocument.uri, ({ analysis, lines }) => {
    try {
      const edits = rename(analysis, lines.offset(p.position), p.newName);
      if (!edits) return null;
      return { changes: { [p.textDocument.uri]: edits.map((e) => ({ range: lines.range(e.start, e.end), newText: e.newText })) } };
    } catch (e) {
      return new ResponseError(ErrorCodes.InvalidParams, (e as Error).message);
    }
  }) ?? null);

connection.onDocumentFormatting((p) =>
  withDoc(p.textDocument.uri, ({ analysis, lines }) => {
    const formatted = formatTdl(analysis.text);
    return formatted === analysis.text ? [] : [{ range: lines.range(0, analysis.text.length), newText: formatted }];
  }) ?? []);

connection.onCodeAction((p) => codeActionsFor(p.textDocument.uri, p.context.diagnostics));

// A lens above each query: its class and estimates (informational, no command to run).
connection.onCodeLens((p) => {
  const doc = documents.get(p.textDocument.uri);
  if (doc && isTypeScript(doc)) {
    const { result, lines } = typescript.get(doc);
    return result.queries.map((q) => ({ range: lines.range(q.start, q.start), command: { title: tsLens(q.classification), command: "" } }));
  }
  return withDoc(p.textDocument.uri, ({ analysis, lines }) => [
    // Above each table: check the design against the live table of the same name.
    ...analysis.tables.filter((t) => t.table.name.text).flatMap((t) => {
      const range = lines.range(t.base + t.table.name.start, t.base + t.table.name.end);
      return [
        { range, command: { title: "Stress test", command: "tableDesign.runStressTest", arguments: [p.textDocument.uri, t.table.name.text] } },
        { range, command: { title: "Check against live data", command: "tableDesign.checkLiveData", arguments: [p.textDocument.uri, t.table.name.text] } },
      ];
    }),
    ...queryInfos(analysis).filter((q) => q.classification)
      .map((q) => ({ range: lines.range(q.start, q.end), command: { title: summary(q.classification!), command: "" } })),
  ]) ?? [];
});

function tsLens(c: Classification): string {
  return c.class === "table-scan" ? "table-scan · scans every partition" : summary(c);
}

// One failing request must not take the server down with every document's diagnostics.
process.on("unhandledRejection", (e) => connection.console.error(`unhandled: ${(e as Error)?.stack ?? String(e)}`));

documents.listen(connection);
connection.listen();
