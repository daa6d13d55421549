/**
 * The language server: a map of handlers. Each LSP request is answered by
 * its provider (features/, one per feature, wired in one line in
 * features/index.ts) through the one wrapper (lsp/feature.ts), which maps a
 * failure to the response error of its kind and bounds the answer by the
 * request budget (lsp/budget.ts). `node dist/server.js --stdio` speaks LSP
 * on stdio.
 *
 * Every handler and notification runs inside the guard (`lsp/guard.ts`):
 * no document, request or notification can make the process exit. The
 * analyses turn their own failures into one `internal` diagnostic on the
 * document.
 */
import {
  createConnection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  InitializeParams,
  InitializeResult,
  MessageType,
  ProposedFeatures,
  ShowMessageNotification,
  TextDocuments,
  TextDocumentSyncKind,
} from "vscode-languageserver/node";
import { fileURLToPath } from "node:url";
import { AnalysisOptions } from "@core";
import { analysisSettings, checkSetting, SECTION, sectionValue } from "@protocol/settings";
import { AnalysisCache } from "./lsp/documents";
import { isTypeScript, TypeScriptDocuments } from "./lsp/typescript";
import { filePath, WorkspaceDesigns } from "./lsp/designs";
import { WorkspaceDiagnostics, WorkspaceScope } from "./lsp/workspace-diagnostics";
import { Guard } from "./lsp/guard";
import { CHECKED_SYNC } from "./lsp/text-sync";
import { DiagnosticsScheduler, isTdl } from "./lsp/scheduler";
import { Feature, FeatureHost } from "./lsp/feature";
import { FEATURES } from "./features";

const connection = createConnection(ProposedFeatures.all);
const guard = new Guard({ error: (m) => connection.console.error(m), warn: (m) => connection.console.warn(m) });
const documents = new TextDocuments(CHECKED_SYNC);
const cache = new AnalysisCache((m) => connection.console.error(m));
let workspaceFolders: string[] = [];
/** What the user should see once: the client shows it in its status bar and output channel (the callers say each sentence once). */
const warnUser = (message: string) => {
  connection.console.warn(message);
  void connection.sendNotification("tableDesign/analysisWarning", { message }).catch(() => undefined);
};
const designs = new WorkspaceDesigns(
  () => workspaceFolders,
  () =>
    documents
      .all()
      .filter(isTdl)
      .map((d) => ({ uri: d.uri, analysis: cache.get(d).analysis })),
  warnUser,
  () => cache.options,
);
const typescript = new TypeScriptDocuments(designs, (m) => connection.console.error(m), warnUser);
const diagnostics = new DiagnosticsScheduler(connection, documents, cache, typescript, guard);
/** Whether a document of this path is open (URIs compared by path: clients encode them in their own way). */
const isOpen = (uri: string) => {
  const file = filePath(uri);
  return documents.all().some((d) => d.uri === uri || (file !== undefined && filePath(d.uri) === file));
};
const workspace = new WorkspaceDiagnostics(connection, designs, isOpen, guard);
let canPullConfiguration = false;
let canRegisterConfigurationChange = false;
let canWatchFiles = false;

/** Folder URIs of the workspace as paths, each once (clients send the root as a folder too); entries that are not `file:` URIs (or not strings) are left out. */
function folderPaths(params: InitializeParams): string[] {
  const uris: unknown[] = [...(Array.isArray(params.workspaceFolders) ? params.workspaceFolders.map((f) => f?.uri) : []), params.rootUri];
  const paths = uris
    .filter((u): u is string => typeof u === "string" && u.startsWith("file:"))
    .flatMap((u) => {
      try {
        return [fileURLToPath(u)];
      } catch {
        return [];
      }
    });
  return [...new Set(paths)];
}

