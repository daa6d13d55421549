/**
 * The language server: maps each LSP request onto one call of the IDE
 * features (`ide/`) over the pure core. `node dist/server.js --stdio` speaks LSP on stdio.
 *
 * Every handler runs inside the guard (`lsp/guard.ts`): no document,
 * request or notification can make the process exit. Params are checked
 * first (`lsp/params.ts`); a failure is logged with its stack and answered
 * with an empty result; the analyses turn their own failures into one
 * `internal` diagnostic on the document.
 */
import {
  createConnection,
  DidChangeConfigurationNotification,
  InitializeParams,
  InitializeResult,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  ResponseError,
  ErrorCodes,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { formatTdl, queryInfos, resolveOptions, summary, AnalysisOptions, Classification } from "@core";
import { complete, definition, hover, outline, prepareRename, references, rename } from "./ide";
import { AnalysisCache, Entry } from "./lsp/documents";
import { isTypeScript, TypeScriptDocuments } from "./lsp/typescript";
import { WorkspaceDesigns } from "./lsp/designs";
import { fileURLToPath } from "node:url";
import { codeActionsFor, toCompletionItem, toDocumentSymbol } from "./lsp/convert";
import { Guard } from "./lsp/guard";
import { contextDiagnostics, documentUri, newName, requestPosition } from "./lsp/params";
import { CHECKED_SYNC } from "./lsp/text-sync";
import { DiagnosticsScheduler, isTdl } from "./lsp/scheduler";
import { keepsEveryCharacter } from "./lsp/format-check";

const connection = createConnection(ProposedFeatures.all);
const guard = new Guard({ error: (m) => connection.console.error(m), warn: (m) => connection.console.warn(m) });
const documents = new TextDocuments(CHECKED_SYNC);
const cache = new AnalysisCache((m) => connection.console.error(m));
let workspaceFolders: string[] = [];
const designs = new WorkspaceDesigns(
  () => workspaceFolders,
  () =>
    documents
      .all()
      .filter(isTdl)
      .map((d) => ({ uri: d.uri, analysis: cache.get(d).analysis })),
);
const typescript = new TypeScriptDocuments(
  designs,
  (m) => connection.console.error(m),
  (m) => {
    connection.console.warn(m);
    // The client shows it in its status bar and output channel (once: the analysis says each sentence once).
    void connection.sendNotification("tableDesign/analysisWarning", { message: m }).catch(() => undefined);
  },
);
const diagnostics = new DiagnosticsScheduler(connection, documents, cache, typescript, guard);
let canPullConfiguration = false;
let canRegisterConfigurationChange = false;

/** Folder URIs of the workspace as paths; entries that are not `file:` URIs (or not strings) are left out. */
function folderPaths(params: InitializeParams): string[] {
  const uris: unknown[] = [...(Array.isArray(params.workspaceFolders) ? params.workspaceFolders.map((f) => f?.uri) : []), params.rootUri];
  return uris
    .filter((u): u is string => typeof u === "string" && u.startsWith("file:"))
    .flatMap((u) => {
      try {
        return [fileURLToPath(u)];
      } catch {
        return [];
      }
    });
}

connection.onInitialize((params: InitializeParams): InitializeResult => {
  try {
    canPullConfiguration = !!params?.capabilities?.workspace?.configuration;
    canRegisterConfigurationChange = !!params?.capabilities?.workspace?.didChangeConfiguration?.dynamicRegistration;
    cache.reset(readOptions(params?.initializationOptions));
    workspaceFolders = params ? folderPaths(params) : [];
  } catch (e) {
    // A malformed initialize still gets a working server, with default options.
    guard.failed("initialize", e);
  }
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

connection.onInitialized(
  guard.run("initialized", () => {
    if (canRegisterConfigurationChange) {
      connection.client
        .register(DidChangeConfigurationNotification.type, { section: "tableDesign" })
        .catch((e: Error) => connection.console.warn(`configuration changes will not be followed: ${e.message}`));
    }
    if (canPullConfiguration) return pullConfiguration();
  }),
);

/** Settings as the user wrote them: anything unusable is left out and logged, never trusted. */
function readOptions(raw: unknown): AnalysisOptions {
  const { options, problems } = resolveOptions(raw, {
    service: "tableDesign.service",
    target: "tableDesign.partitionTargetEntitiesPerSecond",
    rules: "tableDesign.rules",
  });
  for (const p of problems) connection.console.warn(`setting ignored: ${p}`);
  return options;
}

async function pullConfiguration(): Promise<void> {
  let cfg: unknown;
  try {
    cfg = await connection.workspace.getConfiguration("tableDesign");
  } catch (e) {
    connection.console.warn(`could not read the tableDesign settings: ${(e as Error)?.message ?? String(e)}`);
    return;
  }
  applyOptions(readOptions(cfg));
}

function applyOptions(options: AnalysisOptions): void {
  cache.reset(options);
  typescript.options = options;
  typescript.reset();
  for (const doc of documents.all()) diagnostics.schedule(doc);
}

connection.onDidChangeConfiguration(
  guard.run("configuration change", (change) => {
    if (canPullConfiguration) return pullConfiguration();
    applyOptions(readOptions((change?.settings as { tableDesign?: unknown } | undefined)?.tableDesign));
  }),
);

// Fires on open as well as on each change.
documents.onDidChangeContent(
  guard.run("document change", (e) => {
    if (isTypeScript(e.document)) typescript.track(e.document);
    diagnostics.schedule(e.document);
    // A design changed: the drift findings of open code depend on it.
    if (isTdl(e.document)) for (const doc of typescript.designsChanged(documents.all())) diagnostics.schedule(doc);
  }),
);
documents.onDidClose(
  guard.run("document close", (e) => {
    diagnostics.cancel(e.document.uri);
    cache.delete(e.document.uri);
    if (isTypeScript(e.document)) typescript.close(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  }),
);

/** Runs `fn` with the analysis of an open design; undefined when the URI is not one (a closed or unknown document). */
function withDoc<R>(params: unknown, fn: (entry: Entry, doc: TextDocument) => R): R | undefined {
  const doc = documents.get(documentUri(params));
  return doc && isTdl(doc) ? fn(cache.get(doc), doc) : undefined;
}

connection.onCompletion(
  guard.request("completion", [], (p) => {
    const position = requestPosition(p);
    return withDoc(p, ({ analysis, lines }) => complete(analysis, lines.offset(position)).map(toCompletionItem)) ?? [];
  }),
);

connection.onHover(
  guard.request("hover", null, (p) => {
    const position = requestPosition(p);
    return (
      withDoc(p, ({ analysis, lines }) => {
        const h = hover(analysis, lines.offset(position));
        return h ? { contents: { kind: "markdown" as const, value: h.markdown }, range: lines.range(h.start, h.end) } : null;
      }) ?? null
    );
  }),
);

connection.onDocumentSymbol(
  guard.request(
    "document symbols",
    [],
    (p) => withDoc(p, ({ analysis, lines }) => outline(analysis).map((s) => toDocumentSymbol(lines, s))) ?? [],
  ),
);

connection.onDefinition(
  guard.request("definition", null, (p) => {
    const position = requestPosition(p);
    return (
      withDoc(p, ({ analysis, lines }) => {
        const d = definition(analysis, lines.offset(position));
        return d ? { uri: p.textDocument.uri, range: lines.range(d.start, d.end) } : null;
      }) ?? null
    );
  }),
);

connection.onReferences(
  guard.request("references", [], (p) => {
    const position = requestPosition(p);
    const includeDeclaration = p.context?.includeDeclaration === true;
    return (
      withDoc(p, ({ analysis, lines }) =>
        references(analysis, lines.offset(position), includeDeclaration).map((r) => ({
          uri: p.textDocument.uri,
          range: lines.range(r.start, r.end),
        })),
      ) ?? []
    );
  }),
);

connection.onPrepareRename(
  guard.request("prepare rename", null, (p) => {
    const position = requestPosition(p);
    return (
      withDoc(p, ({ analysis, lines }) => {
        const r = prepareRename(analysis, lines.offset(position));
        return r ? { range: lines.range(r.start, r.end), placeholder: r.placeholder } : null;
      }) ?? null
    );
  }),
);

connection.onRenameRequest(
  guard.request("rename", null, (p) => {
    const position = requestPosition(p);
    const name = newName(p);
    return (
      withDoc(p, ({ analysis, lines }) => {
        let edits: ReturnType<typeof rename>;
        try {
          edits = rename(analysis, lines.offset(position), name);
        } catch (e) {
          // The service refuses a name that is not a property name: the user's message, not a failure.
          return new ResponseError<void>(ErrorCodes.InvalidParams, (e as Error).message);
        }
        if (!edits) return null;
        return { changes: { [p.textDocument.uri]: edits.map((e) => ({ range: lines.range(e.start, e.end), newText: e.newText })) } };
      }) ?? null
    );
  }),
);

connection.onDocumentFormatting(
  guard.request(
    "formatting",
    [],
    (p) =>
      withDoc(p, ({ analysis }, doc) => {
        const formatted = formatTdl(analysis.text);
        if (formatted === analysis.text) return [];
        if (!keepsEveryCharacter(analysis.text, formatted)) {
          // A formatter bug must never cost the user text: refuse, and say so in the log.
          connection.console.error(`formatting ${doc.uri} refused: the result would change more than whitespace`);
          return [];
        }
        // The document's own end, as the client counts lines (\r, \r\n and \n alike): the edit replaces all of it.
        return [{ range: { start: { line: 0, character: 0 }, end: doc.positionAt(analysis.text.length) }, newText: formatted }];
      }) ?? [],
  ),
);

connection.onCodeAction(
  guard.request("code actions", [], (p) => {
    const uri = documentUri(p);
    return codeActionsFor(uri, contextDiagnostics(p));
  }),
);

// A lens above each query: its class and estimates (informational, no command to run).
connection.onCodeLens(
  guard.request("code lenses", [], (p) => {
    const doc = documents.get(documentUri(p));
    if (doc && isTypeScript(doc)) {
      const { result, lines } = typescript.get(doc);
      return result.queries.map((q) => ({
        range: lines.range(q.start, q.start),
        command: { title: q.classification ? tsLens(q.classification) : "filter not known statically", command: "" },
      }));
    }
    const uri = p.textDocument.uri;
    return (
      withDoc(p, ({ analysis, lines }) => [
        // Above each table: check the design against the live table of the same name.
        ...analysis.tables
          .filter((t) => t.table.name.text)
          .flatMap((t) => {
            const range = lines.range(t.base + t.table.name.start, t.base + t.table.name.end);
            return [
              { range, command: { title: "Stress test", command: "tableDesign.runStressTest", arguments: [uri, t.table.name.text] } },
              {
                range,
                command: { title: "Check against live data", command: "tableDesign.checkLiveData", arguments: [uri, t.table.name.text] },
              },
              {
                range,
                command: {
                  title: "Generate key builders",
                  command: "tableDesign.generateKeyBuilders",
                  arguments: [uri, t.table.name.text],
                },
              },
            ];
          }),
        ...queryInfos(analysis)
          .filter((q) => q.classification)
          .map((q) => ({ range: lines.range(q.start, q.end), command: { title: summary(q.classification!), command: "" } })),
      ]) ?? []
    );
  }),
);

function tsLens(c: Classification): string {
  return c.class === "table-scan" ? "table-scan · scans every partition" : summary(c);
}

// The last net, not the plan: every handler and timer above is guarded already.
process.on("unhandledRejection", (e) => guard.report("unhandled rejection", e));
process.on("uncaughtException", (e) => guard.report("uncaught exception", e));

documents.listen(connection);
connection.listen();
