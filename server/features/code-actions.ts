/** Quick fixes: rebuilt from the `data` of the diagnostics the client sends back (lsp/convert.ts). */
import { CodeAction, CodeActionParams } from "vscode-languageserver/node";
import { codeActionsFor } from "../lsp/convert";
import { feature } from "../lsp/feature";
import { contextDiagnostics, documentUri } from "../lsp/params";

export const codeActions = feature<CodeActionParams, CodeAction[]>({
  name: "code actions",
  method: "textDocument/codeAction",
  capabilities: { codeActionProvider: { codeActionKinds: ["quickfix"] } },
  empty: [],
  answer: (params) => codeActionsFor(documentUri(params), contextDiagnostics(params)),
});