connection.onInitialize((params: InitializeParams): InitializeResult => {
  try {
    canPullConfiguration = !!params?.capabilities?.workspace?.configuration;
    canRegisterConfigurationChange = !!params?.capabilities?.workspace?.didChangeConfiguration?.dynamicRegistration;
    canWatchFiles = !!params?.capabilities?.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    cache.reset(readOptions(params?.initializationOptions));
    workspace.scope = scopeOf(params?.initializationOptions);
    workspaceFolders = params ? folderPaths(params) : [];
  } catch (e) {
    // A malformed initialize still gets a working server, with default options.
    guard.failed("initialize", e);
  }
  return {
    capabilities: Object.assign({ textDocumentSync: TextDocumentSyncKind.Incremental }, ...FEATURES.map((f) => f.capabilities ?? {})),
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
    // Design files changed on disk (saved, created, deleted, changed by git): their diagnostics and the drift they judge.
    if (canWatchFiles) {
      connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: "**/*.tdl" }] })
        .catch((e: Error) => connection.console.warn(`design files changed on disk will not be followed: ${e.message}`));
    }
    if (canPullConfiguration) return pullConfiguration();
    workspace.refresh();
  }),
);

/** The `tableDesign.workspaceDiagnostics` setting: "designs" (the default) or "off" (open files only). */
function scopeOf(raw: unknown): WorkspaceScope {
  const { value, problem } = checkSetting("workspaceDiagnostics", sectionValue(raw, "workspaceDiagnostics"));
  if (problem) connection.console.warn(`setting ignored: ${problem}`);
  return value;
}

/** Settings as the user wrote them: anything unusable is left out and logged, never trusted. */
function readOptions(raw: unknown): AnalysisOptions {
  const { options, problems } = analysisSettings((name) => sectionValue(raw, name));
  for (const p of problems) connection.console.warn(`setting ignored: ${p}`);
  return options;
}

async function pullConfiguration(): Promise<void> {
  let cfg: unknown;
  try {
    cfg = await connection.workspace.getConfiguration(SECTION);
  } catch (e) {
    connection.console.warn(`could not read the tableDesign settings: ${(e as Error)?.message ?? String(e)}`);
    workspace.refresh();
    return;
  }
  applyOptions(readOptions(cfg), scopeOf(cfg));
}

function applyOptions(options: AnalysisOptions, scope: WorkspaceScope): void {
  cache.reset(options);
  typescript.options = options;
  typescript.reset();
  for (const doc of documents.all()) diagnostics.schedule(doc);
  workspace.scope = scope;
  // The designs on disk are analysed with the options too: their diagnostics and the drift they judge.
  workspace.refresh();
}

connection.onDidChangeConfiguration(
  guard.run("configuration change", (change) => {
    if (canPullConfiguration) return pullConfiguration();
    const raw = (change?.settings as { tableDesign?: unknown } | undefined)?.tableDesign;
    applyOptions(readOptions(raw), scopeOf(raw));
  }),
);

connection.onDidChangeWatchedFiles(
  guard.run("design files changed", (params) => {
    const changes = (Array.isArray(params?.changes) ? params.changes : [])
      .filter((c) => typeof c?.uri === "string" && c.uri.endsWith(".tdl"))
      .map((c) => ({ uri: c.uri, deleted: c.type === FileChangeType.Deleted }));
    if (!changes.length) return;
    // Taken in slices (the scan's budget holds for watched files too); the drift findings of open code follow once all are read.
    workspace.filesChanged(changes, () => {
      for (const doc of typescript.designsChanged(documents.all())) diagnostics.schedule(doc);
    });
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
    // A design file of the workspace keeps the diagnostics of its saved text; anything else is cleared.
    if (isTdl(e.document)) workspace.closed(e.document.uri);
    else void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    // Closing a design that differed from its saved text changes what drift compares code with.
    if (isTdl(e.document)) for (const doc of typescript.designsChanged(documents.all())) diagnostics.schedule(doc);
  }),
);

// Every request: one provider per feature (features/index.ts), answered through the one wrapper.
const features = new FeatureHost({
  documents,
  cache,
  typescript,
  guard,
  // A notification, not a request: nothing waits for the user to close it.
  tell: (message) =>
    void connection
      .sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `Table Design: ${message}` })
      .catch(() => undefined),
});
for (const f of FEATURES) connection.onRequest(f.method, features.serve(f as Feature<unknown, unknown>));

// The last net, not the plan: every handler and timer above is guarded already.
process.on("unhandledRejection", (e) => guard.report("unhandled rejection", e));
process.on("uncaughtException", (e) => guard.report("uncaught exception", e));

documents.listen(connection);
connection.listen();
